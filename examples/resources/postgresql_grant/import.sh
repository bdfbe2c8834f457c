# The import ID is the resource's id, cyrilgdn/postgresql's
# <role>_<database>[_<schema>]_<object_type>[_<objects>...][_<columns>...],
# when only one way to read it names existing objects (names may contain "_"):
terraform import postgresql_grant.connect app_shop_database
# or a JSON object, which is never ambiguous. "objects" and "columns" may be
# omitted or empty ("every object of that type in the schema" / no columns),
# "schema" is omitted for database, foreign_data_wrapper, foreign_server and parameter.
terraform import postgresql_grant.orders_read '{"role":"reporting","database":"shop","schema":"public","object_type":"table","objects":["orders","order_lines"]}'
