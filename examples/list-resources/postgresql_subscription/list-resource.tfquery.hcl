# The subscriptions of database "reporting" whose name starts with "from_".
# conninfo is sensitive: the generated configuration leaves it null, to be
# filled in before the plan.
list "postgresql_subscription" "reporting" {
  provider = postgresql
  config {
    database          = "reporting"
    like_any_patterns = ["from\\_%"]
  }
}
