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

# Two publications and a slot with a custom name, all created by setup.sql.
resource "postgresql_subscription" "sub" {
  name         = "fx_sub_custom"
  database     = "fx_sub_sub"
  conninfo     = "host=127.0.0.1 port=25433 dbname=fx_sub_pub user=postgres password=pgfixpw connect_timeout=10"
  publications = ["fx_pub_a", "fx_pub_b"]
  create_slot  = false
  slot_name    = "fx_custom_slot"
}
