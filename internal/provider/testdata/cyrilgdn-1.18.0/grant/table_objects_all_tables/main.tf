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

resource "postgresql_role" "writer" {
  name = "fx_gr_writer"
}

resource "postgresql_role" "reader" {
  name = "fx_gr_reader"
}

# Explicit list of tables.
resource "postgresql_grant" "tables_objects" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.writer.name
  object_type = "table"
  objects     = ["t1", "t2"]
  privileges  = ["DELETE", "INSERT", "SELECT", "UPDATE"]
}

# All tables (and views) of the schema: "objects" omitted, with grant option.
resource "postgresql_grant" "tables_all" {
  database          = "fx_grant_db"
  schema            = "app"
  role              = postgresql_role.reader.name
  object_type       = "table"
  privileges        = ["SELECT"]
  with_grant_option = true
}

# A view granted to PUBLIC.
resource "postgresql_grant" "view_public" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = "public"
  object_type = "table"
  objects     = ["v1"]
  privileges  = ["SELECT"]
}
