terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# relacl::text of a table: the owner, a role with a space in its name, and PUBLIC.
locals {
  relacl = "{owner=arwdDxt/owner,\"\\\"report reader\\\"=r/owner\",=r/owner}"
}

# ["owner", "report reader", "public"]
output "grantees" {
  value = [for item in provider::postgresql::parse_acls(local.relacl) : item.grantee]
}

# The roles that may SELECT
output "readers" {
  value = [for item in provider::postgresql::parse_acls(local.relacl) : item.grantee if contains(item.privileges, "SELECT")]
}
