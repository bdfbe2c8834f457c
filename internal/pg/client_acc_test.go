package pg

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// testClient connects to the test cluster (PGHOST, PGPORT, PGUSER, PGPASSWORD)
// with at most maxConns connections (0: unlimited), as application app.
func testClient(t testing.TB, maxConns int, app string, opts ...pgconn.Option) *Client {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := NewClient(pgconn.Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres", Username: os.Getenv("PGUSER"),
		Password: os.Getenv("PGPASSWORD"), SSLMode: "disable", ConnectTimeout: 10 * time.Second,
		MaxConnections: maxConns, Superuser: os.Getenv("PGSUPERUSER") != "false", ApplicationName: app,
	}, opts...)
	t.Cleanup(c.Close)
	return c
}

func TestAccClientCapabilitiesAndMissingRole(t *testing.T) {
	c := testClient(t, 5, acctest.RandName("caps"))
	ctx := context.Background()
	caps, err := c.Capabilities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if caps.ServerVersionNum < 120000 || caps.CurrentUser != os.Getenv("PGUSER") {
		t.Fatalf("unexpected capabilities %+v", caps)
	}
	if acctest.Managed() == caps.IsSuperuser {
		t.Fatalf("managed=%v but rolsuper=%v", acctest.Managed(), caps.IsSuperuser)
	}
	if acctest.Managed() && (!caps.CanCreateRole || !caps.CanCreateDB) {
		t.Fatalf("managed admin lacks CREATEROLE/CREATEDB: %+v", caps)
	}
	// dropping a role that does not exist succeeds (destroy after out-of-band drop)
	if err := c.DropRole(ctx, acctest.RandName("never_existed"), false); err != nil {
		t.Fatal(err)
	}
	r, err := c.ReadRole(ctx, acctest.RandName("never_existed"))
	if err != nil || r != nil {
		t.Fatalf("ReadRole of a missing role = %v, %v", r, err)
	}
}

// BenchmarkReadRoles400 reads 400 roles with 10 concurrent workers, as a plan
// of 400 role resources does, and reports the connections it needed
// (cyrilgdn opens one per statement: over a thousand for such a plan).
func BenchmarkReadRoles400(b *testing.B) {
	c := testClient(b, 20, "bench_read_roles")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var wg sync.WaitGroup
		work := make(chan int)
		for w := 0; w < 10; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range work {
					if _, err := c.ReadRole(ctx, "postgres"); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		for i := 0; i < 400; i++ {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	b.ReportMetric(float64(c.ConnectionsOpened()), "conns-total")
}

// BenchmarkScramVerifier measures the client-side password hashing (4096 PBKDF2 iterations).
func BenchmarkScramVerifier(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScramVerifier("benchmark-password"); err != nil {
			b.Fatal(err)
		}
	}
}

// Statements used to go over the simple query protocol when they had no bind
// parameters (pgx does that for Exec without arguments), which runs every
// statement of a text: configuration text spliced into one (a policy
// expression) could run others. Every Exec of Tx, Do, Conn and savepoints now
// runs exactly one statement; the server refuses a second.
func TestAccClient_regressionMultipleStatementsInOneExec(t *testing.T) {
	c := testClient(t, 0, "")
	ctx := context.Background()
	victim := acctest.RandName("victim")
	acctest.Exec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(victim))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(victim)) })
	smuggle := "SELECT 1; DROP ROLE " + pgconn.QuoteIdent(victim)
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "cannot insert multiple commands into a prepared statement") {
			t.Errorf("%s: two statements in one Exec: err = %v, want the server's refusal", what, err)
		}
		if !acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", victim) {
			t.Fatalf("%s: the second statement ran: role %q is gone", what, victim)
		}
	}
	check("Tx", c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, smuggle)
		return err
	}))
	check("savepoint", c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return err
		}
		_, err = sp.Exec(ctx, smuggle)
		return err
	}))
	check("Do", c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, smuggle)
		return err
	}))
	check("Conn", c.Conn(ctx, "", func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, smuggle)
		return err
	}))
	// the policy expression of the issue, straight to the typed function (the
	// resource's validator would refuse it earlier)
	db := acctest.RandName("smugdb")
	acctest.TempDatabase(t, db, "CREATE TABLE t (id int)", "ALTER TABLE t OWNER TO "+pgconn.QuoteIdent(acctest.AdminUser()))
	_, err := c.CreatePolicy(ctx, db, PolicySpec{Name: "p", Schema: "public", Table: "t", Command: "ALL", Permissive: true,
		Using: "true); DROP ROLE " + pgconn.QuoteIdent(victim) + "; SELECT (1"})
	check("CreatePolicy", err)
	// one statement without arguments still works, utility statements included
	if err := c.Do(ctx, db, func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, "COMMENT ON TABLE t IS 'one; statement'")
		return err
	}); err != nil {
		t.Errorf("one statement: %v", err)
	}
}
