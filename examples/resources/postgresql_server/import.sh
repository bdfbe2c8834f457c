# The import ID is the server name (in the provider's database),
# or <database>.<server_name>; write a name that contains a dot in double
# quotes, as in SQL: app."reporting.v2".
terraform import postgresql_server.example app.reporting
