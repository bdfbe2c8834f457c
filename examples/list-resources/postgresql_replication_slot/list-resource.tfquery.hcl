# The logical replication slots of database "shop" (those of subscriptions
# left out).
list "postgresql_replication_slot" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
