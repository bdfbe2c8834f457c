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
  name = "fx_sch_imp_owner"
}

resource "postgresql_database" "db" {
  name = "fx_sch_imp_db"
}

# Applied, then removed from state and re-imported with:
#   terraform import postgresql_schema.imp fx_sch_imp_db.fx_sch_imp
resource "postgresql_schema" "imp" {
  name          = "fx_sch_imp"
  database      = postgresql_database.db.name
  owner         = postgresql_role.owner.name
  drop_cascade  = true
  if_not_exists = true
}
