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

# Write-only password (Terraform >= 1.11): password_wo is never stored in state,
# password_wo_version is stored and triggers a password change when bumped.
resource "postgresql_role" "wo" {
  name                = "fx_role_wo"
  login               = true
  password_wo         = "fx-wo-pass-1"
  password_wo_version = "1"
  connection_limit    = 2
}

# Login role without any password.
resource "postgresql_role" "nopass" {
  name  = "fx_role_nopass"
  login = true
}
