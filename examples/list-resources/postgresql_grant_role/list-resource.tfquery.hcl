# The memberships of the roles whose name starts with "app_" (in any role,
# predefined ones such as pg_read_all_data included).
list "postgresql_grant_role" "app" {
  provider = postgresql
  config {
    role = "app\\_%" # a LIKE pattern, sent as a query parameter
  }
}
