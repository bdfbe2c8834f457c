# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_schema.app
  identity = {
    database = "app"
    name     = "app"
  }
}
