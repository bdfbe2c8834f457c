package acctest

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// QI quotes an identifier for SQL written by tests.
func QI(name string) string { return pgx.Identifier{name}.Sanitize() }

// QQ quotes a schema-qualified name for SQL written by tests.
func QQ(schema, name string) string { return pgx.Identifier{schema, name}.Sanitize() }

// OwnerRole creates a NOLOGIN role that owns test objects and drops it, with
// everything it owns or was granted, when the test ends. The admin of the mode
// creates it, as an application role on a managed service is created by its
// admin; the managed admin is not a member of it (on PostgreSQL 16+ it holds
// only the ADMIN OPTION that CREATE ROLE gives its creator). For a role the
// admin did not create, see ForeignOwnerRole.
func OwnerRole(t *testing.T, name string, dbs ...string) {
	t.Helper()
	AdminExec(t, "", "CREATE ROLE "+QI(name)+" NOLOGIN")
	dropRoleAtCleanup(t, name, dbs)
}

// ForeignOwnerRole creates a NOLOGIN role as the superuser: a role the managed
// admin did not create and (on PostgreSQL 16+) cannot manage. It is dropped,
// with everything it owns or was granted, when the test ends.
func ForeignOwnerRole(t *testing.T, name string, dbs ...string) {
	t.Helper()
	Exec(t, "", "CREATE ROLE "+QI(name)+" NOLOGIN")
	dropRoleAtCleanup(t, name, dbs)
}

func dropRoleAtCleanup(t *testing.T, name string, dbs []string) {
	t.Cleanup(func() {
		for _, db := range dbs {
			Exec(t, db, "DROP OWNED BY "+QI(name)+" CASCADE")
		}
		Exec(t, "", "DROP OWNED BY "+QI(name)+" CASCADE", "DROP ROLE IF EXISTS "+QI(name))
	})
}

// Database creates a database owned by owner and drops it (forcing out
// connections) when the test ends; register it after OwnerRole so it is
// dropped first.
func Database(t *testing.T, name, owner string) {
	t.Helper()
	Exec(t, "", "CREATE DATABASE "+QI(name)+" OWNER "+QI(owner))
	t.Cleanup(func() { dropDatabase(t, name) })
}
