# The import ID is cyrilgdn's <label_provider>.<object_type>.<object_name>, or
# <label_provider>.<object_type>.<schema>.<object_name>, either optionally
# prefixed with <database>. (default: the provider's database). A name that
# contains a dot is written in double quotes as in SQL (a quote inside doubled):
# anon.table.sales."orders.2024"
terraform import postgresql_security_label.example anon.role.analyst
