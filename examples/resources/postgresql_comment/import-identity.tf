# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_comment.orders
  identity = {
    database    = "app"
    object_type = "table"
    schema      = "sales"
    object_name = "orders"
  }
}
