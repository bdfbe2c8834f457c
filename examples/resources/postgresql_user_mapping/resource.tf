# Terraform 1.10+: an ephemeral variable's value never reaches the plan or the state.
variable "reporting_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "postgresql_server" "reporting" {
  database    = "app"
  server_name = "reporting"
  fdw_name    = "postgres_fdw"
  options = {
    host   = "reporting.internal"
    dbname = "reporting"
  }
}

resource "postgresql_user_mapping" "app" {
  database    = postgresql_server.reporting.database
  server_name = postgresql_server.reporting.server_name
  user_name   = "app"
  options = {
    user = "app_reader"
  }
  # Terraform 1.11+: write-only, never in the plan or the state; set again when the version changes.
  options_wo = {
    password = var.reporting_password
  }
  options_wo_version = "1"
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
