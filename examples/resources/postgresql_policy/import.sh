# The import ID is <schema>.<table>.<name> (in the provider's database) or
# <database>.<schema>.<table>.<name>.
terraform import postgresql_policy.example app.sales.orders.own_orders
