# The default privileges that role "migrator" set in database "shop": one
# result per (grantee, owner, schema, object type), as the resource manages them.
list "postgresql_default_privileges" "shop" {
  provider = postgresql
  config {
    database = "shop"
    owner    = "migrator"
  }
}
