# The import ID is <schema>.<table>.<name> (in the provider's database) or
# <database>.<schema>.<table>.<name>. A name that contains a dot is written in
# double quotes as in SQL (a quote inside doubled): app.sales."orders.2024".own_orders
terraform import postgresql_policy.example app.sales.orders.own_orders
