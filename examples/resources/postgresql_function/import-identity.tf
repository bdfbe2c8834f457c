# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_function.add
  identity = {
    id = "shop.app.add(integer,integer)"
  }
}
