# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_publication.orders
  identity = {
    database = "shop"
    name     = "orders"
  }
}
