package acctest

import (
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// Conninfo is a libpq connection string to database db on the test cluster as
// the superuser (for subscriptions).
func Conninfo(db string) string {
	user, pass := superUser(), superPassword()
	return "host=" + os.Getenv("PGHOST") + " port=" + os.Getenv("PGPORT") + " dbname=" + db + " user=" + user + " password=" + pass
}

// CheckGone returns a CheckDestroy function that fails while any of names
// still exists in database db ("" for the default one): existsQuery answers
// whether the object named $1 exists, and what names its kind in the error.
func CheckGone(t *testing.T, db, what, existsQuery string, names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, n := range names {
			if QueryBool(t, db, existsQuery, n) {
				return fmt.Errorf("%s %q still exists in database %q", what, n, db)
			}
		}
		return nil
	}
}
