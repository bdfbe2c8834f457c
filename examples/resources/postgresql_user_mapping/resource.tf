resource "postgresql_user_mapping" "app" {
  database    = postgresql_server.reporting.database
  server_name = postgresql_server.reporting.server_name
  user_name   = "app"
  options = {
    user     = "app_reader"
    password = var.reporting_password
  }
}

# The mapping used by every role that has none of its own.
resource "postgresql_user_mapping" "everyone" {
  database    = postgresql_server.reporting.database
  server_name = postgresql_server.reporting.server_name
  user_name   = "public"
  options = {
    user = "readonly"
  }
}
