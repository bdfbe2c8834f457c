// Package acctest holds what acceptance tests share: the test cluster's
// connection settings, the admin mode, random names, and SQL helpers that make
// drift behind the provider's back (always as the superuser).
package acctest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Admin modes of the acceptance suite (PGTF_ADMIN_MODE).
const (
	ModeSuperuser = "superuser"
	ModeManaged   = "managed"
)

// Mode is the admin mode the provider under test runs in.
func Mode() string {
	if os.Getenv("PGTF_ADMIN_MODE") == ModeManaged {
		return ModeManaged
	}
	return ModeSuperuser
}

// Managed reports whether the provider connects as a non-superuser admin
// (CREATEROLE CREATEDB), as on AWS RDS, Cloud SQL or Azure.
func Managed() bool { return Mode() == ModeManaged }

// ManagedProfile names the managed service whose permission model the test
// cluster emulates (scripts/testdb: "cloudsql"); "" for a cluster set up
// otherwise.
func ManagedProfile() string { return os.Getenv("PGTF_MANAGED_PROFILE") }

// ManagedGroup is the group role of the managed admin in the cluster's
// profile (Cloud SQL's cloudsqlsuperuser), which owns the databases postgres
// and template1 and, before PostgreSQL 15, their schema public; "" when the
// cluster has none.
func ManagedGroup() string { return os.Getenv("PGTF_MANAGED_GROUP") }

// SkipIfManaged skips a test that PostgreSQL only allows a superuser to run.
func SkipIfManaged(t *testing.T, why string) {
	t.Helper()
	if Managed() {
		t.Skip("needs superuser: " + why)
	}
}

// PreCheck skips the test when acceptance tests are off (TF_ACC unset, as in
// make testunit) and fails early when the acceptance environment is incomplete.
func PreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	for _, v := range []string{"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD"} {
		if os.Getenv(v) == "" {
			t.Fatalf("%s must be set for acceptance tests: run them through `make testacc` (scripts/testdb starts a throwaway cluster)", v)
		}
	}
}

// AdminUser is the role the provider under test connects as.
func AdminUser() string { return os.Getenv("PGUSER") }

// DefaultDatabase is the provider's database in tests (PGDATABASE, default "postgres").
func DefaultDatabase() string {
	if db := os.Getenv("PGDATABASE"); db != "" {
		return db
	}
	return "postgres"
}

// RandName returns a random object name with a recognisable prefix.
func RandName(prefix string) string {
	return acctest.RandomWithPrefix("tfacc_" + prefix)
}

// ProviderBlock is the provider configuration for tests: everything comes
// from the environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSSLMODE, PGSUPERUSER).
const ProviderBlock = `
provider "postgresql" {}
`

// Config prefixes a test configuration with the provider block.
func Config(format string, args ...any) string {
	return ProviderBlock + fmt.Sprintf(format, args...)
}

// SuperConn opens a superuser connection to database db ("" = postgres).
func SuperConn(t *testing.T, db string) *pgx.Conn {
	t.Helper()
	return connectAs(t, db, superUser(), superPassword())
}

// AdminConn opens a connection as the admin of the current mode (the role the
// provider under test connects as) to database db ("" = postgres).
func AdminConn(t *testing.T, db string) *pgx.Conn {
	t.Helper()
	return connectAs(t, db, os.Getenv("PGUSER"), os.Getenv("PGPASSWORD"))
}

func connectAs(t *testing.T, db, user, pass string) *pgx.Conn {
	t.Helper()
	if db == "" {
		db = "postgres"
	}
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s dbname='%s' user='%s' sslmode=disable",
		os.Getenv("PGHOST"), os.Getenv("PGPORT"), strings.ReplaceAll(db, "'", `\'`), strings.ReplaceAll(user, "'", `\'`)))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Password = pass
	cfg.RuntimeParams["application_name"] = "pgtf-acctest"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connecting as %q to %q: %v", user, db, err)
	}
	return conn
}

// Sessions of the SQL helpers below in database postgres, where most setup
// and drift SQL runs, come from a pool per role that lives as long as the test
// binary: a new session is a backend start, ~50 ms of server CPU on a small
// test machine, and these helpers would otherwise start about 450 per pass.
// A session goes back to the pool only when it is idle outside a transaction,
// after its settings and role are reset; any other database gets a session of
// its own, closed after use (a pooled session would keep tests from dropping it).
var (
	helperPoolsMu sync.Mutex
	helperPools   = map[string]*pgxpool.Pool{}
)

func helperPool(t *testing.T, user, pass string) *pgxpool.Pool {
	t.Helper()
	helperPoolsMu.Lock()
	defer helperPoolsMu.Unlock()
	key := user + "\x00" + pass
	if p, ok := helperPools[key]; ok {
		return p
	}
	cfg, err := pgxpool.ParseConfig(fmt.Sprintf("host=%s port=%s dbname=postgres sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT")))
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.User, cfg.ConnConfig.Password = user, pass
	cfg.ConnConfig.RuntimeParams["application_name"] = "pgtf-acctest"
	cfg.MaxConns = 8
	cfg.MaxConnIdleTime = time.Minute
	p, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	helperPools[key] = p
	return p
}

