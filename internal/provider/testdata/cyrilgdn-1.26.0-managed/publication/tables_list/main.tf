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

# ADAPTED for a non-superuser admin: setup.sql makes the admin a member of fx_pub_owner (cyrilgdn 1.26.0 does not, before giving it the publication: "must be member of role fx_pub_owner").
# Table list (schema-qualified), all publish params, partition root, non-superuser owner.
resource "postgresql_publication" "some" {
  name                             = "fx_pub_some"
  database                         = "fx_pub_db"
  owner                            = "fx_pub_owner"
  tables                           = ["public.t1", "app.t2", "public.measurements"]
  publish_param                    = ["insert", "update", "delete", "truncate"]
  publish_via_partition_root_param = true
  drop_cascade                     = true
}

# Empty publication in the provider's default database: database, owner, tables,
# all_tables and publish_param are all computed.
resource "postgresql_publication" "empty" {
  name = "fx_pub_empty"
}
