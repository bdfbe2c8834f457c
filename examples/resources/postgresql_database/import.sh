# The import ID is the database name, verbatim (no quoting needed).
terraform import postgresql_database.app app
