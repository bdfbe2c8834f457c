# Every schema whose name starts with "tenant_", except the archived ones.
data "postgresql_schemas" "tenants" {
  database              = "shop"
  like_any_patterns     = ["tenant\\_%"]
  not_like_all_patterns = ["%\\_archived"]
}

output "tenant_schemas" {
  value = data.postgresql_schemas.tenants.schemas
}
