terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# Every argument can also come from the libpq environment variables
# (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGSSLMODE, ...).
provider "postgresql" {
  host            = "db.example.com"
  port            = 5432
  database        = "postgres"
  username        = "terraform"
  sslmode         = "verify-full"
  sslrootcert     = "/etc/ssl/certs/db-ca.pem"
  connect_timeout = 15
  max_connections = 10

  # On AWS RDS, Cloud SQL or Azure the admin role is not a superuser.
  superuser = false
}
