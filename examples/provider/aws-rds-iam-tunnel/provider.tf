terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# RDS reached through a tunnel on this machine (an SSM port forward, a VPN
# name, a local proxy): the connection goes to 127.0.0.1:15432, the RDS IAM
# token is signed for the RDS endpoint (whose name also gives the region).
provider "postgresql" {
  host      = "127.0.0.1"
  port      = 15432
  username  = "terraform" # GRANT rds_iam TO terraform
  superuser = false
  sslmode   = "require" # the server's certificate names the RDS endpoint, not 127.0.0.1

  aws_rds_iam_auth     = true
  aws_rds_iam_endpoint = "mydb.abc123.eu-west-1.rds.amazonaws.com:5432" # e.g. aws_db_instance.main.endpoint
}

resource "postgresql_role" "app" {
  name = "app"
}
