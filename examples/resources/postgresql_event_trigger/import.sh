# The import ID is the trigger name (in the provider's database) or <database>.<name>.
terraform import postgresql_event_trigger.example app.audit_ddl
