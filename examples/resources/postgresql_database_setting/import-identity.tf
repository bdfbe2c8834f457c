# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_database_setting.orders_statement_timeout
  identity = {
    database  = "orders"
    parameter = "statement_timeout"
  }
}
