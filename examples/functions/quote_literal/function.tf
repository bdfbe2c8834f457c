terraform {
  required_version = ">= 1.8.0"
  required_providers {
    postgresql = {
      source = "pgtf/postgresql"
    }
  }
}

# 'O''Brien''s app' (single quotes doubled; backslashes kept as they are)
output "comment_sql" {
  value = "COMMENT ON ROLE app IS ${provider::postgresql::quote_literal("O'Brien's app")}"
}
