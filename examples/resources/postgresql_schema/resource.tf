resource "postgresql_database" "app" {
  name = "app"
}

resource "postgresql_role" "app_owner" {
  name = "app_owner"
}

# A schema in another database than the provider's: the provider connects to
# it through its own connection pool.
resource "postgresql_schema" "app" {
  name         = "app"
  database     = postgresql_database.app.name
  owner        = postgresql_role.app_owner.name
  drop_cascade = false # destroying fails while the schema holds objects
}

# A schema in the provider's database.
resource "postgresql_schema" "reporting" {
  name = "reporting"
}
