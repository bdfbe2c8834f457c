# The import ID is the trigger name (in the provider's database) or
# <database>.<name>; write a name that contains a dot in double quotes, as in
# SQL: app."audit.ddl".
terraform import postgresql_event_trigger.example app.audit_ddl
