# The grants in database "shop" to the roles whose name starts with "app_",
# written as GRANT statements are: one postgresql_grant per grantee, schema,
# object type, privilege set and grant option, the all-objects form
# (objects = []) where a role holds the same on every table, sequence,
# function or procedure of a schema. Grants on tablespaces and parameters
# come with the provider's database (cluster_wide).
list "postgresql_grant" "app" {
  provider = postgresql
  config {
    database = "shop"
    role     = "app\\_%" # a LIKE pattern, sent as a query parameter
  }
}

# What PUBLIC was left with where its built-in privileges were revoked
# (REVOKE ALL ON DATABASE shop FROM PUBLIC lists role = "public",
# privileges = []).
list "postgresql_grant" "public" {
  provider = postgresql
  config {
    database = "shop"
    role     = "public"
  }
}
