package provider

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// BenchmarkListGrants10000 lists, as `terraform query -generate-config-out`
// asks for them (each result with its resource, through the provider's
// protocol server), the grants of a database of 2,000 tables in 20 schemas
// on which 5 roles hold 10,000 grants: each role a privilege set that
// varies from table to table, so that every (role, schema) gives 4
// postgresql_grant of 25 tables each (400 results), none of the
// all-objects form. Each listing starts a provider of its own, as each
// `terraform query` does. It reports the results and the server sessions a
// listing opened: in all, and to the database listed (its read-only pool);
// the rest are the provider's own database's. make bench runs it; the
// adoption guide ("Performance") gives the figure.
func BenchmarkListGrants10000(b *testing.B) {
	if os.Getenv("TF_ACC") == "" {
		b.Skip("acceptance benchmark: set TF_ACC (make bench)")
	}
	ctx := context.Background()
	p := acctest.RandName("bench")
	db := p + "_db"
	roles := make([]string, 5)
	var stmts []string
	for i := range roles {
		roles[i] = fmt.Sprintf("%s_r%d", p, i)
		stmts = append(stmts, "CREATE ROLE "+acctest.QI(roles[i]))
	}
	benchExec(b, "", stmts...)
	b.Cleanup(func() {
		benchExec(b, "", "DROP DATABASE IF EXISTS "+acctest.QI(db)+" WITH (FORCE)")
		for _, r := range roles {
			benchExec(b, "", "DROP ROLE IF EXISTS "+acctest.QI(r))
		}
	})
	benchExec(b, "", "CREATE DATABASE "+acctest.QI(db))
	benchExec(b, db, fmt.Sprintf(`DO $$
DECLARE
  privs text[] := ARRAY['SELECT', 'SELECT, INSERT', 'SELECT, INSERT, UPDATE', 'SELECT, INSERT, UPDATE, DELETE'];
  roles text[] := ARRAY[%s];
BEGIN
  FOR s IN 1..20 LOOP
    EXECUTE format('CREATE SCHEMA s%%s', s);
    FOR t IN 1..100 LOOP
      EXECUTE format('CREATE TABLE s%%s.t%%s (id int)', s, t);
      FOR r IN 1..5 LOOP
        EXECUTE format('GRANT %%s ON s%%s.t%%s TO %%I', privs[1 + (t + r) %% 4], s, t, roles[r]);
      END LOOP;
    END LOOP;
  END LOOP;
END$$`, sqlLiteralList(roles)))
	if n := benchQueryInt(b, db, "SELECT count(*) FROM pg_class c, aclexplode(c.relacl) a WHERE c.relkind = 'r' AND c.relname LIKE 't%' AND a.grantee NOT IN (0, c.relowner) AND a.privilege_type = 'SELECT'"); n != 10000 {
		b.Fatalf("%d grants, want 10000", n)
	}

	// a provider per listing, as each `terraform query` starts one
	var listSchema *tfprotov6.Schema
	type listServer interface {
		tfprotov6.ProviderServer
		tfprotov6.ListResourceServer
	}
	newServer := func() listServer {
		srv, ok := tfkit.ReleaseContexts(providerserver.NewProtocol6(New("bench", testProviderOptions()...)())()).(listServer)
		if !ok {
			b.Fatal("the protocol server does not serve list resources")
		}
		schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			b.Fatal(err)
		}
		configure, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.16.4", Config: nullObject(b, schemas.Provider, nil)})
		if err != nil || diagsFail(configure.Diagnostics) != "" {
			b.Fatalf("configuring the provider: %v %s", err, diagsFail(configure.Diagnostics))
		}
		listSchema = schemas.ListResourceSchemas["postgresql_grant"]
		return srv
	}
	newServer()
	config := nullObject(b, listSchema, map[string]tftypes.Value{
		"database": tftypes.NewValue(tftypes.String, db),
		"role":     tftypes.NewValue(tftypes.String, p+`\_%`),
	})
	// the sessions a listing opens: its provider's, by application name
	// (PGAPPNAME), still open in its pools when it ends
	results, opened, openedDB, i := 0, 0, 0, 0
	b.ResetTimer()
	for b.Loop() {
		i++
		app := fmt.Sprintf("%s_list_%d", p, i)
		b.Setenv("PGAPPNAME", app)
		srv := newServer()
		resp, err := srv.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: "postgresql_grant", Config: config, IncludeResource: true})
		if err != nil {
			b.Fatal(err)
		}
		results = 0
		for r := range resp.Results {
			if d := diagsFail(r.Diagnostics); d != "" {
				b.Fatal(d)
			}
			results++
		}
		b.StopTimer()
		opened = benchQueryInt(b, "", "SELECT count(*)::int FROM pg_stat_activity WHERE application_name = '"+app+"'")
		openedDB = benchQueryInt(b, "", "SELECT count(*)::int FROM pg_stat_activity WHERE application_name = '"+app+"' AND datname = '"+db+"'")
		b.StartTimer()
	}
	if results != 400 {
		b.Errorf("%d results, want 400", results)
	}
	b.ReportMetric(float64(results), "results/op")
	b.ReportMetric(float64(opened), "sessions/op")
	b.ReportMetric(float64(openedDB), "listed-db-sessions/op")
}

// nullObject is a value of schema s's type with every attribute null but
// those in set.
func nullObject(b *testing.B, s *tfprotov6.Schema, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	b.Helper()
	typ := s.ValueType().(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = v
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}

func diagsFail(ds []*tfprotov6.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return d.Summary + ": " + d.Detail
		}
	}
	return ""
}

func sqlLiteralList(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += "'" + n + "'"
	}
	return out
}

// benchConn connects to database db ("" = postgres) of the test cluster as
// the superuser.
func benchConn(b *testing.B, db string) *pgx.Conn {
	b.Helper()
	if db == "" {
		db = "postgres"
	}
	user, pass := os.Getenv("PGTF_SUPERUSER"), os.Getenv("PGTF_SUPERUSER_PASSWORD")
	if user == "" {
		user, pass = os.Getenv("PGUSER"), os.Getenv("PGPASSWORD")
	}
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s dbname=%s sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT"), db))
	if err != nil {
		b.Fatal(err)
	}
	cfg.User, cfg.Password = user, pass
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	return conn
}

func benchExec(b *testing.B, db string, stmts ...string) {
	b.Helper()
	conn := benchConn(b, db)
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(context.Background(), s); err != nil {
			b.Fatalf("executing %q: %v", s, err)
		}
	}
}

func benchQueryInt(b *testing.B, db, query string) int {
	b.Helper()
	conn := benchConn(b, db)
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), query).Scan(&n); err != nil {
		b.Fatalf("query %q: %v", query, err)
	}
	return n
}
