# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_table_rls.orders
  identity = {
    database = "app"
    schema   = "sales"
    table    = "orders"
  }
}
