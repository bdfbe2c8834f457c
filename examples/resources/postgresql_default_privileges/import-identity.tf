# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_default_privileges.reporting_tables
  identity = {
    role        = "reporting"
    database    = "shop"
    owner       = "migrator"
    schema      = "public"
    object_type = "table"
  }
}
