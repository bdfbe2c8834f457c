# Compatibility corpus: postgresql_publication as cyrilgdn/postgresql users
# write it. Database {{.P}} is made by the test, owned by the provider's role,
# with tables public.t1, app.t2 and the partitioned public.m. See
# corpus_test.go for the format.

resource "postgresql_role" "owner" {
  name = "{{.P}}_owner"
}

# case: name_only
resource "postgresql_publication" "empty" {
  name     = "empty_pub"
  database = "{{.P}}"
}

# case: tables_and_params
# cyrilgdn-fails-managed: as a non-superuser, cyrilgdn 1.26.0 sets the owner without being a member of the owner role ("must be member of role ...")
resource "postgresql_publication" "tables" {
  name                             = "tables_pub"
  database                         = "{{.P}}"
  owner                            = postgresql_role.owner.name
  tables                           = ["public.t1", "app.t2", "public.m"]
  publish_param                    = ["insert", "update", "delete", "truncate"]
  publish_via_partition_root_param = true
  drop_cascade                     = true
}

# case: unqualified_table_and_subset_of_params
resource "postgresql_publication" "unqualified" {
  name          = "unqualified_pub"
  database      = "{{.P}}"
  tables        = ["t1"]
  publish_param = ["insert", "update"]
}

# case: all_tables
# superuser-only: FOR ALL TABLES needs superuser
resource "postgresql_publication" "all" {
  name          = "all_pub"
  database      = "{{.P}}"
  all_tables    = true
  publish_param = ["insert", "update"]
}

# case: flags_spelled_false
# cyrilgdn-fails: cyrilgdn refuses `tables` next to `all_tables` ("tables: conflicts with all_tables"), even when false and empty
resource "postgresql_publication" "spelled" {
  name                             = "spelled_pub"
  database                         = "{{.P}}"
  all_tables                       = false
  tables                           = []
  publish_via_partition_root_param = false
  drop_cascade                     = false
}
