# The parameters roles "app_*" get in every database (ALTER ROLE ... SET).
# search_path, statement_timeout, idle_in_transaction_session_timeout and role
# are postgresql_role's arguments, and settings in one database are
# postgresql_database_setting's: both are left out.
list "postgresql_role_setting" "app" {
  provider = postgresql
  config {
    role = "app\\_%"
  }
}
