# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_policy.own_orders
  identity = {
    database = "app"
    schema   = "sales"
    table    = "orders"
    name     = "own_orders"
  }
}
