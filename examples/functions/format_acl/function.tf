terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# "report reader"=r*w/owner (letters in PostgreSQL's order, whatever the list order)
output "aclitem" {
  value = provider::postgresql::format_acl({
    grantee    = "report reader"
    grantor    = "owner"
    privileges = ["UPDATE", "SELECT"]
    grantable  = ["SELECT"]
  })
}

# =U/owner: "public" is PUBLIC
output "public_usage" {
  value = provider::postgresql::format_acl({
    grantee    = "public"
    grantor    = "owner"
    privileges = ["USAGE"]
    grantable  = []
  })
}
