# Compatibility corpus: postgresql_grant as cyrilgdn/postgresql users write
# it. Database {{.P}} is made by the test, owned by the provider's role, with
# schemas app (tables t1, t2, view v1, sequences s1, s2, functions f1(integer,
# text), f2(), procedure p1(integer)) and other (table t1, function
# f1(character varying, numeric, timestamp with time zone)), postgres_fdw and
# a server srv. See corpus_test.go for the format.

resource "postgresql_role" "reader" {
  name = "{{.P}}_reader"
}

resource "postgresql_role" "writer" {
  name = "{{.P}}_writer"
}

resource "postgresql_role" "app" {
  name  = "{{.P}}_app"
  login = true
}

# case: database_connect_create_temporary
resource "postgresql_grant" "database" {
  database    = "{{.P}}"
  role        = postgresql_role.app.name
  object_type = "database"
  privileges  = ["CONNECT", "CREATE", "TEMPORARY"]
}

# case: database_public_connect
resource "postgresql_grant" "database_public" {
  database    = "{{.P}}"
  role        = "public"
  object_type = "database"
  privileges  = ["CONNECT"]
}

# case: database_all
resource "postgresql_grant" "database_all" {
  database    = "{{.P}}"
  role        = postgresql_role.writer.name
  object_type = "database"
  privileges  = ["ALL"]
}

# case: database_with_schema_argument
# cyrilgdn ignored `schema` on a database grant; configurations carry it.
resource "postgresql_grant" "database_with_schema" {
  database    = "{{.P}}"
  schema      = "public"
  role        = postgresql_role.reader.name
  object_type = "database"
  privileges  = ["CONNECT"]
}

# case: schema_usage_create_with_grant_option
resource "postgresql_grant" "schema" {
  database          = "{{.P}}"
  schema            = "app"
  role              = postgresql_role.app.name
  object_type       = "schema"
  privileges        = ["USAGE", "CREATE"]
  with_grant_option = true
}

# case: schema_all
resource "postgresql_grant" "schema_all" {
  database    = "{{.P}}"
  schema      = "other"
  role        = postgresql_role.writer.name
  object_type = "schema"
  privileges  = ["ALL"]
}

# case: docs_revoke_public_schema
# The documentation's "revoke default accesses for public schema".
# min-pg: 15
resource "postgresql_grant" "revoke_public" {
  database    = "{{.P}}"
  role        = "public"
  schema      = "public"
  object_type = "schema"
  privileges  = []
}

# case: docs_tables_objects
resource "postgresql_grant" "readonly_tables" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "app"
  object_type = "table"
  objects     = ["t1", "t2"]
  privileges  = ["SELECT"]
}

# case: tables_dml_explicit_false
resource "postgresql_grant" "tables_dml" {
  database          = "{{.P}}"
  role              = postgresql_role.writer.name
  schema            = "app"
  object_type       = "table"
  objects           = ["t1", "t2"]
  privileges        = ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"]
  with_grant_option = false
}

# case: all_tables_objects_unset
resource "postgresql_grant" "all_tables" {
  database          = "{{.P}}"
  role              = postgresql_role.app.name
  schema            = "app"
  object_type       = "table"
  privileges        = ["SELECT", "INSERT"]
  with_grant_option = true
}

# case: all_tables_objects_empty
resource "postgresql_grant" "all_tables_empty" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "other"
  object_type = "table"
  objects     = []
  privileges  = ["SELECT"]
}

# case: tables_all_privileges
resource "postgresql_grant" "tables_all" {
  database    = "{{.P}}"
  role        = postgresql_role.app.name
  schema      = "other"
  object_type = "table"
  objects     = ["t1"]
  privileges  = ["ALL"]
}

# case: view_to_public
resource "postgresql_grant" "view_public" {
  database    = "{{.P}}"
  role        = "public"
  schema      = "app"
  object_type = "table"
  objects     = ["v1"]
  privileges  = ["SELECT"]
}

# case: sequences
resource "postgresql_grant" "sequences" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "app"
  object_type = "sequence"
  objects     = ["s1"]
  privileges  = ["USAGE", "SELECT"]
}

resource "postgresql_grant" "all_sequences" {
  database    = "{{.P}}"
  role        = postgresql_role.writer.name
  schema      = "app"
  object_type = "sequence"
  privileges  = ["USAGE", "SELECT", "UPDATE"]
}

# case: functions_by_name_and_all
resource "postgresql_grant" "function_by_name" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "app"
  object_type = "function"
  objects     = ["f1"]
  privileges  = ["EXECUTE"]
}

resource "postgresql_grant" "all_functions" {
  database          = "{{.P}}"
  role              = postgresql_role.writer.name
  schema            = "app"
  object_type       = "function"
  privileges        = ["EXECUTE"]
  with_grant_option = true
}

# case: function_signature
resource "postgresql_grant" "function_signature" {
  database    = "{{.P}}"
  role        = postgresql_role.app.name
  schema      = "app"
  object_type = "function"
  objects     = ["f1(integer, text)", "f2()"]
  privileges  = ["EXECUTE"]
}

# case: function_signature_type_aliases
# cyrilgdn passed the signature to PostgreSQL, which accepts type aliases.
resource "postgresql_grant" "function_aliases" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "other"
  object_type = "function"
  objects     = ["f1(varchar, numeric, timestamptz)"]
  privileges  = ["EXECUTE"]
}

# case: procedure_and_routine
resource "postgresql_grant" "procedure" {
  database    = "{{.P}}"
  role        = postgresql_role.app.name
  schema      = "app"
  object_type = "procedure"
  objects     = ["p1"]
  privileges  = ["EXECUTE"]
}

resource "postgresql_grant" "routines" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "other"
  object_type = "routine"
  privileges  = ["ALL"]
}

# case: docs_columns
# cyrilgdn-fails: cyrilgdn takes exactly one privilege for a column grant ("must specify exactly 1 `privileges` when `object_type` is `column`")
resource "postgresql_grant" "read_insert_column" {
  database    = "{{.P}}"
  role        = postgresql_role.reader.name
  schema      = "app"
  object_type = "column"
  objects     = ["t1"]
  columns     = ["id", "name"]
  privileges  = ["UPDATE", "INSERT"]
}

# case: foreign_data_wrapper_and_server
resource "postgresql_grant" "fdw" {
  database    = "{{.P}}"
  role        = postgresql_role.app.name
  object_type = "foreign_data_wrapper"
  objects     = ["postgres_fdw"]
  privileges  = ["USAGE"]
}

resource "postgresql_grant" "foreign_server" {
  database          = "{{.P}}"
  role              = postgresql_role.writer.name
  object_type       = "foreign_server"
  objects           = ["srv"]
  privileges        = ["USAGE"]
  with_grant_option = true
}

# case: revoke_all_from_role
resource "postgresql_grant" "revoke_tables" {
  database    = "{{.P}}"
  role        = postgresql_role.writer.name
  schema      = "other"
  object_type = "table"
  objects     = ["t1"]
  privileges  = []
}
