# The labels PostgreSQL Anonymizer's provider "anon" put on objects of
# database "shop".
list "postgresql_security_label" "anon" {
  provider = postgresql
  config {
    database       = "shop"
    label_provider = "anon"
  }
}
