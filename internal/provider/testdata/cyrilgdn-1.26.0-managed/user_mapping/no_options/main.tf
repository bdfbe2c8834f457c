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
# ADAPTED for a non-superuser admin: the mapping for the connecting user is for the admin, not for postgres.
resource "postgresql_server" "remote" {
  server_name = "fx_um_noopt_srv"
  fdw_name    = "postgres_fdw"

}

resource "postgresql_role" "plain" {
  name = "fx_um_plain"
}

# Mapping without options.
# (user_name = "public" cannot be used with cyrilgdn 1.26.0: the mapping is created
#  but never read back -> "Root object was present, but now absent"; see README.)
resource "postgresql_user_mapping" "plain" {
  server_name = postgresql_server.remote.server_name
  user_name   = postgresql_role.plain.name
}

# Mapping for the connecting admin, one option.
resource "postgresql_user_mapping" "postgres" {
  server_name = postgresql_server.remote.server_name
  user_name   = "fx_managed_admin"
  options = {
    user = "postgres"
  }
}
