# Compatibility corpus: postgresql_server and postgresql_user_mapping as
# cyrilgdn/postgresql users write them. Database {{.P}} is made by the test,
# with postgres_fdw and file_fdw usable by every role (as managed services
# have them). See corpus_test.go for the format.

resource "postgresql_role" "owner" {
  name = "{{.P}}_owner"
}

resource "postgresql_role" "app" {
  name = "{{.P}}_app"
}

# case: postgres_fdw_full
# cyrilgdn-fails: database is this provider's argument (cyrilgdn makes servers in the provider's database only)
resource "postgresql_server" "remote" {
  server_name    = "remote"
  database       = "{{.P}}"
  fdw_name       = "postgres_fdw"
  server_owner   = postgresql_role.owner.name
  server_type    = "postgresql"
  server_version = "15"
  options = {
    host    = "db.example.internal"
    port    = "5432"
    dbname  = "remote_db"
    sslmode = "require"
  }
  drop_cascade = true
}

# case: file_fdw_minimal
# cyrilgdn-fails: database is this provider's argument (cyrilgdn makes servers in the provider's database only)
resource "postgresql_server" "files" {
  server_name = "files"
  database    = "{{.P}}"
  fdw_name    = "file_fdw"
}

# case: options_empty_and_strings_spelled
# cyrilgdn-fails: database is this provider's argument (cyrilgdn makes servers in the provider's database only)
resource "postgresql_server" "empty_options" {
  server_name    = "empty_options"
  database       = "{{.P}}"
  fdw_name       = "postgres_fdw"
  server_type    = ""
  server_version = ""
  options        = {}
  drop_cascade   = false
}

# case: user_mapping_with_options
# cyrilgdn-fails: database is this provider's argument (cyrilgdn makes servers in the provider's database only)
resource "postgresql_server" "mapped" {
  server_name = "mapped"
  database    = "{{.P}}"
  fdw_name    = "postgres_fdw"
  options = {
    host   = "db.example.internal"
    dbname = "remote_db"
  }
}

resource "postgresql_user_mapping" "app" {
  server_name = postgresql_server.mapped.server_name
  user_name   = postgresql_role.app.name
  database    = "{{.P}}"
  options = {
    user     = "remote_user"
    password = "remote-pass-1"
  }
}

# case: user_mapping_public_no_options
# cyrilgdn-fails: database is this provider's argument (cyrilgdn makes servers in the provider's database only)
resource "postgresql_user_mapping" "public" {
  server_name = postgresql_server.mapped.server_name
  user_name   = "public"
  database    = "{{.P}}"
}
