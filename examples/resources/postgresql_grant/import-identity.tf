# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_grant.orders_read
  identity = {
    role        = "reporting"
    database    = "shop"
    schema      = "public"
    object_type = "table"
    objects     = ["order_lines", "orders"]
  }
}
