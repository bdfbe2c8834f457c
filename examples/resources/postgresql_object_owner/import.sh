# The import ID is <object_type>.<object_name> or <object_type>.<schema>.<object_name>,
# optionally prefixed with <database>. (default: the provider's database); the id
# attribute is this ID without the database. A name that contains a dot is written in
# double quotes as in SQL (a quote inside doubled): shop.table.sales."orders.2024"
terraform import postgresql_object_owner.orders shop.table.sales.orders
terraform import postgresql_object_owner.shop database.shop
