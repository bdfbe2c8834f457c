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

resource "postgresql_role" "fdw" {
  name = "fx_gr_fdw"
}

# Foreign data wrapper grant (no schema; exactly one object).
resource "postgresql_grant" "fdw" {
  database    = "fx_grant_db"
  role        = postgresql_role.fdw.name
  object_type = "foreign_data_wrapper"
  objects     = ["postgres_fdw"]
  privileges  = ["USAGE"]
}

# Foreign server grant with grant option.
resource "postgresql_grant" "server" {
  database          = "fx_grant_db"
  role              = postgresql_role.fdw.name
  object_type       = "foreign_server"
  objects           = ["fx_grant_srv"]
  privileges        = ["USAGE"]
  with_grant_option = true
}

# Empty privileges = revoke everything the (pre-existing) role has on these tables.
resource "postgresql_grant" "revoke_legacy" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = "fx_gr_legacy"
  object_type = "table"
  objects     = ["t2"]
  privileges  = []
}

# Revoke the default EXECUTE from PUBLIC on one function.
resource "postgresql_grant" "revoke_public_exec" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = "public"
  object_type = "function"
  objects     = ["f_now"]
  privileges  = []
}
