# Quickstart: what `make demo` applies against a throwaway PostgreSQL.
terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# Connection settings come from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSSLMODE.
provider "postgresql" {}

# The app role's password (make demo sets TF_VAR_app_password). Write-only (password_wo, Terraform >= 1.11):
# it reaches neither the plan nor the state.
variable "app_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "postgresql_role" "readers" {
  name = "quickstart_readers"
}

resource "postgresql_role" "app" {
  name                = "quickstart_app"
  login               = true
  password_wo         = var.app_password
  password_wo_version = "1" # change it to set password_wo again
  connection_limit    = 10
  roles               = [postgresql_role.readers.name]
  search_path         = ["app", "$user", "public"]
  statement_timeout   = 30000

  lifecycle {
    postcondition {
      condition     = self.oid > 0
      error_message = "the role must exist on the server"
    }
  }
}

# A database owned by the app role, a schema in it, and privileges that converge.
resource "postgresql_database" "app" {
  name  = "quickstart_app"
  owner = postgresql_role.app.name
}

resource "postgresql_schema" "reporting" {
  name     = "reporting"
  database = postgresql_database.app.name
  owner    = postgresql_role.app.name
}

resource "postgresql_extension" "pgcrypto" {
  name     = "pgcrypto"
  database = postgresql_database.app.name
  schema   = postgresql_schema.reporting.name
}

resource "postgresql_grant" "readers_connect" {
  role        = postgresql_role.readers.name
  database    = postgresql_database.app.name
  object_type = "database"
  privileges  = ["CONNECT"]
}

resource "postgresql_grant" "readers_tables" {
  role        = postgresql_role.readers.name
  database    = postgresql_database.app.name
  schema      = postgresql_schema.reporting.name
  object_type = "table"
  privileges  = ["SELECT"]
}

resource "postgresql_default_privileges" "readers_future_tables" {
  role        = postgresql_role.readers.name
  database    = postgresql_database.app.name
  owner       = postgresql_role.app.name
  schema      = postgresql_schema.reporting.name
  object_type = "table"
  privileges  = ["SELECT"]
}

output "app_role" {
  value = {
    name  = postgresql_role.app.name
    oid   = postgresql_role.app.oid
    roles = postgresql_role.app.roles
  }
}

output "database" {
  value = {
    name   = postgresql_database.app.name
    oid    = postgresql_database.app.oid
    schema = postgresql_schema.reporting.id
  }
}
