terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.18.0"
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

# Physical replication slots (cluster-wide, only a name).
resource "postgresql_physical_replication_slot" "a" {
  name = "fx_phys_a"
}

resource "postgresql_physical_replication_slot" "b" {
  name = "fx_phys_b"
}
