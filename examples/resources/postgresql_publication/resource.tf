resource "postgresql_publication" "orders" {
  name                             = "orders"
  database                         = "shop"
  tables                           = ["public.orders", "public.order_lines"]
  publish_param                    = ["insert", "update", "delete"]
  publish_via_partition_root_param = true
}

# Every table of schema "app", present and future (PostgreSQL 15+, superuser).
resource "postgresql_publication" "app" {
  name     = "app_schema"
  database = "shop"
  schemas  = ["app"]
}

# Also publish the values of stored generated columns (PostgreSQL 18+).
resource "postgresql_publication" "invoices" {
  name                            = "invoices"
  database                        = "shop"
  tables                          = ["public.invoices"]
  publish_generated_columns_param = "stored"
}
