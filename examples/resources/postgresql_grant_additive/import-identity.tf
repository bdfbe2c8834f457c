# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_grant_additive.ingest
  identity = {
    role        = "app"
    database    = "shop"
    schema      = "public"
    object_type = "table"
    objects     = ["order_lines", "orders"]
    privileges  = ["INSERT"]
  }
}
