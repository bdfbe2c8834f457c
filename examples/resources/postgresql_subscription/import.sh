# <database>.<subscription name>
terraform import postgresql_subscription.example shop_replica.orders_from_primary
