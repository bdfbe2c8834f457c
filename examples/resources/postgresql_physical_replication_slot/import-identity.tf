# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_physical_replication_slot.standby
  identity = {
    name = "standby_1"
  }
}
