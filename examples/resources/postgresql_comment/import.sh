# The import ID is <object_type>.<object_name>, <object_type>.<schema>.<object_name>,
# column.<table>.<column_name> or column.<schema>.<table>.<column_name>, optionally
# prefixed with <database>. (default: the provider's database); the id attribute
# is this ID without the database. A name that contains a dot is written in
# double quotes as in SQL (a quote inside doubled): app.table.sales."orders.2024"
terraform import postgresql_comment.orders app.table.sales.orders
terraform import postgresql_comment.orders_total app.column.sales.orders.total
terraform import postgresql_comment.analyst role.analyst
