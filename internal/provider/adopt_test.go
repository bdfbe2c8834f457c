package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// adoptCluster makes, with SQL only and as the admin of the mode (the
// superuser makes what only a superuser may), what a cluster built by hand
// and by migrations holds: group and login roles, memberships, role and
// database settings, a database with schemas, tables, views, sequences,
// functions, a procedure, types, an extension, a publication, row-level
// security and its policies, comments, default privileges, and grants of
// every kind; a login role has a password. It returns the query file (.tfquery.hcl) that lists all of it,
// as the adoption guide writes it.
func adoptCluster(t *testing.T, p string) string {
	t.Helper()
	managed, major := acctest.Managed(), acctest.ServerMajor(t)
	admin, db := acctest.AdminUser(), p+"_db"
	q := acctest.QI
	readers, writers, app, analyst := p+"_readers", p+"_writers", p+"_app", p+"_analyst"
	for _, r := range []string{analyst, app, writers, readers} {
		t.Cleanup(func() { acctest.Exec(t, "", "DROP OWNED BY "+q(r)+" CASCADE", "DROP ROLE IF EXISTS "+q(r)) })
	}
	acctest.AdminExec(t, "",
		"CREATE ROLE "+q(readers), "CREATE ROLE "+q(writers),
		"CREATE ROLE "+q(app)+" LOGIN CONNECTION LIMIT 10", "CREATE ROLE "+q(analyst)+" LOGIN PASSWORD 'a password nobody wrote down'",
		"GRANT "+q(writers)+" TO "+q(app), "GRANT "+q(readers)+" TO "+q(analyst)+" WITH ADMIN OPTION", "GRANT "+q(readers)+" TO "+q(writers),
		"ALTER ROLE "+q(app)+" SET search_path = app, public", "ALTER ROLE "+q(app)+" SET statement_timeout = '30s'",
		"ALTER ROLE "+q(app)+" SET work_mem = '16MB'",
		"COMMENT ON ROLE "+q(app)+" IS 'the application'")
	acctest.Database(t, db, admin)
	acctest.AdminExec(t, "", "ALTER DATABASE "+q(db)+" SET work_mem = '8MB'",
		"ALTER ROLE "+q(analyst)+" IN DATABASE "+q(db)+" SET statement_timeout = '5min'")
	acctest.AdminExec(t, db,
		"CREATE SCHEMA app", "CREATE SCHEMA reporting", "CREATE EXTENSION IF NOT EXISTS pgcrypto",
		"CREATE TYPE app.status AS ENUM ('new', 'paid')",
		"CREATE DOMAIN app.positive AS integer CHECK (VALUE > 0)",
		"CREATE TABLE app.customers (id serial PRIMARY KEY, email text NOT NULL, name text)",
		"CREATE TABLE app.orders (id bigserial PRIMARY KEY, customer_id integer REFERENCES app.customers, total numeric, status app.status)",
		"CREATE TABLE app.audit (id integer, who text)",
		"CREATE SEQUENCE app.invoice_no",
		"CREATE VIEW reporting.daily AS SELECT date_trunc('day', now()) AS day, count(*) AS orders FROM app.orders",
		"CREATE MATERIALIZED VIEW reporting.totals AS SELECT customer_id, sum(total) AS total FROM app.orders GROUP BY 1",
		"CREATE FUNCTION app.order_total(customer integer) RETURNS numeric LANGUAGE sql STABLE AS 'SELECT sum(total) FROM app.orders WHERE customer_id = customer'",
		"CREATE FUNCTION reporting.fmt_money(amount numeric) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT to_char(amount, 'FM999990.00')$$",
		"CREATE PROCEDURE app.archive() LANGUAGE sql AS 'DELETE FROM app.audit'",
		"CREATE PUBLICATION "+q(p+"_pub")+" FOR TABLE app.orders",
		// row-level security
		"ALTER TABLE app.audit ENABLE ROW LEVEL SECURITY", "ALTER TABLE app.audit FORCE ROW LEVEL SECURITY",
		"CREATE POLICY own_rows ON app.audit FOR SELECT TO "+q(readers)+" USING (who = current_user)",
		"CREATE POLICY writers_all ON app.audit TO "+q(writers)+" USING (true) WITH CHECK (who = current_user)",
		"COMMENT ON TABLE app.orders IS 'one row per order'", "COMMENT ON COLUMN app.customers.email IS 'where invoices go'",
		"COMMENT ON SCHEMA reporting IS 'read models'", "COMMENT ON FUNCTION app.order_total(integer) IS 'total of a customer'",
		// grants of every kind: the database, its schemas, tables (the same
		// privileges on all of a schema, and on some), sequences, columns,
		// routines, types, a large object
		"REVOKE ALL ON DATABASE "+q(db)+" FROM PUBLIC",
		"GRANT CONNECT ON DATABASE "+q(db)+" TO "+q(readers)+", "+q(writers),
		"GRANT CONNECT, TEMPORARY ON DATABASE "+q(db)+" TO "+q(app),
		"GRANT USAGE ON SCHEMA app TO "+q(readers)+", "+q(writers),
		"GRANT USAGE, CREATE ON SCHEMA reporting TO "+q(writers)+" WITH GRANT OPTION",
		"GRANT SELECT ON ALL TABLES IN SCHEMA app TO "+q(readers),
		"GRANT SELECT, INSERT, UPDATE, DELETE ON app.customers, app.orders TO "+q(writers),
		"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA app TO "+q(writers),
		"GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO "+q(readers)+" WITH GRANT OPTION",
		"GRANT SELECT (id, email), UPDATE (email) ON app.customers TO "+q(analyst),
		"REVOKE EXECUTE ON FUNCTION app.order_total(integer) FROM PUBLIC",
		"GRANT EXECUTE ON FUNCTION app.order_total(integer) TO "+q(readers),
		"REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA reporting FROM PUBLIC",
		"REVOKE EXECUTE ON PROCEDURE app.archive() FROM PUBLIC",
		"GRANT EXECUTE ON PROCEDURE app.archive() TO "+q(writers),
		"REVOKE USAGE ON TYPE app.status FROM PUBLIC",
		"GRANT USAGE ON TYPE app.status TO "+q(writers), "GRANT USAGE ON DOMAIN app.positive TO "+q(writers),
		"DO $$BEGIN EXECUTE format('GRANT SELECT ON LARGE OBJECT %s TO %I', lo_create(0), '"+strings.ReplaceAll(readers, "'", "''")+"'); END$$",
		// default privileges, made last so that they apply to nothing above
		"ALTER DEFAULT PRIVILEGES IN SCHEMA app GRANT SELECT ON TABLES TO "+q(readers),
		"ALTER DEFAULT PRIVILEGES IN SCHEMA app GRANT USAGE, SELECT ON SEQUENCES TO "+q(writers),
		"ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC")
	// PUBLIC's privileges on schema public: what PostgreSQL 15+ leaves it
	// (USAGE) taken away, or before 15 its CREATE (the schema then belongs
	// to the bootstrap superuser, so only as the superuser)
	switch {
	case major >= 15:
		acctest.AdminExec(t, db, "REVOKE USAGE ON SCHEMA public FROM PUBLIC")
	case !managed:
		acctest.Exec(t, db, "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
	}
	// a foreign-data wrapper only a superuser can make: its USAGE lets the
	// admin make a server and a user mapping
	acctest.Exec(t, db, "CREATE FOREIGN DATA WRAPPER "+q(p+"_fdw"),
		"GRANT USAGE ON FOREIGN DATA WRAPPER "+q(p+"_fdw")+" TO "+q(admin)+", "+q(writers))
	acctest.AdminExec(t, db,
		"CREATE SERVER "+q(p+"_srv")+" FOREIGN DATA WRAPPER "+q(p+"_fdw")+" OPTIONS (host 'example', port '5432')",
		"GRANT USAGE ON FOREIGN SERVER "+q(p+"_srv")+" TO "+q(writers),
		"CREATE USER MAPPING FOR "+q(app)+" SERVER "+q(p+"_srv")+" OPTIONS (\"user\" 'remote')")
	if !managed {
		// what only a superuser may grant: a language, a tablespace, a parameter
		acctest.Exec(t, db, "REVOKE USAGE ON LANGUAGE plpgsql FROM PUBLIC", "GRANT USAGE ON LANGUAGE plpgsql TO "+q(writers),
			"GRANT CREATE ON TABLESPACE pg_default TO "+q(writers))
		if major >= 15 {
			acctest.Exec(t, "", "GRANT SET ON PARAMETER log_min_duration_statement TO "+q(app))
		}
	}
	like := fmt.Sprintf("%q", p+"\\_%")
	return fmt.Sprintf(`list "postgresql_role" "all" {
  provider = postgresql
  config {
    like_any_patterns = [%[1]s]
  }
}

list "postgresql_grant_role" "all" {
  provider = postgresql
  config {
    role = %[1]s
  }
}

list "postgresql_role_setting" "all" {
  provider = postgresql
  config {
    role = %[1]s
  }
}

list "postgresql_database" "all" {
  provider = postgresql
  config {
    like_any_patterns = [%[2]q]
  }
}

list "postgresql_grant" "roles" {
  provider = postgresql
  config {
    database     = %[2]q
    role         = %[1]s
    cluster_wide = true
  }
}

list "postgresql_grant" "public" {
  provider = postgresql
  config {
    database = %[2]q
    role     = "public"
  }
}

list "postgresql_comment" "roles" {
  provider = postgresql
  config {
    object_type       = "role"
    like_any_patterns = [%[1]s]
    cluster_wide      = true
  }
}
`, like, db) + strings.Join(func() []string {
		var blocks []string
		for _, typ := range []string{"database_setting", "schema", "extension", "function", "default_privileges", "publication", "policy", "table_rls",
			"comment", "server", "user_mapping"} {
			blocks = append(blocks, fmt.Sprintf("list \"postgresql_%s\" \"db\" {\n  provider = postgresql\n  config {\n    database = %q\n  }\n}\n", typ, db))
		}
		return blocks
	}(), "\n")
}

// A cluster made only with SQL is adopted in one command: one query file
// lists every kind of object, `terraform query -generate-config-out` writes
// their configuration, whose plan only imports ("0 to add, 0 to change, 0 to
// destroy"), no fact of which two resources own; the apply imports them
// and the next plan is empty. In both admin modes (the managed admin adopts
// what it can see, which is everything, though it could not have granted all
// of it); make test runs it on PostgreSQL 13 too (TEST_VERSIONS).
func TestAccAdopt_wholeCluster(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	p := acctest.RandName("adopt")
	query := adoptCluster(t, p)
	generated, err := acctest.GenerateConfig(t, query)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated configuration:\n%s", generated)
	// Terraform writes no sensitive value: the user mapping's options are
	// filled in by hand, as the guide says
	generated = regexp.MustCompile(`options\s*= null # sensitive`).ReplaceAllLiteralString(generated, `options = { user = "remote" }`)
	w := acctest.NewWorkdir(t)
	defer w.Forget() // the test's cleanups drop the objects
	plan := w.PlanFile(generated)
	if len(plan.Changed) > 0 {
		t.Fatalf("the generated configuration plans changes beyond its imports: %v\n%s", plan.Changed, plan.Text)
	}
	if len(plan.Imports) != len(plan.Configured) {
		t.Errorf("%d resources, %d imports:\n%s", len(plan.Configured), len(plan.Imports), plan.Text)
	}
	if want := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(plan.Configured)); !strings.Contains(plan.Text, want) {
		t.Errorf("expected %q:\n%s", want, plan.Text)
	}
	if err := checkOneOwner(plan.Configured, acctest.DefaultDatabase()); err != nil {
		t.Error(err)
	}
	// every kind of object came out
	kinds := map[string]int{}
	for _, r := range plan.Configured {
		kinds[r.Type]++
	}
	want := []string{"role", "grant_role", "role_setting", "database", "database_setting", "schema", "extension", "function", "default_privileges",
		"publication", "policy", "table_rls", "comment", "server", "user_mapping", "grant"}
	for _, k := range want {
		if kinds["postgresql_"+k] == 0 {
			t.Errorf("no postgresql_%s was generated", k)
		}
	}
	t.Logf("resources by type: %v", kinds)
	w.ApplyPlan()
	if out, changes := w.Plan(generated); changes {
		t.Errorf("the plan after the import is not empty:\n%s", out)
	}
}
