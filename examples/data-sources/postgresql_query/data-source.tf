# The tenants registered in the application's own table, read once per plan.
data "postgresql_query" "tenants" {
  database = "app"
  query    = "SELECT slug, plan FROM tenants WHERE active AND region = $1 ORDER BY slug"
  args     = ["eu-west"]
}

# One schema per tenant, owned by the application's role.
resource "postgresql_schema" "tenant" {
  for_each = { for row in data.postgresql_query.tenants.rows : row.slug => row }

  database = "app"
  name     = "tenant_${each.key}"
  owner    = "app"
}

output "tenant_plans" {
  value = { for row in data.postgresql_query.tenants.rows : row.slug => row.plan }
}
