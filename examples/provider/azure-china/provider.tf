terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

variable "azure_tenant_id" {
  type        = string
  description = "The Microsoft Entra ID tenant of the server's administrators."
}

# Microsoft Entra ID login in Azure operated by 21Vianet: the token comes from
# login.chinacloudapi.cn, for Azure Database for PostgreSQL's scope there.
provider "postgresql" {
  host      = "mydb.postgres.database.chinacloudapi.cn"
  port      = 5432
  database  = "postgres"
  username  = "terraform-admins" # the Entra ID administrator's principal name
  superuser = false
  sslmode   = "require"

  azure_identity_auth = true
  azure_tenant_id     = var.azure_tenant_id
  azure_environment   = "china" # or "usgovernment"; defaults to ARM_ENVIRONMENT, then "public"
}

resource "postgresql_role" "reader" {
  name = "reader"
}
