# Compatibility corpus: postgresql_extension as cyrilgdn/postgresql users write
# it. Database {{.P}} is made by the test, owned by the provider's role.
# Extensions a non-superuser may create are trusted ones (pgcrypto, hstore,
# citext, ...). See corpus_test.go for the format.

# case: minimal_in_database
resource "postgresql_extension" "pgcrypto" {
  name     = "pgcrypto"
  database = "{{.P}}"
}

# case: schema_and_version
resource "postgresql_schema" "extensions" {
  name     = "extensions"
  database = "{{.P}}"
}

resource "postgresql_extension" "hstore" {
  name     = "hstore"
  database = "{{.P}}"
  schema   = postgresql_schema.extensions.name
  version  = "1.7"
}

# case: cascade_flags
resource "postgresql_extension" "citext" {
  name           = "citext"
  database       = "{{.P}}"
  schema         = "public"
  create_cascade = true
  drop_cascade   = true
}

# case: flags_spelled_false
resource "postgresql_extension" "btree_gist" {
  name           = "btree_gist"
  database       = "{{.P}}"
  create_cascade = false
  drop_cascade   = false
}

# case: requires_cascade
# earthdistance requires cube: create_cascade installs it.
# superuser-only: earthdistance is not a trusted extension
resource "postgresql_extension" "earthdistance" {
  name           = "earthdistance"
  database       = "{{.P}}"
  create_cascade = true
}
