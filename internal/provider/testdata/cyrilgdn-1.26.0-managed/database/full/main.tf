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

# ADAPTED for a non-superuser admin: removed tablespace_name = "pg_default" (naming a tablespace needs CREATE on it, which the admin lacks on pg_default; the database is in pg_default all the same).
resource "postgresql_role" "owner" {
  name = "fx_db_owner"
}

# Every optional argument set explicitly (non-default locale from template0).
resource "postgresql_database" "full" {
  name                   = "fx_db_full"
  owner                  = postgresql_role.owner.name
  template               = "template0"
  encoding               = "UTF8"
  lc_collate             = "en_US.UTF-8"
  lc_ctype               = "en_US.UTF-8"
  connection_limit       = 10
  allow_connections      = true
  is_template            = false
  alter_object_ownership = true
}
