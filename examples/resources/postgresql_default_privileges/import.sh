# The import ID is a JSON object; "schema" is omitted (or "") for a global entry.
terraform import postgresql_default_privileges.reporting_tables '{"role":"reporting","database":"shop","owner":"migrator","schema":"public","object_type":"table"}'
terraform import postgresql_default_privileges.no_public_execute '{"role":"public","database":"shop","owner":"migrator","object_type":"function"}'
