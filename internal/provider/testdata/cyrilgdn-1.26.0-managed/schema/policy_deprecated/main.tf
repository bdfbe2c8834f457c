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

# ADAPTED for a non-superuser admin: owner is the admin, not postgres (only a superuser may give a schema to a superuser).
resource "postgresql_role" "reader" {
  name = "fx_pol_reader"
}

resource "postgresql_role" "writer" {
  name = "fx_pol_writer"
}

# Deprecated "policy" set block: one block per grantee.
resource "postgresql_schema" "pol" {
  name  = "fx_pol"
  owner = "fx_managed_admin"

  policy {
    usage = true
    role  = postgresql_role.reader.name
  }

  policy {
    create_with_grant = true
    usage_with_grant  = true
    role              = postgresql_role.writer.name
  }

  # role omitted (= "") means PUBLIC
  policy {
    usage = true
  }
}
