# The import ID is a JSON object with the role, the parameter and, for a setting in one database, the database.
terraform import postgresql_role_setting.app_work_mem '{"role":"app","parameter":"work_mem"}'
terraform import postgresql_role_setting.app_search_path '{"role":"app","database":"orders","parameter":"search_path"}'
