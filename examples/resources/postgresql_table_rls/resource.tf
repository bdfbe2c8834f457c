resource "postgresql_table_rls" "orders" {
  database = "app"
  schema   = "sales"
  table    = "orders"
  enabled  = true
  force    = true # the table owner is subject to the policies too
}
