# The function (RETURNS event_trigger) must exist; event triggers need a superuser.
resource "postgresql_event_trigger" "audit_ddl" {
  database        = "app"
  name            = "audit_ddl"
  event           = "ddl_command_end"
  tags            = ["CREATE TABLE", "ALTER TABLE", "DROP TABLE"]
  function        = "log_ddl"
  function_schema = "audit"
  enabled         = "ALWAYS"
}
