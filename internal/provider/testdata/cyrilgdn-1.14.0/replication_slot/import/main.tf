terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.14.0"
    }
  }
}

# Provider connects to the fixture server (see ../../README.md).
provider "postgresql" {
  host            = "127.0.0.1"
  port            = 25433
  database        = "postgres"
  username        = "postgres"
  password        = "pgfixpw"
  sslmode         = "disable"
  superuser       = true
  connect_timeout = 15
}

# Applied, then removed from state and re-imported with:
#   terraform import postgresql_replication_slot.imp fx_rs_db.fx_slot_imp
resource "postgresql_replication_slot" "imp" {
  name     = "fx_slot_imp"
  database = "fx_rs_db"
  plugin   = "pgoutput"
}
