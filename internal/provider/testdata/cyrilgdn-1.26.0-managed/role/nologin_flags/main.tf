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

# ADAPTED for a non-superuser admin: removed replication = true, bypass_row_level_security = true and the superuser role postgresql_role.super (only a superuser may give these attributes).
# NOLOGIN role with every boolean flag flipped away from its default,
# plus the deprecated "encrypted" attribute.
resource "postgresql_role" "flags" {
  name                = "fx_role_flags"
  login               = false
  superuser           = false
  create_database     = true
  create_role         = true
  inherit             = false
  skip_reassign_owned = true
  skip_drop_role      = false
  valid_until         = "infinity"
  encrypted           = "true"
}

# Name that needs quoting (upper case, dash, space).
resource "postgresql_role" "quoted" {
  name = "Fx-Mixed Case"
}
