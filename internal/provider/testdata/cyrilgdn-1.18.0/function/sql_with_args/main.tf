terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.18.0"
    }
  }
}

# Provider connects to the fixture server (see ../../README.md).
provider "postgresql" {
  host            = "127.0.0.1"
  port            = 25433
  database        = "postgres"
  username        = "postgres"
  password        = "pgfixpw"
  sslmode         = "disable"
  superuser       = true
  connect_timeout = 15
}

# ADAPTED for cyrilgdn 1.18.0: postgresql_function.add: options moved into body, which holds everything after the return type (no language, volatility, strict, parallel, security_definer in this release).
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

  arg {
    name = "a"
    type = "integer"
  }

  arg {
    name    = "b"
    type    = "integer"
    default = "1"
  }

  returns = "integer"
  body    = "AS $$SELECT a + b$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE"
}
