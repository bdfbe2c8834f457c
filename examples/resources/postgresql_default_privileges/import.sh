# The import ID is the resource's id, cyrilgdn/postgresql's
# <role>_<database>_<schema or noschema>_<owner>_<object_type>, when only one
# way to read it names existing roles, database and schema (names may contain "_"):
terraform import postgresql_default_privileges.reporting_tables reporting_shop_public_migrator_table
# or a JSON object, which is never ambiguous; "schema" is omitted (or "") for a global entry.
terraform import postgresql_default_privileges.no_public_execute '{"role":"public","database":"shop","owner":"migrator","object_type":"function"}'
