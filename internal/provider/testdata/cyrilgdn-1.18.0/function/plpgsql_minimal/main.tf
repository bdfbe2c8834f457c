terraform {
  required_version = ">= 1.11.0"
  required_providers {
    postgresql = {
      source  = "cyrilgdn/postgresql"
      version = "1.18.0"
    }
  }
}

# Provider connects to the fixture server (see ../../README.md).
provider "postgresql" {
  host            = "127.0.0.1"
  port            = 25433
  database        = "postgres"
  username        = "postgres"
  password        = "pgfixpw"
  sslmode         = "disable"
  superuser       = true
  connect_timeout = 15
}

# ADAPTED for cyrilgdn 1.18.0: postgresql_function.noop: options moved into body, which holds everything after the return type (no language in this release); added returns = "void" (required before 1.19.0).
# Minimal plpgsql function: no args, "returns", "database" and "schema" computed,
# multi-line body.
resource "postgresql_function" "noop" {
  name    = "fx_noop"
  returns = "void"
  body    = <<-EOT
    AS $$
    BEGIN
      PERFORM 1;
    END;
    $$ LANGUAGE plpgsql;
  EOT
}
