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

# ADAPTED for a non-superuser admin: removed postgresql_extension.postgres_fdw (an untrusted extension: setup.sql installs it as the superuser and grants the admin USAGE on its wrapper).
# ADAPTED for a non-superuser admin: removed server_owner (cyrilgdn 1.26.0 gives the server to the role without making itself a member of it first: "must be member of role fx_srv_owner"; the role it creates stays, unused).
resource "postgresql_role" "owner" {
  name = "fx_srv_owner"
}

# Foreign server with every optional argument (in the provider's database "postgres").
resource "postgresql_server" "remote" {
  server_name    = "fx_srv_remote"
  fdw_name       = "postgres_fdw"
  server_type    = "postgresql"
  server_version = "15"
  drop_cascade   = true
  options = {
    host       = "db.example.internal"
    port       = "5432"
    dbname     = "remote_db"
    fetch_size = "500"
  }

}
