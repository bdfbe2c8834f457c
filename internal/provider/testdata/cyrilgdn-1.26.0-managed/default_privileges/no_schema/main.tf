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

resource "postgresql_role" "owner" {
  name = "fx_dp_owner"
}

resource "postgresql_role" "user" {
  name = "fx_dp_user"
}

# No schema: applies to objects created by the owner in any schema of the database.
resource "postgresql_default_privileges" "functions" {
  database    = "fx_dp_db"
  owner       = postgresql_role.owner.name
  role        = postgresql_role.user.name
  object_type = "function"
  privileges  = ["EXECUTE"]
}

resource "postgresql_default_privileges" "types" {
  database    = "fx_dp_db"
  owner       = postgresql_role.owner.name
  role        = postgresql_role.user.name
  object_type = "type"
  privileges  = ["USAGE"]
}

# Multiple table privileges, no schema.
resource "postgresql_default_privileges" "tables" {
  database    = "fx_dp_db"
  owner       = postgresql_role.owner.name
  role        = postgresql_role.user.name
  object_type = "table"
  privileges  = ["DELETE", "INSERT", "SELECT", "UPDATE"]
}
