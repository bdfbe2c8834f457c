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

resource "postgresql_schema" "labeled" {
  name = "fx_sl_schema"
}

resource "postgresql_security_label" "schema" {
  object_type    = "schema"
  object_name    = postgresql_schema.labeled.name
  label_provider = "dummy"
  label          = "classified"
}

resource "postgresql_role" "labeled" {
  name = "fx_sl_role2"
}

resource "postgresql_security_label" "role" {
  object_type    = "role"
  object_name    = postgresql_role.labeled.name
  label_provider = "dummy"
  label          = "unclassified"
}

# Table created by setup.sql; unqualified name (resolved through search_path).
resource "postgresql_security_label" "table" {
  object_type    = "table"
  object_name    = "fx_sl_t"
  label_provider = "dummy"
  label          = "classified"
}
