package acctest

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// TempDatabase creates database name (as the superuser) for one test and drops
// it when the test ends. When owned is true the database is owned by the
// provider's admin role and gets a schema "s" owned by it, so both admin modes
// can create objects there.
func TempDatabase(t *testing.T, name string) {
	t.Helper()
	Exec(t, "", "CREATE DATABASE "+pg.QuoteIdent(name)+" OWNER "+pg.QuoteIdent(AdminUser()))
	t.Cleanup(func() {
		Exec(t, "", "DROP DATABASE IF EXISTS "+pg.QuoteIdent(name)+" WITH (FORCE)")
	})
}

// Client returns a pg.Client connected like the provider under test (PG* environment).
func Client(t *testing.T) *pg.Client {
	t.Helper()
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := pg.NewClient(pg.Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres",
		Username: os.Getenv("PGUSER"), Password: os.Getenv("PGPASSWORD"),
		SSLMode: "disable", ConnectTimeout: 15 * time.Second, Superuser: os.Getenv("PGSUPERUSER") == "true",
	})
	t.Cleanup(c.Close)
	return c
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
