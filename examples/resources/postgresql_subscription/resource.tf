variable "publisher_password" {
  type      = string
  sensitive = true
}

resource "postgresql_subscription" "orders" {
  name         = "orders_from_primary"
  database     = "shop_replica"
  conninfo     = "host=primary.example.com port=5432 dbname=shop user=replicator password=${var.publisher_password}"
  publications = ["orders"]
}
