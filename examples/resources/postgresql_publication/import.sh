# <database>.<publication name>; write a name that contains a dot in double
# quotes, as in SQL: shop."orders.v2".
terraform import postgresql_publication.example shop.orders
