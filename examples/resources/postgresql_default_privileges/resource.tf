# Tables that the role "migrator" creates in schema "public" of database "shop"
# will be readable by "reporting".
resource "postgresql_default_privileges" "reporting_tables" {
  role        = "reporting"
  database    = "shop"
  owner       = "migrator"
  schema      = "public"
  object_type = "table"
  privileges  = ["SELECT"]
}

# In every schema (schema unset): sequences created by "migrator" are fully usable by "app".
resource "postgresql_default_privileges" "app_sequences" {
  role        = "app"
  database    = "shop"
  owner       = "migrator"
  object_type = "sequence"
  privileges  = ["ALL"]
}

# Functions created by "migrator" are no longer executable by everyone
# (PostgreSQL's built-in default). Destroying this resource restores it.
resource "postgresql_default_privileges" "no_public_execute" {
  role        = "public"
  database    = "shop"
  owner       = "migrator"
  object_type = "function"
  privileges  = []
}
