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

resource "postgresql_role" "app" {
  name  = "fx_gr_app"
  login = true
}

# Database-level grant (no schema, no objects).
resource "postgresql_grant" "db" {
  database    = "fx_grant_db"
  role        = postgresql_role.app.name
  object_type = "database"
  privileges  = ["CONNECT", "CREATE", "TEMPORARY"]
}

# Database-level grant to PUBLIC.
resource "postgresql_grant" "db_public" {
  database    = "fx_grant_db"
  role        = "public"
  object_type = "database"
  privileges  = ["CONNECT"]
}

# Schema-level grant with grant option.
resource "postgresql_grant" "schema" {
  database          = "fx_grant_db"
  schema            = "app"
  role              = postgresql_role.app.name
  object_type       = "schema"
  privileges        = ["CREATE", "USAGE"]
  with_grant_option = true
}

# Schema-level grant to PUBLIC.
resource "postgresql_grant" "schema_public" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = "public"
  object_type = "schema"
  privileges  = ["USAGE"]
}
