data "postgresql_tables" "audit" {
  database      = "shop"
  schemas       = ["public"]
  table_types   = ["BASE TABLE"]
  regex_pattern = "^audit_[0-9]{4}$"
}

output "audit_tables" {
  value = [for t in data.postgresql_tables.audit.tables : "${t.schema_name}.${t.object_name}"]
}
