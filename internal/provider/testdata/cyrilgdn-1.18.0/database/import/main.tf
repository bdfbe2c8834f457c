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

# ADAPTED for cyrilgdn 1.18.0: removed alter_object_ownership (argument not in this release;
# the 1.26.0 case sets it).
resource "postgresql_role" "owner" {
  name = "fx_db_imp_owner"
}

# Applied, then removed from state and re-imported with: terraform import postgresql_database.imp fx_db_imp
resource "postgresql_database" "imp" {
  name             = "fx_db_imp"
  owner            = postgresql_role.owner.name
  connection_limit = 7
}
