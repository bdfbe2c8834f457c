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

# FOR ALL TABLES publication (owner must stay a superuser, so it is left computed).
resource "postgresql_publication" "all" {
  name          = "fx_pub_all"
  database      = "fx_pub_db"
  all_tables    = true
  publish_param = ["insert", "update"]
}
