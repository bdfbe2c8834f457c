# Compatibility corpus: postgresql_role as cyrilgdn/postgresql users write it
# (its documentation, examples and tests; modules that wrap it). See
# corpus_test.go for the format.

resource "postgresql_role" "group_a" {
  name = "{{.P}}_group_a"
}

resource "postgresql_role" "group_b" {
  name = "{{.P}}_group_b"
}

# case: minimal
resource "postgresql_role" "minimal" {
  name = "{{.P}}_minimal"
}

# case: docs_login_password
resource "postgresql_role" "docs_login_password" {
  name     = "{{.P}}_my_role"
  login    = true
  password = "mypass"
}

# case: md5_prehashed_password
# The documentation's replication example passes an md5 verifier as the
# password; PostgreSQL stores it as given.
resource "postgresql_role" "md5_prehashed" {
  name             = "{{.P}}_md5"
  login            = true
  connection_limit = 5
  password         = "md5c98cbfeb6a347a47eb8e96cfb4c4b890"
}

# case: scram_prehashed_password
resource "postgresql_role" "scram_prehashed" {
  name     = "{{.P}}_scram"
  login    = true
  password = "SCRAM-SHA-256$4096:6/ZzPOvsjDGMjGGFxtn2cQ==$00HEvsbBT35r/QojirN6Hg8whbRYK6a4FJ68CTn8Xuk=:x9ZSiMmO28uGr1oJhtjJ2++1pUobMzbsH1grSuIK1r0="
}

# case: replication_role
# superuser-only: REPLICATION can be given by a superuser only
resource "postgresql_role" "replication_role" {
  name             = "{{.P}}_replication"
  replication      = true
  login            = true
  connection_limit = 5
  password         = "md5c98cbfeb6a347a47eb8e96cfb4c4b890"
}

# case: password_write_only
# needs: write-only
resource "postgresql_role" "password_wo" {
  name                = "{{.P}}_secure_role"
  login               = true
  password_wo         = "secure_password_123"
  password_wo_version = "1"
}

# case: empty_password
# `password = ""` is how modules spell "no password" (a variable defaulting to "").
resource "postgresql_role" "empty_password" {
  name     = "{{.P}}_empty_pw"
  login    = true
  password = ""
}

# case: every_flag_spelled
resource "postgresql_role" "every_flag" {
  name                                = "{{.P}}_every_flag"
  login                               = true
  create_database                     = true
  create_role                         = true
  inherit                             = false
  connection_limit                    = -1
  encrypted_password                  = true
  password                            = "every-flag-pass"
  valid_until                         = "infinity"
  skip_drop_role                      = false
  skip_reassign_owned                 = true
  statement_timeout                   = 30000
  idle_in_transaction_session_timeout = 60000
  assume_role                         = postgresql_role.group_a.name
  search_path                         = ["$user", "public"]
  roles                               = [postgresql_role.group_a.name, postgresql_role.group_b.name]
}

# case: defaults_spelled_out
resource "postgresql_role" "defaults_spelled_out" {
  name                      = "{{.P}}_defaults"
  superuser                 = false
  create_database           = false
  create_role               = false
  inherit                   = true
  login                     = false
  replication               = false
  bypass_row_level_security = false
  connection_limit          = -1
  statement_timeout         = 0
  assume_role               = ""
  roles                     = []
  search_path               = []
}

# case: deprecated_encrypted
resource "postgresql_role" "deprecated_encrypted" {
  name      = "{{.P}}_encrypted"
  login     = true
  encrypted = "true"
  password  = "enc-pass"
}

# case: encrypted_password_false
# cyrilgdn-fails: cyrilgdn runs CREATE ROLE ... UNENCRYPTED PASSWORD, which PostgreSQL 10 and later refuse ("UNENCRYPTED PASSWORD is no longer supported")
resource "postgresql_role" "encrypted_password_false" {
  name               = "{{.P}}_unencrypted"
  login              = true
  encrypted_password = false
  password           = "plain-pass"
}

# case: valid_until_spellings
resource "postgresql_role" "valid_until_space" {
  name        = "{{.P}}_valid_space"
  login       = true
  valid_until = "2099-12-31 23:59:59+00"
}

resource "postgresql_role" "valid_until_rfc3339" {
  name        = "{{.P}}_valid_rfc3339"
  login       = true
  valid_until = "2099-12-31T23:59:59Z"
}

resource "postgresql_role" "valid_until_date" {
  name        = "{{.P}}_valid_date"
  login       = true
  valid_until = "2099-12-31"
}

# case: numbers_as_strings
# HCL converts "30000" to a number; modules passing variables as strings rely on it.
resource "postgresql_role" "numbers_as_strings" {
  name              = "{{.P}}_num_strings"
  connection_limit  = "10"
  statement_timeout = "30000"
}

# case: search_path_quoted
resource "postgresql_role" "search_path_quoted" {
  name        = "{{.P}}_sp_quoted"
  search_path = ["app", "\"$user\"", "Mixed Case", "public"]
}

# case: quoted_name
resource "postgresql_role" "quoted_name" {
  name = "{{.P}} Mixed-Case.Name"
}

# case: member_with_ignore_changes
# The documented way to use postgresql_grant_role for a role postgresql_role
# also manages.
resource "postgresql_role" "member_ignore" {
  name  = "{{.P}}_member_ignore"
  login = true
  lifecycle {
    ignore_changes = [roles]
  }
}

resource "postgresql_grant_role" "member_ignore" {
  role       = postgresql_role.member_ignore.name
  grant_role = postgresql_role.group_b.name
}

# case: member_of_without_roles
# Without ignore_changes: this provider does not manage memberships roles does
# not set, so postgresql_grant_role and postgresql_role do not fight.
resource "postgresql_role" "member_plain" {
  name = "{{.P}}_member_plain"
}

resource "postgresql_grant_role" "member_plain" {
  role       = postgresql_role.member_plain.name
  grant_role = postgresql_role.group_a.name
}

# case: superuser_role
# superuser-only: SUPERUSER and BYPASSRLS can be given by a superuser only
resource "postgresql_role" "superuser_role" {
  name                      = "{{.P}}_super"
  superuser                 = true
  login                     = true
  bypass_row_level_security = true
  password                  = "super-pass"
}

# case: count_over_a_list
# (for_each alike; the test framework's state shim reads count instances only)
resource "postgresql_role" "counted" {
  count = 2
  name  = "{{.P}}_${["reader", "writer"][count.index]}"
  login = true
  roles = [postgresql_role.group_a.name]
}
