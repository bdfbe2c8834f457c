# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_replication_slot.cdc
  identity = {
    database = "shop"
    name     = "cdc_slot"
  }
}
