terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.14.0"
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

resource "postgresql_database" "db" {
  name = "fx_ext_db"
}

resource "postgresql_schema" "ext" {
  name     = "extensions"
  database = postgresql_database.db.name
}

# Extension pinned to an older version, in a given schema of a given database.
resource "postgresql_extension" "hstore" {
  name     = "hstore"
  database = postgresql_database.db.name
  schema   = postgresql_schema.ext.name
  version  = "1.7"
}
