terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

variable "instance_connection_name" {
  type        = string
  description = "The Cloud SQL instance's connection name, project:region:instance (google_sql_database_instance's connection_name)."
}

# The Cloud SQL connector: host is the instance connection name
# (project:region:instance). The connector gets the instance's address and CA
# and an ephemeral client certificate from the Cloud SQL Admin API with the
# Application Default Credentials, and connects over TLS. Without a password
# it logs in with automatic IAM database authentication (the instance needs
# the cloudsql.iam_authentication flag and a CLOUD_IAM_SERVICE_ACCOUNT user).
provider "postgresql" {
  scheme      = "gcppostgres"
  host        = var.instance_connection_name
  username    = "terraform@my-project.iam" # the service account, without .gserviceaccount.com
  superuser   = false
  gcp_ip_type = "private" # or "public", "psc", "auto" (the default: public if the instance has one)

  # or a built-in user, exactly as with cyrilgdn/postgresql:
  # username = "postgres"
  # password = var.postgres_password
}

resource "postgresql_database" "app" {
  name = "app"
}
