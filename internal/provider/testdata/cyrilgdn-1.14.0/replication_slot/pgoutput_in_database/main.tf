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

# Logical slot with the pgoutput plugin in a given database.
resource "postgresql_replication_slot" "pgoutput" {
  name     = "fx_slot_pgoutput"
  database = "fx_rs_db"
  plugin   = "pgoutput"
}