// withSession runs f on a session as user in database db ("" = postgres).
func withSession(t *testing.T, db, user, pass string, f func(*pgx.Conn)) {
	t.Helper()
	if db != "" && db != "postgres" {
		conn := connectAs(t, db, user, pass)
		defer conn.Close(context.Background())
		f(conn)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := helperPool(t, user, pass).Acquire(ctx)
	if err != nil {
		t.Fatalf("connecting as %q to postgres: %v", user, err)
	}
	defer func() {
		// f may have failed the test half-way (runtime.Goexit): keep the
		// session only if it is idle and its role and settings reset cleanly
		conn := c.Conn()
		if conn.PgConn().TxStatus() != 'I' {
			_ = conn.Close(context.Background())
		} else if _, err := conn.Exec(context.Background(), "RESET SESSION AUTHORIZATION; RESET ROLE; RESET ALL"); err != nil {
			_ = conn.Close(context.Background())
		}
		c.Release()
	}()
	f(c.Conn())
}

// Exec runs statements as the superuser in database db; for drift steps and setup.
func Exec(t *testing.T, db string, stmts ...string) {
	t.Helper()
	withSession(t, db, superUser(), superPassword(), func(conn *pgx.Conn) { execOn(t, conn, stmts) })
}

// AdminExec runs statements as the admin of the current mode: setup that a
// managed admin would have done itself (roles it created, so that on
// PostgreSQL 16+ it holds ADMIN OPTION on them).
func AdminExec(t *testing.T, db string, stmts ...string) {
	t.Helper()
	withSession(t, db, os.Getenv("PGUSER"), os.Getenv("PGPASSWORD"), func(conn *pgx.Conn) { execOn(t, conn, stmts) })
}

func execOn(t *testing.T, conn *pgx.Conn, stmts []string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := conn.Exec(context.Background(), s); err != nil {
			t.Fatalf("executing %q: %v", s, err)
		}
	}
}

// ExecFunc returns a PreConfig function running statements as the superuser.
func ExecFunc(t *testing.T, db string, stmts ...string) func() {
	return func() { Exec(t, db, stmts...) }
}

// QueryString runs a query returning one text value as the superuser.
func QueryString(t *testing.T, db, query string, args ...any) string {
	t.Helper()
	return queryRow[string](t, db, query, args...)
}

// QueryBool runs a query returning one boolean as the superuser.
func QueryBool(t *testing.T, db, query string, args ...any) bool {
	t.Helper()
	return queryRow[bool](t, db, query, args...)
}

// queryRow runs a query returning one value as the superuser.
func queryRow[T any](t *testing.T, db, query string, args ...any) T {
	t.Helper()
	var v T
	withSession(t, db, superUser(), superPassword(), func(conn *pgx.Conn) {
		if err := conn.QueryRow(context.Background(), query, args...).Scan(&v); err != nil {
			t.Fatalf("query %q: %v", query, err)
		}
	})
	return v
}

// QuoteHCL renders s as an HCL string literal (escapes quotes, backslashes and
// template sequences), for names with unusual characters.
func QuoteHCL(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "${", "$${", "%{", "%%{", "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// CheckLogin verifies that role can log in with password and that the
// plaintext never reached the server log (when the test cluster logs statements).
func CheckLogin(t *testing.T, role, password string) error {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s dbname=postgres sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT")))
	if err != nil {
		return err
	}
	cfg.User, cfg.Password = role, password
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("role %q cannot log in with its password: %w", role, err)
	}
	_ = conn.Close(ctx)
	if logPath := os.Getenv("PGTF_SERVER_LOG"); logPath != "" {
		if b, err := os.ReadFile(logPath); err == nil && strings.Contains(string(b), password) {
			return fmt.Errorf("the plaintext password of %q appears in the server log %s", role, logPath)
		}
	}
	return nil
}

// StateDoesNotContain fails when secret appears anywhere in the state's attributes.
func StateDoesNotContain(s *terraform.State, secret string) error {
	for _, m := range s.Modules {
		for addr, r := range m.Resources {
			if r.Primary == nil {
				continue
			}
			for k, v := range r.Primary.Attributes {
				if strings.Contains(v, secret) {
					return fmt.Errorf("%s.%s holds a secret value", addr, k)
				}
			}
		}
	}
	return nil
}

// ServerMajor is the major version of the test cluster (13 to 18).
func ServerMajor(t *testing.T) int {
	t.Helper()
	PreCheck(t)
	var n int
	conn := SuperConn(t, "")
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), "SELECT current_setting('server_version_num')::int / 10000").Scan(&n); err != nil {
		t.Fatalf("reading the server version: %v", err)
	}
	return n
}

// SkipBelow skips a test that concerns PostgreSQL major versions from min on.
func SkipBelow(t *testing.T, from int, why string) {
	t.Helper()
	if v := ServerMajor(t); v < from {
		t.Skipf("PostgreSQL %d: %s (from PostgreSQL %d on)", v, why, from)
	}
}

// SkipFrom skips a test that concerns PostgreSQL major versions before max.
func SkipFrom(t *testing.T, until int, why string) {
	t.Helper()
	if v := ServerMajor(t); v >= until {
		t.Skipf("PostgreSQL %d: %s (before PostgreSQL %d only)", v, why, until)
	}
}
