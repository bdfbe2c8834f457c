# <database>.<schema>.<name>(<input argument types>); OUT arguments are not listed.
terraform import postgresql_function.example 'shop.app.add(integer,integer)'
