package acctest

import (
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// quoteIdent quotes an identifier (this package cannot import internal/pg,
// whose own tests import it).
func quoteIdent(s string) string { return pgx.Identifier{s}.Sanitize() }

// TempOwnedDatabase creates database name (as the superuser) for one test and drops
// it when the test ends. When owned is true the database is owned by the
// provider's admin role and gets a schema "s" owned by it, so both admin modes
// can create objects there.
func TempOwnedDatabase(t *testing.T, name string) {
	t.Helper()
	Exec(t, "", "CREATE DATABASE "+quoteIdent(name)+" OWNER "+quoteIdent(AdminUser()))
	t.Cleanup(func() {
		Exec(t, "", "DROP DATABASE IF EXISTS "+quoteIdent(name)+" WITH (FORCE)")
	})
}

// Conninfo is a libpq connection string to database db on the test cluster as
// the superuser (for subscriptions).
func Conninfo(db string) string {
	user := os.Getenv("PGTF_SUPERUSER")
	pass := os.Getenv("PGTF_SUPERUSER_PASSWORD")
	if user == "" {
		user, pass = os.Getenv("PGUSER"), os.Getenv("PGPASSWORD")
	}
	return "host=" + os.Getenv("PGHOST") + " port=" + os.Getenv("PGPORT") + " dbname=" + db + " user=" + user + " password=" + pass
}
