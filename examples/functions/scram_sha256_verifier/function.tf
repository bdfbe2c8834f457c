terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

variable "app_password" {
  type      = string
  sensitive = true
}

# A fixed salt keeps the verifier stable from plan to plan: for example the
# base64 result of a random_bytes resource (hashicorp/random) with length = 16.
variable "app_password_salt" {
  type    = string
  default = "3q2+7wAAAAAAAAAAAAAAAA=="
}

# SCRAM-SHA-256$4096:<salt>$<StoredKey>:<ServerKey>, what pg_authid keeps for the
# password: usable in ALTER ROLE app PASSWORD '<verifier>' or a PgBouncer
# auth_file. It is sensitive because var.app_password is.
output "app_password_verifier" {
  value     = provider::postgresql::scram_sha256_verifier(var.app_password, var.app_password_salt, 4096)
  sensitive = true
}
