# Compatibility corpus: postgresql_default_privileges as cyrilgdn/postgresql
# users write it. Database {{.P}} is made by the test, owned by the provider's
# role, with schemas app and other. See corpus_test.go for the format.

resource "postgresql_role" "reader" {
  name = "{{.P}}_reader"
}

resource "postgresql_role" "writer" {
  name = "{{.P}}_writer"
}

# case: docs_tables_in_schema
resource "postgresql_default_privileges" "read_only_tables" {
  role        = postgresql_role.reader.name
  database    = "{{.P}}"
  schema      = "app"
  owner       = "{{.Admin}}"
  object_type = "table"
  privileges  = ["SELECT"]
}

# case: tables_dml_with_grant_option
resource "postgresql_default_privileges" "tables_dml" {
  role              = postgresql_role.writer.name
  database          = "{{.P}}"
  schema            = "app"
  owner             = "{{.Admin}}"
  object_type       = "table"
  privileges        = ["SELECT", "INSERT", "UPDATE", "DELETE"]
  with_grant_option = true
}

# case: sequences
resource "postgresql_default_privileges" "sequences" {
  role        = postgresql_role.reader.name
  database    = "{{.P}}"
  schema      = "app"
  owner       = "{{.Admin}}"
  object_type = "sequence"
  privileges  = ["USAGE", "SELECT"]
}

# case: functions_without_schema
resource "postgresql_default_privileges" "functions" {
  role        = postgresql_role.writer.name
  database    = "{{.P}}"
  owner       = "{{.Admin}}"
  object_type = "function"
  privileges  = ["EXECUTE"]
}

# case: types
resource "postgresql_default_privileges" "types" {
  role        = postgresql_role.reader.name
  database    = "{{.P}}"
  owner       = "{{.Admin}}"
  object_type = "type"
  privileges  = ["USAGE"]
}

# case: schemas
resource "postgresql_default_privileges" "schemas" {
  role        = postgresql_role.writer.name
  database    = "{{.P}}"
  owner       = "{{.Admin}}"
  object_type = "schema"
  privileges  = ["USAGE", "CREATE"]
}

# case: docs_revoke_public_functions
resource "postgresql_default_privileges" "revoke_public" {
  database    = "{{.P}}"
  role        = "public"
  owner       = "{{.Admin}}"
  object_type = "function"
  privileges  = []
}

# case: public_tables_in_schema
resource "postgresql_default_privileges" "public_tables" {
  database    = "{{.P}}"
  role        = "public"
  schema      = "other"
  owner       = "{{.Admin}}"
  object_type = "table"
  privileges  = ["SELECT"]
}

# case: all_privileges_explicit_false
resource "postgresql_default_privileges" "all_tables_other" {
  role              = postgresql_role.writer.name
  database          = "{{.P}}"
  schema            = "other"
  owner             = "{{.Admin}}"
  object_type       = "table"
  privileges        = ["ALL"]
  with_grant_option = false
}

# case: routines
resource "postgresql_default_privileges" "routines" {
  role        = postgresql_role.reader.name
  database    = "{{.P}}"
  schema      = "other"
  owner       = "{{.Admin}}"
  object_type = "routine"
  privileges  = ["EXECUTE"]
}
