# VACUUM (ANALYZE) every table of a schema the provider's role may vacuum, one
# table at a time, with a progress line for each.
action "postgresql_vacuum" "sales" {
  config {
    database = "app"
    schema   = "sales"
    analyze  = true
  }
}

# Rewrite one table to give its space back (VACUUM FULL locks it meanwhile).
action "postgresql_vacuum" "audit_log" {
  config {
    database = "app"
    schema   = "audit"
    table    = "log"
    full     = true
  }
}

# terraform apply -invoke=action.postgresql_vacuum.audit_log
