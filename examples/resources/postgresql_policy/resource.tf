resource "postgresql_table_rls" "orders" {
  database = "app"
  schema   = "sales"
  table    = "orders"
}

# Each sales rep sees and changes only their own orders.
resource "postgresql_policy" "own_orders" {
  database   = postgresql_table_rls.orders.database
  schema     = postgresql_table_rls.orders.schema
  table      = postgresql_table_rls.orders.table
  name       = "own_orders"
  command    = "ALL"
  roles      = ["sales_rep"]
  using      = "rep = current_user"
  with_check = "rep = current_user"
}
