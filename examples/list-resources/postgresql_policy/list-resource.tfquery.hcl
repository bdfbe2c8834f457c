# The row-level security policies on the tables of schema "billing".
list "postgresql_policy" "billing" {
  provider = postgresql
  config {
    database = "shop"
    schema   = "billing"
  }
}
