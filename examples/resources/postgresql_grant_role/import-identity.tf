# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_grant_role.alice_readers
  identity = {
    role       = "alice"
    grant_role = "readers"
  }
}
