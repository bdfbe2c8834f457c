# <database>.<schema>.<name>(<input argument types>); OUT arguments are not listed.
# Spell the types as your configuration does (int, varchar(10), ...): that spelling is kept.
# Write a database, schema or function name that contains a dot in double quotes,
# as in SQL: 'shop.app."add.v2"(integer,integer)'.
terraform import postgresql_function.example 'shop.app.add(integer,integer)'
