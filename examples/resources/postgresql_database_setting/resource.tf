# Every session in the database "orders" gets these, whoever logs in.
resource "postgresql_database_setting" "orders_search_path" {
  database  = "orders"
  parameter = "search_path"
  value     = "orders, public"
}

resource "postgresql_database_setting" "orders_statement_timeout" {
  database  = "orders"
  parameter = "statement_timeout"
  value     = "30s"
}

# A read-only reporting role: in "orders" only, its sessions start read-only
# and may run longer queries than the database's default.
resource "postgresql_role" "reporting" {
  name  = "reporting"
  login = true
}

resource "postgresql_database_setting" "reporting_read_only" {
  database  = "orders"
  role      = postgresql_role.reporting.name
  parameter = "default_transaction_read_only"
  value     = "on"
}

resource "postgresql_database_setting" "reporting_statement_timeout" {
  database  = "orders"
  role      = postgresql_role.reporting.name
  parameter = "statement_timeout"
  value     = "5min"
}
