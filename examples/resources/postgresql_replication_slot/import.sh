# <database>.<slot name>; a database name that contains a dot is written in
# double quotes, as in SQL: "my.db".cdc_slot
terraform import postgresql_replication_slot.example shop.cdc_slot
