# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_user_mapping.app
  identity = {
    database    = "app"
    server_name = "reporting"
    user_name   = "app"
  }
}
