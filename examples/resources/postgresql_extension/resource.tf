resource "postgresql_database" "app" {
  name = "app"
}

resource "postgresql_schema" "extensions" {
  name     = "extensions"
  database = postgresql_database.app.name
}

# Trusted extensions such as pgcrypto, hstore and citext can be installed by a
# non-superuser with CREATE on the database (managed services).
resource "postgresql_extension" "pgcrypto" {
  name     = "pgcrypto"
  database = postgresql_database.app.name
  schema   = postgresql_schema.extensions.name
}

# version pinned: changing it runs ALTER EXTENSION ... UPDATE TO.
resource "postgresql_extension" "hstore" {
  name     = "hstore"
  database = postgresql_database.app.name
  version  = "1.8"
}
