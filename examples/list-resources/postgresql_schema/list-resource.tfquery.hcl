# The schemas of database "shop" but pg_* and information_schema, at most 50.
list "postgresql_schema" "shop" {
  provider = postgresql
  limit    = 50
  config {
    database              = "shop"
    not_like_all_patterns = ["tmp\\_%"]
  }
}
