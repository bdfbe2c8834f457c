resource "postgresql_role" "app" {
  name  = "app"
  login = true
}

# In every database the role connects to.
resource "postgresql_role_setting" "app_work_mem" {
  role      = postgresql_role.app.name
  parameter = "work_mem"
  value     = "64MB"
}

# In one database only: wins over the setting for every database.
resource "postgresql_role_setting" "app_search_path" {
  role      = postgresql_role.app.name
  database  = "orders"
  parameter = "search_path"
  value     = "orders, public"
}

# A custom variable, read by the application with current_setting('app.tenant').
resource "postgresql_role_setting" "app_tenant" {
  role      = postgresql_role.app.name
  database  = "orders"
  parameter = "app.tenant"
  value     = "acme"
}
