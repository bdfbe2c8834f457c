# The comments in database "shop" on objects of schema "billing".
list "postgresql_comment" "billing" {
  provider = postgresql
  config {
    database = "shop"
    schema   = "billing"
  }
}

# The comments of the roles whose name starts with "app_" (cluster-wide).
list "postgresql_comment" "roles" {
  provider = postgresql
  config {
    object_type       = "role"
    like_any_patterns = ["app\\_%"]
  }
}
