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

resource "postgresql_role" "owner" {
  name = "fx_sch_owner"
}

resource "postgresql_database" "db" {
  name = "fx_sch_db"
}

# Schema in a non-default database with an explicit owner.
resource "postgresql_schema" "app" {
  name     = "app"
  database = postgresql_database.db.name
  owner    = postgresql_role.owner.name
}

# Schema in the provider's default database ("postgres"), owner computed.
resource "postgresql_schema" "plain" {
  name = "fx_sch_plain"
}
