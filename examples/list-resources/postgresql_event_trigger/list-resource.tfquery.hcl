# The event triggers of database "shop" (those of extensions left out).
list "postgresql_event_trigger" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
