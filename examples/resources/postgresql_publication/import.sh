# <database>.<publication name>
terraform import postgresql_publication.example shop.orders
