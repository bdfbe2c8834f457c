terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# Credentials can also come from the environment (PGHOST, PGPORT, PGUSER,
# PGPASSWORD, PGSSLMODE, ...) or a password file (~/.pgpass).
provider "postgresql" {
  host     = "db.example.com"
  port     = 5432
  database = "postgres"
  username = "terraform"
  sslmode  = "verify-full"

  # On a managed service (AWS RDS, Cloud SQL, Azure) the admin role is not a superuser.
  superuser = false
}
