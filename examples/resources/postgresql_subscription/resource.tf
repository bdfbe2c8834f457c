# Terraform 1.10+: an ephemeral variable's value never reaches the plan or the state.
variable "publisher_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "postgresql_subscription" "orders" {
  name     = "orders_from_primary"
  database = "shop_replica"
  # Terraform 1.11+: write-only, never in the plan or the state; set again when the version changes.
  conninfo_wo         = "host=primary.example.com port=5432 dbname=shop user=replicator password=${var.publisher_password}"
  conninfo_wo_version = "1"
  publications        = ["orders"]
}
