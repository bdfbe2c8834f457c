# The import ID is cyrilgdn's <label_provider>.<object_type>.<object_name>, or
# <label_provider>.<object_type>.<schema>.<object_name>, either optionally
# prefixed with <database>. (default: the provider's database).
terraform import postgresql_security_label.example anon.role.analyst
