# End every session connected to a database (the provider's own excepted),
# e.g. before maintenance.
action "postgresql_terminate_connections" "app" {
  config {
    database = "app"
  }
}

# End the sessions of one role in one database: here every time its password
# changes, so that nobody stays logged in with the old one.
action "postgresql_terminate_connections" "reporting_in_app" {
  config {
    database = "app"
    role     = postgresql_role.reporting.name
  }
}

variable "reporting_password" {
  type      = string
  sensitive = true
}

resource "postgresql_role" "reporting" {
  name     = "reporting"
  login    = true
  password = var.reporting_password

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.postgresql_terminate_connections.reporting_in_app]
    }
  }
}
