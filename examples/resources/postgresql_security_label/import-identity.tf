# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_security_label.mask_email
  identity = {
    database       = "app"
    label_provider = "anon"
    object_type    = "role"
    object_name    = "analyst"
  }
}
