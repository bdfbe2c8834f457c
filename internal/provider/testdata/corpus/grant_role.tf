# Compatibility corpus: postgresql_grant_role as cyrilgdn/postgresql users
# write it. See corpus_test.go for the format.

resource "postgresql_role" "application" {
  name = "{{.P}}_application"
}

resource "postgresql_role" "readonly" {
  name = "{{.P}}_readonly"
}

# case: docs_with_admin_option
resource "postgresql_role" "root" {
  name  = "{{.P}}_root"
  login = true
}

resource "postgresql_grant_role" "grant_root" {
  role              = postgresql_role.root.name
  grant_role        = postgresql_role.application.name
  with_admin_option = true
}

# case: plain_membership
resource "postgresql_role" "bob" {
  name = "{{.P}}_bob"
  lifecycle {
    ignore_changes = [
      roles,
    ]
  }
}

resource "postgresql_grant_role" "bob_readonly" {
  role       = postgresql_role.bob.name
  grant_role = postgresql_role.readonly.name
}

# case: explicit_false
resource "postgresql_role" "carol" {
  name = "{{.P}}_carol"
}

resource "postgresql_grant_role" "carol_readonly" {
  role              = postgresql_role.carol.name
  grant_role        = postgresql_role.readonly.name
  with_admin_option = false
}

# case: predefined_role
# min-pg: 14
resource "postgresql_role" "monitor" {
  name = "{{.P}}_monitor"
}

resource "postgresql_grant_role" "read_all_data" {
  role       = postgresql_role.monitor.name
  grant_role = "pg_read_all_data"
}

# case: role_names_as_strings
resource "postgresql_role" "dave" {
  name = "{{.P}}_dave"
}

resource "postgresql_grant_role" "dave_application" {
  role       = "{{.P}}_dave"
  grant_role = "{{.P}}_application"
  depends_on = [postgresql_role.dave, postgresql_role.application]
}
