terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.26.0"
    }
  }
}

# Provider connects to the fixture server (see ../../README.md) as the
# non-superuser admin fx_managed_admin (CREATEROLE CREATEDB; tools/managed-admin.sql).
provider "postgresql" {
  host            = "127.0.0.1"
  port            = 25433
  database        = "postgres"
  username        = "fx_managed_admin"
  password        = "fxmanagedpw"
  sslmode         = "disable"
  superuser       = false
  connect_timeout = 15
}

resource "postgresql_role" "group" {
  name = "fx_role_imp_group"
}

# Applied, then removed from state and re-imported with: terraform import postgresql_role.imp fx_role_imp
resource "postgresql_role" "imp" {
  name              = "fx_role_imp"
  login             = true
  password          = "fx-imp-pass-1"
  connection_limit  = 3
  roles             = [postgresql_role.group.name]
  search_path       = ["public"]
  statement_timeout = 1000
  valid_until       = "2099-01-01 00:00:00+00"
}
