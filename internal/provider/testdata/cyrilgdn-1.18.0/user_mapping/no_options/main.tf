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

resource "postgresql_server" "remote" {
  server_name = "fx_um_noopt_srv"
  fdw_name    = "postgres_fdw"

  depends_on = [postgresql_extension.postgres_fdw]
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

# Mapping for the connecting superuser (postgres), one option.
resource "postgresql_user_mapping" "postgres" {
  server_name = postgresql_server.remote.server_name
  user_name   = "postgres"
  options = {
    user = "postgres"
  }
}
