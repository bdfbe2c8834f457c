# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_object_owner.orders
  identity = {
    database    = "shop"
    object_type = "table"
    schema      = "sales"
    object_name = "orders"
  }
}
