# The import ID is a JSON object: the entry's role, database, owner, schema
# (omitted, or "", for every schema) and object_type, as for
# postgresql_default_privileges, and the privileges the resource manages.
terraform import postgresql_default_privileges_additive.app_read '{"role":"app","database":"shop","owner":"migrator","schema":"public","object_type":"table","privileges":["SELECT"]}'
