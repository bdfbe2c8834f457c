# Two modules add to the default privileges of the same role on the tables
# that "migrator" creates in schema "public": neither revokes the other's.
resource "postgresql_default_privileges_additive" "app_read" {
  role        = "app"
  database    = "shop"
  owner       = "migrator"
  schema      = "public"
  object_type = "table"
  privileges  = ["SELECT"]
}

resource "postgresql_default_privileges_additive" "app_write" {
  role        = "app"
  database    = "shop"
  owner       = "migrator"
  schema      = "public"
  object_type = "table"
  privileges  = ["INSERT", "UPDATE", "DELETE"]
}

# In every schema (schema unset): sequences created by "migrator" are usable by "app".
resource "postgresql_default_privileges_additive" "app_sequences" {
  role        = "app"
  database    = "shop"
  owner       = "migrator"
  object_type = "sequence"
  privileges  = ["USAGE", "SELECT"]
}
