# Compatibility corpus: postgresql_function as cyrilgdn/postgresql users write
# it. Database {{.P}} is made by the test, owned by the provider's role. See
# corpus_test.go for the format.

resource "postgresql_schema" "fn" {
  name     = "fn"
  database = "{{.P}}"
}

# case: docs_plpgsql_heredoc
resource "postgresql_function" "increment" {
  name     = "increment"
  database = "{{.P}}"
  arg {
    name = "i"
    type = "integer"
  }
  returns  = "integer"
  language = "plpgsql"
  body     = <<-EOF
    BEGIN
        RETURN i + 1;
    END;
  EOF
}

# case: body_only
# language (plpgsql) and returns (void) left to their defaults.
resource "postgresql_function" "noop" {
  name     = "noop"
  database = "{{.P}}"
  body     = <<-EOF
    BEGIN
      PERFORM 1;
    END;
  EOF
}

# case: sql_with_defaults_and_flags
resource "postgresql_function" "add" {
  name     = "add"
  schema   = postgresql_schema.fn.name
  database = "{{.P}}"
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
  returns          = "integer"
  body             = "SELECT a + b"
  volatility       = "IMMUTABLE"
  strict           = true
  parallel         = "SAFE"
  security_definer = false
}

# case: lower_case_spellings
# cyrilgdn-fails: cyrilgdn's validation takes upper-case volatility and parallel only ("expected volatility to be one of [VOLATILE STABLE IMMUTABLE], got stable")
resource "postgresql_function" "lower" {
  name       = "lower_spellings"
  database   = "{{.P}}"
  language   = "SQL"
  volatility = "stable"
  parallel   = "restricted"
  arg {
    name = "x"
    mode = "in"
    type = "int"
  }
  returns = "int4"
  body    = "SELECT x"
}

# case: out_args_security_definer
resource "postgresql_function" "stats" {
  name     = "stats"
  database = "{{.P}}"
  arg {
    name = "label"
    type = "text"
    mode = "INOUT"
  }
  arg {
    name = "total"
    type = "bigint"
    mode = "OUT"
  }
  arg {
    name = "vals"
    type = "integer[]"
    mode = "VARIADIC"
  }
  returns          = "record"
  volatility       = "STABLE"
  security_definer = true
  drop_cascade     = true
  body             = <<-EOF
    BEGIN
      label := upper(label);
      SELECT sum(v) INTO total FROM unnest(vals) AS v;
    END;
  EOF
}

# case: returns_table_and_setof
resource "postgresql_function" "table_fn" {
  name     = "numbers"
  database = "{{.P}}"
  language = "sql"
  arg {
    name = "n"
    type = "integer"
  }
  returns = "TABLE(i integer)"
  body    = "SELECT generate_series(1, n)"
}

resource "postgresql_function" "setof_fn" {
  name     = "words"
  database = "{{.P}}"
  language = "sql"
  returns  = "SETOF text"
  body     = "SELECT unnest(ARRAY['a', 'b'])"
}

# case: trigger_function
resource "postgresql_function" "trigger_fn" {
  name     = "touch"
  database = "{{.P}}"
  returns  = "trigger"
  body     = <<-EOF
    BEGIN
      NEW.updated_at := now();
      RETURN NEW;
    END;
  EOF
}

# case: unnamed_argument
resource "postgresql_function" "unnamed" {
  name     = "unnamed_arg"
  database = "{{.P}}"
  language = "sql"
  arg {
    type = "text"
  }
  returns = "text"
  body    = "SELECT $1"
}
