# The import ID is the server name (in the provider's database),
# or <database>.<server_name>.
terraform import postgresql_server.example app.reporting
