# The import ID is <database>.<schema>. When the database name itself contains
# dots, the longest prefix naming an existing database is used.
terraform import postgresql_schema.app app.app
