terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# Always quoted, as the provider quotes names in its own SQL: "Sales Reports"
output "schema_sql" {
  value = "CREATE SCHEMA IF NOT EXISTS ${provider::postgresql::quote_ident("Sales Reports")}"
}

# Double quotes inside the name are doubled: "say ""hi"""
output "odd_name" {
  value = provider::postgresql::quote_ident("say \"hi\"")
}
