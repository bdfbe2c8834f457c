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

resource "postgresql_role" "seq" {
  name = "fx_gr_seq"
}

resource "postgresql_role" "seq_all" {
  name = "fx_gr_seq_all"
}

resource "postgresql_role" "exec" {
  name = "fx_gr_exec"
}

resource "postgresql_role" "exec_all" {
  name = "fx_gr_exec_all"
}

resource "postgresql_role" "proc" {
  name = "fx_gr_proc"
}

resource "postgresql_role" "cols" {
  name = "fx_gr_cols"
}

# One sequence.
resource "postgresql_grant" "seq_objects" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.seq.name
  object_type = "sequence"
  objects     = ["s1"]
  privileges  = ["SELECT", "USAGE"]
}

# All sequences of the schema.
resource "postgresql_grant" "seq_all" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.seq_all.name
  object_type = "sequence"
  privileges  = ["UPDATE", "USAGE"]
}

# One function (objects hold function names without arguments).
resource "postgresql_grant" "func" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.exec.name
  object_type = "function"
  objects     = ["f_add"]
  privileges  = ["EXECUTE"]
}

# All functions of the schema, with grant option.
resource "postgresql_grant" "func_all" {
  database          = "fx_grant_db"
  schema            = "app"
  role              = postgresql_role.exec_all.name
  object_type       = "function"
  privileges        = ["EXECUTE"]
  with_grant_option = true
}

# One procedure.
resource "postgresql_grant" "proc" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.proc.name
  object_type = "procedure"
  objects     = ["p_noop"]
  privileges  = ["EXECUTE"]
}

# Column-level grant: exactly one table in objects and exactly one privilege.
resource "postgresql_grant" "cols" {
  database    = "fx_grant_db"
  schema      = "app"
  role        = postgresql_role.cols.name
  object_type = "column"
  objects     = ["t1"]
  columns     = ["id", "name"]
  privileges  = ["UPDATE"]
}
