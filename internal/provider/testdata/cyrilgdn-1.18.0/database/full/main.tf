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
  name = "fx_db_owner"
}

# Every optional argument set explicitly (non-default locale from template0).
resource "postgresql_database" "full" {
  name              = "fx_db_full"
  owner             = postgresql_role.owner.name
  template          = "template0"
  encoding          = "UTF8"
  lc_collate        = "en_US.UTF-8"
  lc_ctype          = "en_US.UTF-8"
  connection_limit  = 10
  allow_connections = true
  is_template       = false
  tablespace_name   = "pg_default"
}
