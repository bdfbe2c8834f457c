package acctest

import (
	"testing"
)

// TempDatabase creates a database named name owned by the superuser, runs stmts in
// it, and drops it (WITH (FORCE), closing the provider's pooled connections)
// when the test ends. Call it from PreCheck, so it only runs for acceptance tests.
func TempDatabase(t *testing.T, name string, stmts ...string) {
	t.Helper()
	Database(t, name, superUser())
	Exec(t, name, stmts...)
}

// FDWSetup is what a managed service does for postgres_fdw and file_fdw: the
// extensions exist and every role may use the wrappers (CREATE SERVER needs
// USAGE on the wrapper, and so does a new owner of a server).
var FDWSetup = []string{
	"CREATE EXTENSION postgres_fdw",
	"CREATE EXTENSION file_fdw",
	"GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO PUBLIC",
	"GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO PUBLIC",
}
