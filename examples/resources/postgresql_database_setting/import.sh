# The import ID is a JSON object with the database, the parameter and, for one role's setting in the database, the role.
terraform import postgresql_database_setting.orders_search_path '{"database":"orders","parameter":"search_path"}'
terraform import postgresql_database_setting.reporting_read_only '{"database":"orders","role":"reporting","parameter":"default_transaction_read_only"}'
