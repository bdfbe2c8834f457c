resource "postgresql_role" "app_owner" {
  name = "app_owner"
}

# Renaming `name` later renames the database in place; the schemas and
# extensions declared in it follow without being recreated.
resource "postgresql_database" "app" {
  name                   = "app"
  owner                  = postgresql_role.app_owner.name
  template               = "template0"
  encoding               = "UTF8"
  lc_collate             = "C.UTF-8"
  lc_ctype               = "C.UTF-8"
  connection_limit       = 50
  alter_object_ownership = true # an owner change also hands over the objects inside
  force_drop             = true # destroying disconnects the remaining sessions
}
