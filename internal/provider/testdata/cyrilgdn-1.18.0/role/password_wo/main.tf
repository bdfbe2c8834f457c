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

# ADAPTED for cyrilgdn 1.18.0: removed password_wo, password_wo_version (arguments not in this release;
# the 1.26.0 case sets them).
# Login role with a connection limit and no password (the 1.26.0 case gives it a
# write-only password here).
resource "postgresql_role" "wo" {
  name             = "fx_role_wo"
  login            = true
  connection_limit = 2
}

# Login role without any password.
resource "postgresql_role" "nopass" {
  name  = "fx_role_nopass"
  login = true
}
