terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# A primary and its streaming standby (Patroni, a high-availability pair, an
# RDS Multi-AZ DB cluster's instances): the hosts are tried in order, and
# target_session_attrs = "read-write" keeps the one that accepts writes. After
# a failover the promoted standby is found with no change here.
provider "postgresql" {
  host                 = "pg-a.internal,pg-b.internal"
  port                 = "5432,5432" # one port per host, or one for all: port = 5432
  target_session_attrs = "read-write"
  username             = "terraform"
  sslmode              = "verify-full"
  sslrootcert          = "/etc/ssl/certs/db-ca.pem"
  superuser            = false
  max_retry_duration   = 180 # how long an apply waits for a primary during a failover
}

resource "postgresql_role" "app" {
  name  = "app"
  login = true
}
