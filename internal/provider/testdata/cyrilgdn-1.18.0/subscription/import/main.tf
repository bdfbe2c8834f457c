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

resource "postgresql_publication" "pub" {
  name     = "fx_sub_imp_pub"
  database = "fx_sub_pub"
  tables   = ["public.items"]
}

resource "postgresql_replication_slot" "slot" {
  name     = "fx_sub_imp_slot"
  database = "fx_sub_pub"
  plugin   = "pgoutput"
}

# Applied, then removed from state and re-imported with:
#   terraform import postgresql_subscription.imp fx_sub_sub.fx_sub_imp
resource "postgresql_subscription" "imp" {
  name         = "fx_sub_imp"
  database     = "fx_sub_sub"
  conninfo     = "host=127.0.0.1 port=25433 dbname=fx_sub_pub user=postgres password=pgfixpw"
  publications = [postgresql_publication.pub.name]
  create_slot  = false
  slot_name    = postgresql_replication_slot.slot.name
}
