# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_event_trigger.audit_ddl
  identity = {
    database = "app"
    name     = "audit_ddl"
  }
}
