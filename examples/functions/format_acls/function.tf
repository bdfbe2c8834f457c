terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# {owner=arwdDxt/owner,"\"report reader\"=r/owner"}: the ACL without PUBLIC's entry
locals {
  relacl = "{owner=arwdDxt/owner,\"\\\"report reader\\\"=r/owner\",=r/owner}"
}

output "without_public" {
  value = provider::postgresql::format_acls([
    for item in provider::postgresql::parse_acls(local.relacl) : item if item.grantee != "public"
  ])
}
