# The import ID is <database>.<extension>. A database name that contains a dot
# (or starts with a double quote) is written in double quotes, as in SQL,
# with a quote inside doubled: "my.db".pgcrypto
terraform import postgresql_extension.pgcrypto app.pgcrypto
