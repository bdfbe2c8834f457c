# The import ID is a JSON object: the grant's role, database, schema,
# object_type, objects and columns, as for postgresql_grant, and the
# privileges the resource manages ("schema", "objects" and "columns" may be
# omitted). Only these privileges are imported: what else the role holds on
# the objects stays outside the resource.
terraform import postgresql_grant_additive.ingest '{"role":"app","database":"shop","schema":"public","object_type":"table","objects":["orders","order_lines"],"privileges":["INSERT"]}'
