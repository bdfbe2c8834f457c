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

# Publication and logical slot on the publisher database, subscription in another
# database of the same server. CREATE SUBSCRIPTION cannot create its slot on the
# same cluster (it would hang), hence create_slot = false and a pre-created slot
# named like the subscription (slot_name omitted -> defaults to the subscription name).
resource "postgresql_publication" "pub" {
  name     = "fx_sub_pub_items"
  database = "fx_sub_pub"
  tables   = ["public.items"]
}

resource "postgresql_replication_slot" "slot" {
  name     = "fx_sub_items"
  database = "fx_sub_pub"
  plugin   = "pgoutput"
}

resource "postgresql_subscription" "sub" {
  name         = "fx_sub_items"
  database     = "fx_sub_sub"
  conninfo     = "host=127.0.0.1 port=25433 dbname=fx_sub_pub user=postgres password=pgfixpw"
  publications = [postgresql_publication.pub.name]
  create_slot  = false

  depends_on = [postgresql_replication_slot.slot]
}
