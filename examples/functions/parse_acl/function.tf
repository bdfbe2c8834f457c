terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# {
#   grantee    = "alice"
#   grantor    = "bob"
#   privileges = ["INSERT", "SELECT", "UPDATE"]
#   grantable  = ["SELECT"]
# }
output "alice" {
  value = provider::postgresql::parse_acl("alice=ar*w/bob")
}

# PUBLIC (an empty grantee) is "public"; the grantor "c""d" (quoted) is c"d
output "public_grantee" {
  value = provider::postgresql::parse_acl("=r/\"c\"\"d\"").grantee
}
