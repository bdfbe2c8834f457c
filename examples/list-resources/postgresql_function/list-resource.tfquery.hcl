# The functions of schema "api" in database "shop" (functions of extensions
# and of the system schemas are left out), at most 100.
list "postgresql_function" "api" {
  provider = postgresql
  limit    = 100
  config {
    database = "shop"
    schema   = "api"
  }
}
