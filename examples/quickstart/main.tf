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

resource "postgresql_role" "readers" {
  name = "quickstart_readers"
}

resource "postgresql_role" "app" {
  name              = "quickstart_app"
  login             = true
  password          = "quickstart-demo-password"
  connection_limit  = 10
  roles             = [postgresql_role.readers.name]
  search_path       = ["app", "$user", "public"]
  statement_timeout = 30000

  lifecycle {
    postcondition {
      condition     = self.oid > 0
      error_message = "the role must exist on the server"
    }
  }
}

output "app_role" {
  value = {
    name  = postgresql_role.app.name
    oid   = postgresql_role.app.oid
    roles = postgresql_role.app.roles
  }
}
