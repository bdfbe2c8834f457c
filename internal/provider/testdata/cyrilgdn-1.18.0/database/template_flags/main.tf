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
# Template database that nobody may connect to, copied from template1.
resource "postgresql_database" "tpl" {
  name              = "fx_db_tpl"
  template          = "template1"
  is_template       = true
  allow_connections = false
  connection_limit  = 0
}

# Non-UTF8 encoding with the C locale (requires template0), explicit defaults.
resource "postgresql_database" "latin1" {
  name              = "fx_db_latin1"
  template          = "template0"
  encoding          = "LATIN1"
  lc_collate        = "C"
  lc_ctype          = "C"
  owner             = "postgres"
  connection_limit  = -1
  allow_connections = true
}
