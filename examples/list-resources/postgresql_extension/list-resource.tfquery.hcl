# The extensions installed in database "shop" (plpgsql left out).
list "postgresql_extension" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
