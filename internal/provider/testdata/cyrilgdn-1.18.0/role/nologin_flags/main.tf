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

# NOLOGIN role with every boolean flag flipped away from its default,
# plus the deprecated "encrypted" attribute.
resource "postgresql_role" "flags" {
  name                      = "fx_role_flags"
  login                     = false
  superuser                 = false
  create_database           = true
  create_role               = true
  inherit                   = false
  replication               = true
  bypass_row_level_security = true
  skip_reassign_owned       = true
  skip_drop_role            = false
  valid_until               = "infinity"
  encrypted                 = "true"
}

# Name that needs quoting (upper case, dash, space).
resource "postgresql_role" "quoted" {
  name = "Fx-Mixed Case"
}

# Superuser login role.
resource "postgresql_role" "super" {
  name      = "fx_role_super"
  superuser = true
  login     = true
  password  = "fx-super-pass-1"
}
