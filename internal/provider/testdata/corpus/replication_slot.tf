# Compatibility corpus: postgresql_replication_slot (and its physical sibling)
# as cyrilgdn/postgresql users write them. Database {{.P}} is made by the
# test. See corpus_test.go for the format.

# case: pgoutput_in_database
resource "postgresql_replication_slot" "pgoutput" {
  name     = "{{.P}}_pgoutput"
  plugin   = "pgoutput"
  database = "{{.P}}"
}

# case: test_decoding_default_database
resource "postgresql_replication_slot" "test_decoding" {
  name   = "{{.P}}_decoding"
  plugin = "test_decoding"
}

# case: physical
resource "postgresql_physical_replication_slot" "physical" {
  name = "{{.P}}_physical"
}
