# <database>.<subscription name>; write a name that contains a dot in double
# quotes, as in SQL: shop_replica."orders.v2".
terraform import postgresql_subscription.example shop_replica.orders_from_primary
