package acctest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DatabaseExists reports whether database name exists (asked as the superuser).
func DatabaseExists(t *testing.T, name string) bool {
	t.Helper()
	return QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", name)
}

// CheckDatabasesGone is a CheckDestroy verifying that none of the databases exists.
func CheckDatabasesGone(t *testing.T, names ...string) error {
	t.Helper()
	for _, n := range names {
		if DatabaseExists(t, n) {
			return fmt.Errorf("database %q still exists", n)
		}
	}
	return nil
}

// DropDatabaseFunc returns a PreConfig function dropping a database out of band
// (disconnecting its sessions).
func DropDatabaseFunc(t *testing.T, name string) func() {
	return func() {
		dropDatabase(t, name)
	}
}

// dropDatabase drops database name if it exists, even when it is a template
// or has sessions (they are disconnected).
func dropDatabase(t *testing.T, name string) {
	t.Helper()
	if DatabaseExists(t, name) {
		Exec(t, "", "ALTER DATABASE "+QI(name)+" WITH IS_TEMPLATE false", "DROP DATABASE "+QI(name)+" WITH (FORCE)")
	}
}

// HoldConnectionFunc returns a PreConfig function opening a session to database
// db as the provider's role (application_name "tfacc-holder") and keeping it
// open until the end of the test, to test drops with connected sessions.
func HoldConnectionFunc(t *testing.T, db string) func() {
	return func() { HoldConnection(t, db) }
}

// HoldConnection opens a session to database db as the provider's role
// (application_name "tfacc-holder") and returns a function closing it; it is
// closed at the end of the test at the latest.
func HoldConnection(t *testing.T, db string) (release func()) {
	t.Helper()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s sslmode=disable application_name=tfacc-holder", os.Getenv("PGHOST"), os.Getenv("PGPORT")))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database, cfg.User, cfg.Password = db, os.Getenv("PGUSER"), os.Getenv("PGPASSWORD")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("holding a connection to %q: %v", db, err)
	}
	release = func() { _ = conn.Close(context.Background()) }
	t.Cleanup(release)
	return release
}
