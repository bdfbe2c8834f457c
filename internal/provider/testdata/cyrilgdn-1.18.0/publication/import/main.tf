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

# Applied, then removed from state and re-imported with:
#   terraform import postgresql_publication.imp fx_pub_db.fx_pub_imp
resource "postgresql_publication" "imp" {
  name          = "fx_pub_imp"
  database      = "fx_pub_db"
  tables        = ["public.t1"]
  publish_param = ["insert", "delete"]
  drop_cascade  = true
}
