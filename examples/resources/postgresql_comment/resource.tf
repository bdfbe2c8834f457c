resource "postgresql_comment" "orders" {
  database    = "app"
  object_type = "table"
  schema      = "sales"
  object_name = "orders"
  comment     = "One row per order; see the sales handbook."
}

resource "postgresql_comment" "orders_total" {
  database    = "app"
  object_type = "column"
  schema      = "sales"
  object_name = "orders"
  column_name = "total"
  comment     = "Gross amount in cents."
}

resource "postgresql_comment" "analyst" {
  object_type = "role"
  object_name = "analyst"
  comment     = "Read-only access for the BI team."
}
