# The tables of database "shop" with row-level security enabled or forced.
list "postgresql_table_rls" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
