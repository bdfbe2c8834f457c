# Two modules give the same role privileges on overlapping tables: each says
# only what it needs, and neither revokes what the other granted.
# (With two authoritative postgresql_grant resources, orders would lose
# INSERT or DELETE on every apply: community issue #145.)
resource "postgresql_grant_additive" "ingest" {
  role        = "app"
  database    = "shop"
  schema      = "public"
  object_type = "table"
  objects     = ["orders", "order_lines"]
  privileges  = ["INSERT"]
}

resource "postgresql_grant_additive" "cleanup" {
  role        = "app"
  database    = "shop"
  schema      = "public"
  object_type = "table"
  objects     = ["orders", "audit_log"]
  privileges  = ["DELETE"]
}

# Every table in the schema (objects unset), including tables created later:
# a refresh finds a table without SELECT and the next apply grants it.
# Privileges other roles or other resources gave on those tables stay.
resource "postgresql_grant_additive" "reporting" {
  role        = "reporting"
  database    = "shop"
  schema      = "public"
  object_type = "table"
  privileges  = ["SELECT"]
}

# CONNECT on the database, whatever else (TEMPORARY, CREATE) the role holds there.
resource "postgresql_grant_additive" "connect" {
  role        = "app"
  database    = "shop"
  object_type = "database"
  privileges  = ["CONNECT"]
}
