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

resource "postgresql_role" "member" {
  name  = "fx_gro_member"
  login = true

  # postgresql_role.roles would otherwise show the memberships managed by
  # postgresql_grant_role as drift (cyrilgdn issue #285); documented workaround:
  lifecycle {
    ignore_changes = [roles]
  }
}

resource "postgresql_role" "group" {
  name = "fx_gro_group"
}

# Membership without admin option (with_admin_option omitted -> false).
resource "postgresql_grant_role" "basic" {
  role       = postgresql_role.member.name
  grant_role = postgresql_role.group.name
}

# Membership in a built-in role.
resource "postgresql_grant_role" "builtin" {
  role       = postgresql_role.member.name
  grant_role = "pg_read_all_data"
}
