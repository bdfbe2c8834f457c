# The import ID is <database>.<schema>. A name that contains a dot (or starts
# with a double quote) is written in double quotes, as in SQL, with a quote
# inside doubled: app."my.schema"
terraform import postgresql_schema.app app.app
