# Needs a label provider module loaded in the server (here PostgreSQL Anonymizer's "anon").
resource "postgresql_security_label" "mask_email" {
  database       = "app"
  label_provider = "anon"
  object_type    = "role"
  object_name    = "analyst"
  label          = "MASKED"
}
