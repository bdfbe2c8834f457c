terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.26.0"
    }
  }
}

# Provider connects to the fixture server (see ../../README.md) as the
# non-superuser admin fx_managed_admin (CREATEROLE CREATEDB; tools/managed-admin.sql).
provider "postgresql" {
  host            = "127.0.0.1"
  port            = 25433
  database        = "postgres"
  username        = "fx_managed_admin"
  password        = "fxmanagedpw"
  sslmode         = "disable"
  superuser       = false
  connect_timeout = 15
}

# Applied, then removed from state and re-imported with:
#   terraform import postgresql_function.imp 'postgres.public.fx_fn_imp(integer)'
resource "postgresql_function" "imp" {
  name     = "fx_fn_imp"
  language = "sql"

  arg {
    name = "x"
    type = "integer"
  }

  returns    = "integer"
  body       = "SELECT x * 2"
  volatility = "IMMUTABLE"
}
