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

resource "postgresql_role" "creator" {
  name = "fx_dp_creator"
}

# object_type "schema" (schema attribute must be omitted).
resource "postgresql_default_privileges" "schemas" {
  database    = "fx_dp_db"
  owner       = postgresql_role.owner.name
  role        = postgresql_role.creator.name
  object_type = "schema"
  privileges  = ["CREATE", "USAGE"]
}

# Remove the built-in default EXECUTE for PUBLIC on new functions (privileges = []).
resource "postgresql_default_privileges" "revoke_public_exec" {
  database    = "fx_dp_db"
  owner       = postgresql_role.owner.name
  role        = "public"
  object_type = "function"
  privileges  = []
}

# Default privilege granted to PUBLIC in one schema.
resource "postgresql_default_privileges" "public_tables" {
  database    = "fx_dp_db"
  schema      = "app"
  owner       = postgresql_role.owner.name
  role        = "public"
  object_type = "table"
  privileges  = ["SELECT"]
}
