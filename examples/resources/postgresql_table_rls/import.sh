# The import ID is <schema>.<table> (in the provider's database) or <database>.<schema>.<table>.
terraform import postgresql_table_rls.example app.sales.orders
