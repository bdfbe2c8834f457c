# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_default_privileges_additive.app_read
  identity = {
    role        = "app"
    database    = "shop"
    owner       = "migrator"
    schema      = "public"
    object_type = "table"
    privileges  = ["SELECT"]
  }
}
