# <database>.<schema>.<name>(<input argument types>); OUT arguments are not listed.
# Spell the types as your configuration does (int, varchar(10), ...): that spelling is kept.
terraform import postgresql_function.example 'shop.app.add(integer,integer)'
