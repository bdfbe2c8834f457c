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

resource "postgresql_role" "member" {
  name  = "fx_gro_admin_member"
  login = true

  # postgresql_role.roles would otherwise show the memberships managed by
  # postgresql_grant_role as drift (cyrilgdn issue #285); documented workaround:
  lifecycle {
    ignore_changes = [roles]
  }
}

resource "postgresql_role" "group" {
  name = "fx_gro_admin_group"
}

# Membership WITH ADMIN OPTION.
resource "postgresql_grant_role" "admin" {
  role              = postgresql_role.member.name
  grant_role        = postgresql_role.group.name
  with_admin_option = true
}

# with_admin_option explicitly false, built-in role.
resource "postgresql_grant_role" "monitor" {
  role              = postgresql_role.member.name
  grant_role        = "pg_monitor"
  with_admin_option = false
}
