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

# Group roles (no login, all defaults) used as membership targets.
resource "postgresql_role" "group_a" {
  name = "fx_role_group_a"
}

resource "postgresql_role" "group_b" {
  name = "fx_role_group_b"
}

# Login role with a plaintext password (kept in state) and most optional settings.
resource "postgresql_role" "app" {
  name                                = "fx_role_app"
  login                               = true
  password                            = "fx-app-pass-1"
  encrypted_password                  = true
  connection_limit                    = 5
  valid_until                         = "2099-12-31 23:59:59+00"
  roles                               = [postgresql_role.group_a.name, postgresql_role.group_b.name]
  search_path                         = ["app", "$user", "public"]
  statement_timeout                   = 30000
  idle_in_transaction_session_timeout = 60000
  assume_role                         = postgresql_role.group_a.name
}
