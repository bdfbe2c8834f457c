terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
    google = {
      source = "hashicorp/google"
    }
  }
}

resource "google_sql_database_instance" "main" {
  name             = "main"
  database_version = "POSTGRES_16"
  region           = "europe-west1"
  settings {
    tier = "db-custom-1-3840"
    database_flags {
      name  = "cloudsql.iam_authentication"
      value = "on"
    }
  }
}

resource "google_sql_user" "terraform" {
  instance = google_sql_database_instance.main.name
  name     = "terraform@my-project.iam" # the service account, without .gserviceaccount.com
  type     = "CLOUD_IAM_SERVICE_ACCOUNT"
}

# The Cloud SQL connector: host is the instance connection name
# (project:region:instance). The connector gets the instance's address and CA
# and an ephemeral client certificate from the Cloud SQL Admin API with the
# Application Default Credentials, and connects over TLS. Without a password
# it logs in with automatic IAM database authentication.
provider "postgresql" {
  scheme      = "gcppostgres"
  host        = google_sql_database_instance.main.connection_name
  username    = google_sql_user.terraform.name
  superuser   = false
  gcp_ip_type = "private" # or "public", "psc", "auto" (the default: public if the instance has one)

  # or a built-in user, exactly as with cyrilgdn/postgresql:
  # username = "postgres"
  # password = var.postgres_password
}

resource "postgresql_database" "app" {
  name = "app"
}
