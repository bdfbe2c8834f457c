# Collect planner statistics for one table...
action "postgresql_analyze" "orders" {
  config {
    database = "app"
    schema   = "sales"
    table    = "orders"
  }
}

# ...or for every table of a schema the provider's role may analyze.
action "postgresql_analyze" "sales" {
  config {
    database = "app"
    schema   = "sales"
  }
}

# terraform apply -invoke=action.postgresql_analyze.sales
