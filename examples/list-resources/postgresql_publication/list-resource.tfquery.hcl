# The publications of database "shop".
list "postgresql_publication" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
