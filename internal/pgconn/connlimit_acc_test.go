package pgconn

import (
	"context"
	"errors"
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

// limitedLogin creates a login role that is not a superuser (PostgreSQL
// holds superusers to no connection limit), with connection limit roleLimit
// (-1: none), and a database with connection limit dbLimit it may connect to.
// Both are dropped when the test ends.
func limitedLogin(t *testing.T, roleLimit, dbLimit int) (role, password, db string) {
	t.Helper()
	acctest.PreCheck(t)
	role, db = acctest.RandName("limited"), acctest.RandName("limited_db")
	password = "pw-" + acctest.RandName("x")
	acctest.Exec(t, "",
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s' CONNECTION LIMIT %d", acctest.QI(role), password, roleLimit),
		fmt.Sprintf("CREATE DATABASE %s CONNECTION LIMIT %d", acctest.QI(db), dbLimit))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+acctest.QI(db)+" WITH (FORCE)", "DROP ROLE IF EXISTS "+acctest.QI(role))
	})
	return role, password, db
}

func clientAs(t *testing.T, role, password string, retry time.Duration, app string) *Client {
	t.Helper()
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := NewClient(Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres", Username: role, Password: password,
		SSLMode: "disable", ConnectTimeout: 10 * time.Second, MaxRetryDuration: retry, ApplicationName: app,
	})
	t.Cleanup(c.Close)
	return c
}

// holdSession opens a session to database db as role and returns the
// function closing it (also closed when the test ends).
func holdSession(t *testing.T, role, password, db string) func() {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s sslmode=disable application_name=tfacc-holder", os.Getenv("PGHOST"), os.Getenv("PGPORT")))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database, cfg.User, cfg.Password = db, role, password
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release := func() { once.Do(func() { _ = conn.Close(context.Background()) }) }
	t.Cleanup(release)
	return release
}

// A connection refused because the database's connection limit is reached
// (by another client here) is retried with backoff until a session ends, and
// once max_retry_duration has passed the error says what limit refused it and
// what to do. (Issue 31: with connection_limit = 10 on a database and a
// non-superuser admin, applies and destroys failed with "too many
// connections" at once.)
func TestAccClient_regressionTooManyConnectionsRetried(t *testing.T) {
	role, password, db := limitedLogin(t, -1, 1)
	ctx := context.Background()

	release := holdSession(t, role, password, db)
	c := clientAs(t, role, password, 30*time.Second, "")
	if _, err := c.Capabilities(ctx); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(1500 * time.Millisecond); release() }()
	start := time.Now()
	var one int
	if err := c.Read(ctx, db, func(ctx context.Context, q Querier) error { return q.QueryRow(ctx, "SELECT 1").Scan(&one) }); err != nil {
		t.Fatalf("the read was not retried until the other session ended: %v", err)
	}
	if c.Retries() == 0 || time.Since(start) < time.Second {
		t.Fatalf("the read succeeded after %s with %d retries: the database's only session was taken", time.Since(start), c.Retries())
	}
	t.Logf("read after %s and %d retries", time.Since(start), c.Retries())
	c.Close()

	// the backend of the closed session may take a moment to exit
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if acctest.QueryBool(t, "", "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1)", db) {
			break
		}
	}
	holdSession(t, role, password, db)
	c = clientAs(t, role, password, time.Second, "")
	start = time.Now()
	err := c.Do(ctx, db, func(ctx context.Context, q Querier) error { _, err := q.Exec(ctx, "SELECT 1"); return err })
	var tooMany *TooManyConnectionsError
	if !errors.As(err, &tooMany) || SQLState(err) != CodeTooManyConnections {
		t.Fatalf("want a TooManyConnectionsError, got %T: %v", err, err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Fatalf("gave up after %s with max_retry_duration 1s", elapsed)
	}
	for _, want := range []string{"too many connections for database", "1s (max_retry_duration)", "-parallelism"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// Many concurrent reads and writes in a database with a small connection
// limit, by a role with a small connection limit of its own, all succeed:
// the client keeps its sessions within both limits (and retries the odd
// refusal of a backend that had not yet exited).
func TestAccClient_regressionDatabaseConnectionLimitRespected(t *testing.T) {
	const roleLimit, dbLimit = 3, 2
	role, password, db := limitedLogin(t, roleLimit, dbLimit)
	app := acctest.RandName("connlimit")
	c := clientAs(t, role, password, 0, app)
	ctx := context.Background()
	stop := make(chan struct{})
	var mu sync.Mutex
	maxDB, maxRole := 0, 0
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			var inDB, all int
			row := acctest.QueryString(t, "", `SELECT count(*) FILTER (WHERE datname = $1) || ' ' || count(*) FROM pg_stat_activity WHERE application_name = $2`, db, app)
			if _, err := fmt.Sscan(row, &inDB, &all); err == nil {
				mu.Lock()
				maxDB, maxRole = max(maxDB, inDB), max(maxRole, all)
				mu.Unlock()
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 80)
	for i := 0; i < 80; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			target := db
			if i%4 == 3 {
				target = "" // the provider's database: the role's limit is shared with it
			}
			sleep := func(ctx context.Context, q Querier) error {
				_, err := q.Exec(ctx, "SELECT pg_sleep(0.02)")
				return err
			}
			if i%2 == 0 {
				errs <- c.Do(ctx, target, sleep)
			} else {
				errs <- c.Read(ctx, target, sleep)
			}
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
	// The server's view lags: a closed connection's backend may still be
	// exiting when the next one arrives, so allow one in flight.
	if maxDB > dbLimit+1 || maxRole > roleLimit+1 {
		t.Fatalf("saw %d sessions in the database (limit %d) and %d of the role (limit %d) at once", maxDB, dbLimit, maxRole, roleLimit)
	}
	if n := c.MaxConnectionsOpenAtOnce(); n > roleLimit {
		t.Fatalf("the client held %d connections at once, the role's limit is %d", n, roleLimit)
	}
	t.Logf("at most %d sessions in the database, %d of the role; %d connections opened, %d retries", maxDB, maxRole, c.ConnectionsOpened(), c.Retries())
}
