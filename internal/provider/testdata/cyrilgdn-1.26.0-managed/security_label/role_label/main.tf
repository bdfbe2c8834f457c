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

# ADAPTED for a non-superuser admin: label "classified" instead of "top secret" (the dummy provider reserves "secret" and "top secret" to superusers).
# Needs a loaded label provider: the server runs with
# shared_preload_libraries = dummy_seclabel (PostgreSQL test module, provider "dummy").
resource "postgresql_role" "labeled" {
  name = "fx_sl_role"
}

# The label provider "dummy" lets a non-superuser set "unclassified" and "classified" only.
resource "postgresql_security_label" "role" {
  object_type    = "role"
  object_name    = postgresql_role.labeled.name
  label_provider = "dummy"
  label          = "classified"
}
