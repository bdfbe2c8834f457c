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

# ADAPTED for cyrilgdn 1.18.0: postgresql_function.stats: options moved into body, which holds everything after the return type (no language, volatility, security_definer in this release).
# OUT / INOUT / VARIADIC argument modes, SECURITY DEFINER, STABLE, drop_cascade.
resource "postgresql_function" "stats" {
  name   = "fx_stats"
  schema = "public"

  arg {
    mode = "INOUT"
    name = "label"
    type = "text"
  }

  arg {
    mode = "OUT"
    name = "total"
    type = "bigint"
  }

  arg {
    mode = "VARIADIC"
    name = "vals"
    type = "integer[]"
  }

  returns      = "record"
  drop_cascade = true
  body         = <<-EOT
    AS $$
    BEGIN
      label := upper(label);
      SELECT sum(v) INTO total FROM unnest(vals) AS v;
    END;
    $$ LANGUAGE plpgsql STABLE SECURITY DEFINER;
  EOT
}
