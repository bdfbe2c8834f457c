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

resource "postgresql_extension" "file_fdw" {
  name = "file_fdw"
}

# Only the required arguments: no options, owner computed.
resource "postgresql_server" "files" {
  server_name = "fx_srv_files"
  fdw_name    = "file_fdw"

  depends_on = [postgresql_extension.file_fdw]
}
