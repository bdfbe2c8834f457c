# The import ID is <database>.<extension>.
terraform import postgresql_extension.pgcrypto app.pgcrypto
