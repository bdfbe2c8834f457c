resource "postgresql_replication_slot" "cdc" {
  name     = "cdc_slot"
  database = "shop"
  plugin   = "pgoutput"
}
