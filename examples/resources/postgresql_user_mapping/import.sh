# The import ID is <user_name>.<server_name> (as in cyrilgdn/postgresql, in the
# provider's database) or <database>.<user_name>.<server_name>; "public" names the
# PUBLIC mapping. Write a name that contains a dot in double quotes, as in SQL:
# app."svc.reporting".reporting. Options are read back only where PostgreSQL
# shows them.
terraform import postgresql_user_mapping.example app.app.reporting
