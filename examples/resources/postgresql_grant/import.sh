# The import ID is a JSON object naming the grantee and the objects (privileges
# and with_grant_option are read from the server). "objects" and "columns" may
# be omitted or empty ("every object of that type in the schema" / no columns),
# "schema" is omitted for database, foreign_data_wrapper, foreign_server and parameter.
terraform import postgresql_grant.orders_read '{"role":"reporting","database":"shop","schema":"public","object_type":"table","objects":["orders","order_lines"]}'
terraform import postgresql_grant.connect '{"role":"app","database":"shop","object_type":"database"}'
