# A SQL function with a default argument, in schema "app" of database "shop".
resource "postgresql_function" "add" {
  name     = "add"
  database = "shop"
  schema   = "app"
  language = "sql"
  arg {
    name = "a"
    type = "integer"
  }
  arg {
    name    = "b"
    type    = "integer"
    default = "1"
  }
  returns    = "integer"
  volatility = "IMMUTABLE"
  strict     = true
  parallel   = "SAFE"
  body       = "SELECT a + b"
}

# A PL/pgSQL trigger function in the provider's database and schema public.
resource "postgresql_function" "touch" {
  name    = "touch_updated_at"
  returns = "trigger"
  body    = <<-EOT
    BEGIN
      NEW.updated_at := now();
      RETURN NEW;
    END;
  EOT
}
