terraform {
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
    azurerm = {
      source = "hashicorp/azurerm"
    }
  }
}

provider "azurerm" {
  features {}
  environment = "china"
}

data "azurerm_client_config" "current" {}

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
  azure_tenant_id     = data.azurerm_client_config.current.tenant_id
  azure_environment   = "china" # or "usgovernment"; defaults to ARM_ENVIRONMENT, then "public"
}

resource "postgresql_role" "reader" {
  name = "reader"
}
