# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_extension.pgcrypto
  identity = {
    database = "app"
    name     = "pgcrypto"
  }
}
