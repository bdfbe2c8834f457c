# The physical replication slots of the standbys, named "standby_*".
list "postgresql_physical_replication_slot" "standbys" {
  provider = postgresql
  config {
    like_any_patterns = ["standby\\_%"]
  }
}
