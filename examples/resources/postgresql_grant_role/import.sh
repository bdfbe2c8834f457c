# The import ID is a JSON object with the member ("role") and the granted role.
terraform import postgresql_grant_role.alice_readers '{"role":"alice","grant_role":"readers"}'
