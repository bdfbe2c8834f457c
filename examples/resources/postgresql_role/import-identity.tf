# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_role.app
  identity = {
    name = "app"
  }
}
