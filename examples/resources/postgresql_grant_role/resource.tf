resource "postgresql_role" "readers" {
  name = "readers"
}

# roles is left unset: memberships of this role are managed by postgresql_grant_role.
resource "postgresql_role" "alice" {
  name  = "alice"
  login = true
}

resource "postgresql_grant_role" "alice_readers" {
  role              = postgresql_role.alice.name
  grant_role        = postgresql_role.readers.name
  with_admin_option = false
}

# Predefined roles can be granted when named explicitly.
resource "postgresql_grant_role" "alice_read_all" {
  role       = postgresql_role.alice.name
  grant_role = "pg_read_all_data"
}
