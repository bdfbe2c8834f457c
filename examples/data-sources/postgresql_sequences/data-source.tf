data "postgresql_sequences" "ids" {
  database          = "shop"
  like_any_patterns = ["%\\_id\\_seq"]
}
