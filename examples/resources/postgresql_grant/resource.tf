# Read-only access to two tables: exactly SELECT, nothing else, for this role.
resource "postgresql_grant" "orders_read" {
  role        = "reporting"
  database    = "shop"
  schema      = "public"
  object_type = "table"
  objects     = ["orders", "order_lines"]
  privileges  = ["SELECT"]
}

# Every table in the schema (objects unset), including tables created later:
# a refresh finds them and the next apply grants on them.
resource "postgresql_grant" "app_tables" {
  role        = "app"
  database    = "shop"
  schema      = "public"
  object_type = "table"
  privileges  = ["SELECT", "INSERT", "UPDATE", "DELETE"]
}

# Column privileges are separate from table privileges: this does not
# interfere with the table grant above, even for the same role and table.
resource "postgresql_grant" "orders_status" {
  role        = "app"
  database    = "shop"
  schema      = "public"
  object_type = "column"
  objects     = ["orders"]
  columns     = ["status"]
  privileges  = ["UPDATE"]
}

# Schema and database privileges.
resource "postgresql_grant" "schema_usage" {
  role              = "app"
  database          = "shop"
  schema            = "public"
  object_type       = "schema"
  privileges        = ["USAGE"]
  with_grant_option = true
}

resource "postgresql_grant" "connect" {
  role        = "app"
  database    = "shop"
  object_type = "database"
  privileges  = ["CONNECT", "TEMPORARY"]
}

# ALL means every privilege of the object type on the server's version.
resource "postgresql_grant" "sequences" {
  role        = "app"
  database    = "shop"
  schema      = "public"
  object_type = "sequence"
  privileges  = ["ALL"]
}

# Take EXECUTE away from PUBLIC on one function (an empty set revokes everything).
resource "postgresql_grant" "no_public_execute" {
  role        = "public"
  database    = "shop"
  schema      = "public"
  object_type = "function"
  objects     = ["rebuild_stats(integer)"]
  privileges  = []
}
