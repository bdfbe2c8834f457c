# The import ID is <schema>.<table> (in the provider's database) or <database>.<schema>.<table>.
# A name that contains a dot is written in double quotes as in SQL (a quote inside
# doubled): app.sales."orders.2024"
terraform import postgresql_table_rls.example app.sales.orders
