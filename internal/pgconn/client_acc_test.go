package pgconn

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// testClient builds a client from the acceptance environment (the admin mode's role).
func testClient(t testing.TB, maxConns int, app string) *Client {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := NewClient(Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres", Username: os.Getenv("PGUSER"),
		Password: os.Getenv("PGPASSWORD"), SSLMode: "disable", ConnectTimeout: 10 * time.Second,
		MaxConnections: maxConns, Superuser: os.Getenv("PGSUPERUSER") != "false", ApplicationName: app,
	})
	t.Cleanup(c.Close)
	return c
}

// All pools together never hold more than max_connections server connections,
// even when work is spread over several databases.
func TestAccClientBoundsConnectionsAcrossDatabases(t *testing.T) {
	app := acctest.RandName("pool")
	c := testClient(t, 3, app)
	var dbs []string
	for i := 0; i < 3; i++ {
		db := fmt.Sprintf("%s_db%d", app, i)
		acctest.Exec(t, "", fmt.Sprintf(`CREATE DATABASE %q`, db), fmt.Sprintf(`GRANT CONNECT ON DATABASE %q TO PUBLIC`, db))
		t.Cleanup(func() { acctest.Exec(t, "", fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, db)) })
		dbs = append(dbs, db)
	}
	ctx := context.Background()
	stop := make(chan struct{})
	maxSeen := 0
	var mu sync.Mutex
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		conn := acctest.SuperConn(t, "")
		defer conn.Close(ctx)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", app).Scan(&n); err == nil {
				mu.Lock()
				maxSeen = max(maxSeen, n)
				mu.Unlock()
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	for i := 0; i < 60; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- c.Do(ctx, dbs[i%len(dbs)], func(ctx context.Context, q Querier) error {
				_, err := q.Exec(ctx, "SELECT pg_sleep(0.02)")
				return err
			})
		}(i)
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := c.MaxConnectionsOpenAtOnce(); n > 3 || n == 0 {
		t.Fatalf("the client held %d connections at once, max_connections is 3", n)
	}
	// The server's view lags: a closed connection's backend may still be
	// exiting when the next one arrives, so allow one in flight.
	if maxSeen > 4 || maxSeen == 0 {
		t.Fatalf("saw %d server connections at once, max_connections is 3", maxSeen)
	}
	t.Logf("max connections at once: client %d, server sample %d; opened in total %d", c.MaxConnectionsOpenAtOnce(), maxSeen, c.ConnectionsOpened())
}

// Statements reuse pooled connections instead of opening one each. (pgxpool
// returns a released connection asynchronously, so a sequential caller may
// now and then open a second one; one per statement would be 50.)
func TestAccClientReusesConnections(t *testing.T) {
	c := testClient(t, 20, acctest.RandName("reuse"))
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		if err := readOne(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// Reuse means far fewer connections than reads. Not exactly one: the
	// read-only and read-write pools each open theirs, and on a loaded machine
	// (CI runs two server versions at once) the pool's health check may close
	// a connection that a later read reopens; 6 were seen once in CI.
	if n := c.ConnectionsOpened(); n > 10 {
		t.Fatalf("50 sequential reads opened %d connections", n)
	}
}

// A read-only pool opens a connection in the background as soon as it is made
// (beside its first read's own), so that the next concurrent read of a refresh
// finds it ready instead of setting one up behind the first; with no permit to
// spare under max_connections it opens none, and the pool's reads never wait
// for it.
func TestAccClient_readPoolWarmsSecondConnection(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		maxConns int
		warmed   int64
	}{{20, 1}, {1, 0}} {
		c := testClient(t, tc.maxConns, "")
		p, err := c.openPool(ctx, "", true)
		if err != nil {
			t.Fatal(err)
		}
		// wait for the warmed connection to be idle in the pool (a minute at
		// most on a loaded machine), or a moment when there is none to warm
		wait := time.Minute
		if tc.warmed == 0 {
			wait = 300 * time.Millisecond
		}
		deadline := time.Now().Add(wait)
		for time.Now().Before(deadline) && (tc.warmed == 0 || p.Stat().IdleConns() == 0) {
			time.Sleep(10 * time.Millisecond)
		}
		if tc.warmed > 0 && p.Stat().IdleConns() == 0 {
			t.Fatalf("max_connections %d: no warmed connection after %v", tc.maxConns, wait)
		}
		if got := c.ConnectionsOpened(); got != tc.warmed {
			t.Errorf("max_connections %d: the warm-up opened %d connections, want %d", tc.maxConns, got, tc.warmed)
		}
		for i := 0; i < 3; i++ {
			if err := readOne(ctx, c); err != nil {
				t.Fatalf("max_connections %d: %v", tc.maxConns, err)
			}
		}
		if got := c.ConnectionsOpened(); got != 1 {
			t.Errorf("max_connections %d: three reads after the warm-up opened %d connections in all, want 1", tc.maxConns, got)
		}
	}
}

