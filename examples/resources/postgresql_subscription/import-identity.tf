# Terraform 1.12 and later: import by identity.
import {
  to = postgresql_subscription.orders
  identity = {
    database = "shop_replica"
    name     = "orders_from_primary"
  }
}
