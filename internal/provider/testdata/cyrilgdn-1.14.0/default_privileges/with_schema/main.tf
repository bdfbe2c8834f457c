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

resource "postgresql_role" "owner" {
  name = "fx_dp_owner"
}

resource "postgresql_role" "reader" {
  name = "fx_dp_reader"
}

# Tables created by fx_dp_owner in schema app will be readable by fx_dp_reader.
resource "postgresql_default_privileges" "tables" {
  database    = "fx_dp_db"
  schema      = "app"
  owner       = postgresql_role.owner.name
  role        = postgresql_role.reader.name
  object_type = "table"
  privileges  = ["SELECT"]
}

# Sequences, with grant option.
resource "postgresql_default_privileges" "sequences" {
  database          = "fx_dp_db"
  schema            = "app"
  owner             = postgresql_role.owner.name
  role              = postgresql_role.reader.name
  object_type       = "sequence"
  privileges        = ["SELECT", "USAGE"]
  with_grant_option = true
}
