# The import ID is the role name, verbatim (no quoting needed).
terraform import postgresql_role.app app
