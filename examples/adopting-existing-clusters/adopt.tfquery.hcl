# One query file for a whole cluster: the roles of the application ("app_*"), their memberships and
# settings, and database "shop" with everything in it. Add a group of "shop" blocks per database.
# Listing is read-only, on the provider's read-only connections, like a plan.

# Roles, then who is a member of what: memberships are postgresql_grant_role's, so the roles are
# generated without `roles` (one fact, one owner; include_roles = true on the role list and no
# postgresql_grant_role list is the other form).
list "postgresql_role" "app" {
  provider = postgresql
  config {
    like_any_patterns = ["app\\_%"]
  }
}

list "postgresql_grant_role" "app" {
  provider = postgresql
  config {
    role = "app\\_%"
  }
}

# Their parameters in every database (search_path, statement_timeout,
# idle_in_transaction_session_timeout and role are the role's arguments).
list "postgresql_role_setting" "app" {
  provider = postgresql
  config {
    role = "app\\_%"
  }
}

list "postgresql_database" "shop" {
  provider = postgresql
  config {
    like_any_patterns = ["shop"]
  }
}

# The database's settings, and the roles' settings in it.
list "postgresql_database_setting" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_schema" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_extension" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_function" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

# Every grant of the database, as they are written: to the application's roles...
list "postgresql_grant" "shop" {
  provider = postgresql
  config {
    database = "shop"
    role     = "app\\_%"
  }
}

# ...and what PUBLIC keeps where its built-in privileges were revoked.
list "postgresql_grant" "shop_public" {
  provider = postgresql
  config {
    database = "shop"
    role     = "public"
  }
}

list "postgresql_default_privileges" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_publication" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_table_rls" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_policy" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_comment" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_event_trigger" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

list "postgresql_server" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}

# Their options are sensitive: fill them in (a password in options_wo) before the plan.
list "postgresql_user_mapping" "shop" {
  provider = postgresql
  config {
    database = "shop"
  }
}
