# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_server.reporting
  identity = {
    database    = "app"
    server_name = "reporting"
  }
}
