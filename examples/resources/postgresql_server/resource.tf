# The postgres_fdw extension must exist in the database (for example with
# postgresql_extension); a non-superuser needs USAGE on the wrapper.
resource "postgresql_server" "reporting" {
  database    = "app"
  server_name = "reporting"
  fdw_name    = "postgres_fdw"
  options = {
    host   = "reporting.internal"
    port   = "5432"
    dbname = "reporting"
  }
}
