# Every database but template0 and template1.
list "postgresql_database" "all" {
  provider = postgresql
}
