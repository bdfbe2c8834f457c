package acctest

import (
	"os"
)

// Conninfo is a libpq connection string to database db on the test cluster as
// the superuser (for subscriptions).
func Conninfo(db string) string {
	user, pass := superUser(), superPassword()
	return "host=" + os.Getenv("PGHOST") + " port=" + os.Getenv("PGPORT") + " dbname=" + db + " user=" + user + " password=" + pass
}
