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

resource "postgresql_database" "db" {
  name = "fx_fn_db"
}

resource "postgresql_schema" "fn" {
  name     = "fn"
  database = postgresql_database.db.name
}

# SQL function with named args, a default value and non-default options.
resource "postgresql_function" "add" {
  name     = "fx_add"
  database = postgresql_database.db.name
  schema   = postgresql_schema.fn.name
  language = "sql"

  arg {
    name = "a"
    type = "integer"
  }

  arg {
    name    = "b"
    type    = "integer"
    default = "1"
  }

  returns          = "integer"
  body             = "SELECT a + b"
  volatility       = "IMMUTABLE"
  strict           = true
  parallel         = "SAFE"
  security_definer = false
}
