# Compatibility corpus: postgresql_database as cyrilgdn/postgresql users write
# it. See corpus_test.go for the format.

resource "postgresql_role" "owner" {
  name = "{{.P}}_owner"
}

resource "postgresql_role" "owner_full" {
  name = "{{.P}}_owner_full"
}

# case: minimal
resource "postgresql_database" "minimal" {
  name = "{{.P}}_minimal"
}

# case: docs_usage
resource "postgresql_database" "docs_usage" {
  name                   = "{{.P}}_my_db"
  owner                  = postgresql_role.owner.name
  template               = "template0"
  lc_collate             = "C"
  connection_limit       = -1
  allow_connections      = true
  alter_object_ownership = true
}

# case: full_spelled_out
resource "postgresql_database" "full" {
  name              = "{{.P}}_full"
  owner             = postgresql_role.owner_full.name
  template          = "template0"
  encoding          = "UTF8"
  lc_collate        = "C.UTF-8"
  lc_ctype          = "C.UTF-8"
  connection_limit  = 10
  allow_connections = true
  is_template       = false
}

# case: encoding_spellings
resource "postgresql_database" "encoding_lower" {
  name     = "{{.P}}_enc_lower"
  template = "template0"
  encoding = "utf8"
}

resource "postgresql_database" "encoding_dash" {
  name     = "{{.P}}_enc_dash"
  template = "template0"
  encoding = "UTF-8"
}

resource "postgresql_database" "locale_utf8" {
  name       = "{{.P}}_locale_utf8"
  template   = "template0"
  lc_collate = "C.utf8"
  lc_ctype   = "C.utf8"
}

# case: latin1_template0
resource "postgresql_database" "latin1" {
  name       = "{{.P}}_latin1"
  template   = "template0"
  encoding   = "LATIN1"
  lc_collate = "C"
  lc_ctype   = "C"
}

# case: template_flags
resource "postgresql_database" "template_flags" {
  name              = "{{.P}}_tpl"
  template          = "template1"
  is_template       = true
  allow_connections = false
  connection_limit  = 0
}

# case: tablespace_pg_default
# superuser-only: naming a tablespace in CREATE DATABASE needs CREATE on it, even pg_default
resource "postgresql_database" "tablespace" {
  name            = "{{.P}}_tblspc"
  tablespace_name = "pg_default"
}

# case: empty_strings_for_unset
# cyrilgdn documents "unset or empty" for encoding, lc_collate and lc_ctype.
resource "postgresql_database" "empty_strings" {
  name       = "{{.P}}_empty_strings"
  encoding   = ""
  lc_collate = ""
  lc_ctype   = ""
}

# case: default_keyword_values
resource "postgresql_database" "default_values" {
  name            = "{{.P}}_defaults"
  template        = "DEFAULT"
  encoding        = "DEFAULT"
  lc_collate      = "DEFAULT"
  lc_ctype        = "default"
  tablespace_name = "DEFAULT"
}

# case: default_keyword_owner
# cyrilgdn-fails: cyrilgdn 1.26.0 grants the role "DEFAULT" to itself before creating the database ("role \"DEFAULT\" does not exist")
# cyrilgdn documents owner = "DEFAULT" (the provider's role).
resource "postgresql_database" "default_owner" {
  name  = "{{.P}}_default_owner"
  owner = "DEFAULT"
}

# case: force_drop
# cyrilgdn-fails: force_drop is this provider's argument (cyrilgdn has none)
resource "postgresql_database" "force_drop" {
  name       = "{{.P}}_force"
  force_drop = true
}

# case: two_databases_one_owner
resource "postgresql_role" "shared_owner" {
  name = "{{.P}}_shared_owner"
}

resource "postgresql_database" "shared_owner_a" {
  name  = "{{.P}}_shared_a"
  owner = postgresql_role.shared_owner.name
}

resource "postgresql_database" "shared_owner_b" {
  name  = "{{.P}}_shared_b"
  owner = postgresql_role.shared_owner.name
}