func TestClientUnknownArgumentsNeverConnect(t *testing.T) {
	c := NewClient(Config{Host: "", Unknown: []string{"host"}})
	_, err := c.Pool(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "host") {
		t.Fatalf("expected an error naming host, got %v", err)
	}
	if c.ConnectionsOpened() != 0 {
		t.Fatal("connected with an unknown host")
	}
}

// Read and ReadTx, what refresh, plan and data sources use, cannot write.
func TestAccClient_readPathsAreReadOnly(t *testing.T) {
	c := testClient(t, 0, "")
	ctx := context.Background()
	role := acctest.RandName("ro")
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+QuoteIdent(role)) })
	// (PostgreSQL lets txid_current() assign an XID even in a READ ONLY
	// transaction; the statement-log check of the lock test looks for it.)
	for _, stmt := range []string{"CREATE ROLE " + QuoteIdent(role), "SELECT 1 FROM pg_namespace FOR UPDATE"} {
		err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			_, err := q.Exec(ctx, stmt)
			return err
		})
		if SQLState(err) != "25006" { // read_only_sql_transaction
			t.Errorf("Read: %s: err = %v, want read_only_sql_transaction", stmt, err)
		}
		err = c.ReadTx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
			_, err := tx.Exec(ctx, stmt)
			return err
		})
		if SQLState(err) != "25006" {
			t.Errorf("ReadTx: %s: err = %v, want read_only_sql_transaction", stmt, err)
		}
	}
	// and the read-write paths still write
	if err := c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, "CREATE ROLE "+QuoteIdent(role))
		return err
	}); err != nil {
		t.Errorf("Do: %v", err)
	}
}

// The read-only and read-write pools of one database share the connection
// bound, and one waiting for a permit frees the other's idle connection
// instead of waiting for it to expire. Idle connections here live for ten
// minutes, so a pool that waited for expiry would miss each call's deadline
// by far (no timing threshold that a loaded machine could cross).
func TestAccClient_readAndWritePoolsShareTheBound(t *testing.T) {
	c := testClient(t, 1, acctest.RandName("rwro"))
	c.cfg.MaxConnIdleTime = 10 * time.Minute
	call := func(f func(context.Context, string, func(context.Context, Querier) error) error, what string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := f(ctx, "", func(ctx context.Context, q Querier) error { _, err := q.Exec(ctx, "SELECT 1"); return err }); err != nil {
			t.Fatalf("%s: %v (a pool waited for the other's idle connection to expire)", what, err)
		}
	}
	for i := 0; i < 5; i++ {
		call(c.Read, "Read")
		call(c.Do, "Do")
	}
	if n := c.MaxConnectionsOpenAtOnce(); n > 1 {
		t.Errorf("%d connections open at once, max_connections = 1", n)
	}
}

// readOne runs one catalog read on a read-only connection, as a resource's Read does.
func readOne(ctx context.Context, c *Client) error {
	return c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var one int
		return q.QueryRow(ctx, "SELECT 1").Scan(&one)
	})
}
