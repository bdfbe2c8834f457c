# The user mappings of the servers of database "shop". Their options are
# sensitive: the generated configuration leaves them null, to be filled in
# (a password in options_wo) before the plan.
list "postgresql_user_mapping" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
