resource "postgresql_physical_replication_slot" "standby" {
  name = "standby_1"
}
