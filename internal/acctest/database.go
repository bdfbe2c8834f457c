package acctest

import (
	"fmt"
	"testing"
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
		if DatabaseExists(t, name) {
			Exec(t, "", "ALTER DATABASE "+quoteIdent(name)+" WITH IS_TEMPLATE false", "DROP DATABASE "+quoteIdent(name)+" WITH (FORCE)")
		}
	}
}

func quoteIdent(s string) string {
	out := `"`
	for _, r := range s {
		if r == '"' {
			out += `""`
		} else {
			out += string(r)
		}
	}
	return out + `"`
}
