# The foreign servers of database "shop".
list "postgresql_server" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
