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
resource "postgresql_server" "remote" {
  server_name = "fx_um_remote"
  fdw_name    = "postgres_fdw"
  options = {
    host   = "db.example.internal"
    dbname = "remote_db"
  }

}

resource "postgresql_role" "local" {
  name = "fx_um_local"
}

# User mapping with options (the remote password lands in state in clear text,
# options is not marked sensitive by cyrilgdn).
resource "postgresql_user_mapping" "local" {
  server_name = postgresql_server.remote.server_name
  user_name   = postgresql_role.local.name
  options = {
    user     = "remote_user"
    password = "fx-remote-pass-1"
  }
}
