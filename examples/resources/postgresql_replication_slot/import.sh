# <database>.<slot name>
terraform import postgresql_replication_slot.example shop.cdc_slot
