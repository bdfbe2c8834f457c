# the slot name
terraform import postgresql_physical_replication_slot.example standby_1
