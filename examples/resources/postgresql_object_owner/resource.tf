# Tables created by a migration tool connected as the admin, handed over to
# the application's role, which then may alter and drop them itself.
resource "postgresql_role" "app" {
  name = "app"
}

resource "postgresql_object_owner" "orders" {
  database    = "shop"
  object_type = "table"
  schema      = "sales"
  object_name = "orders"
  owner       = postgresql_role.app.name
}

resource "postgresql_object_owner" "order_status" {
  database    = "shop"
  object_type = "type"
  schema      = "sales"
  object_name = "order_status"
  owner       = postgresql_role.app.name
}

# A database created outside Terraform (by the cloud console, say).
resource "postgresql_object_owner" "shop" {
  object_type = "database"
  object_name = "shop"
  owner       = postgresql_role.app.name
}
