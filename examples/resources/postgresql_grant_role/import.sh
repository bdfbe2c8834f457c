# The import ID is the resource's id, cyrilgdn/postgresql's
# <role>_<grant_role>_<with_admin_option>, when only one way to read it names
# an existing membership (role names may contain "_"):
terraform import postgresql_grant_role.alice_readers alice_readers_false
# or a JSON object with the member ("role") and the granted role, never ambiguous.
terraform import postgresql_grant_role.alice_readers '{"role":"alice","grant_role":"readers"}'
