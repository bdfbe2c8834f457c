package acctest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// HoldSessionAs opens a session to database db ("" = postgres) as user with
// password (application_name "pgtf-acctest") and keeps it until the end of the
// test; its backend PID is returned. The session may be terminated meanwhile:
// closing it then is harmless. For tests that terminate sessions.
func HoldSessionAs(t *testing.T, db, user, password string) int32 {
	t.Helper()
	conn := connectAs(t, db, user, password)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = conn.Close(ctx)
	})
	return int32(conn.PgConn().PID())
}

// SessionAlive reports whether the backend with PID pid is still in pg_stat_activity.
func SessionAlive(t *testing.T, pid int32) bool {
	t.Helper()
	return QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)", pid)
}

// ConnectAs opens a session to database db ("" = postgres) as user with
// password (application_name "pgtf-acctest") and closes it when the test ends
// (closing it earlier is harmless). For tests that act as an application role.
func ConnectAs(t *testing.T, db, user, password string) *pgx.Conn {
	t.Helper()
	conn := connectAs(t, db, user, password)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = conn.Close(ctx)
	})
	return conn
}
