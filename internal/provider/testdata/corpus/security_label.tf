# Compatibility corpus: postgresql_security_label as cyrilgdn/postgresql
# users write it (the dummy label provider of PostgreSQL's test modules stands
# for sepgsql or anon). Database {{.P}} is made by the test, with tables
# public.t1 and app.t2. See corpus_test.go for the format.

resource "postgresql_role" "labeled" {
  name = "{{.P}}_labeled"
}

# case: role_label
resource "postgresql_security_label" "role" {
  object_type    = "role"
  object_name    = postgresql_role.labeled.name
  label_provider = "dummy"
  label          = "classified"
}

# case: table_label_in_database
# cyrilgdn-fails: database is this provider's argument (cyrilgdn labels objects of the provider's database only)
resource "postgresql_security_label" "table" {
  object_type    = "table"
  object_name    = "t1"
  database       = "{{.P}}"
  label_provider = "dummy"
  label          = "unclassified"
}

# case: table_label_with_schema
# cyrilgdn-fails: schema and database are this provider's arguments
resource "postgresql_security_label" "schema_table" {
  object_type    = "table"
  object_name    = "t2"
  schema         = "app"
  database       = "{{.P}}"
  label_provider = "dummy"
  label          = "classified"
}
