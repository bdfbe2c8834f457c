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

resource "postgresql_extension" "postgres_fdw" {
  name = "postgres_fdw"
}

resource "postgresql_role" "owner" {
  name = "fx_srv_owner"
}

# Foreign server with every optional argument (in the provider's database "postgres").
resource "postgresql_server" "remote" {
  server_name    = "fx_srv_remote"
  fdw_name       = "postgres_fdw"
  server_owner   = postgresql_role.owner.name
  server_type    = "postgresql"
  server_version = "15"
  drop_cascade   = true
  options = {
    host       = "db.example.internal"
    port       = "5432"
    dbname     = "remote_db"
    fetch_size = "500"
  }

  depends_on = [postgresql_extension.postgres_fdw]
}
