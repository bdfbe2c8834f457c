package pg

import (
	"context"
	"fmt"
	"slices"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// DatabaseOwnerRole is the predefined role pg_database_owner (PostgreSQL 14
// and later), the owner of schema public in every database created from
// PostgreSQL 15's template1. Its one member in a database is, implicitly, the
// database's owner; PostgreSQL refuses to give it explicit members ("cannot
// have explicit members"), so no role can borrow its privileges by
// membership. They are the privileges of the current database's owner, which
// a managed admin borrows like any role it manages: every borrowing resolves
// the role here, in borrowRoles (which all borrowers go through) and in
// ownersToJoin (grants and default privileges, which also check beforehand
// whether the owner can be borrowed).
const DatabaseOwnerRole = "pg_database_owner"

// lender is the role whose privileges a borrower takes for an owner.
type lender struct {
	oid   uint32
	name  string
	super bool
}

// currentDatabaseOwner returns the owner of the database q is connected to:
// the role pg_database_owner stands for there.
func currentDatabaseOwner(ctx context.Context, q Querier) (lender, error) {
	var l lender
	err := q.QueryRow(ctx, `SELECT r.oid, r.rolname, r.rolsuper FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba
WHERE d.datname = current_database()`).Scan(&l.oid, &l.name, &l.super)
	if err != nil {
		return l, fmt.Errorf("reading the owner of the current database (the role %s stands for): %w", pgconn.QuoteIdent(DatabaseOwnerRole), err)
	}
	return l, nil
}

// resolveLenders returns roles with pg_database_owner replaced by the owner of
// the current database (asked only when roles name it).
func resolveLenders(ctx context.Context, q Querier, roles []string) ([]string, error) {
	i := slices.Index(roles, DatabaseOwnerRole)
	if i < 0 {
		return roles, nil
	}
	dbo, err := currentDatabaseOwner(ctx, q)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(roles)
	for ; i < len(out); i++ {
		if out[i] == DatabaseOwnerRole {
			out[i] = dbo.name
		}
	}
	return out, nil
}

// createLender is the role whose privileges a statement that needs CREATE on
// the current database (CREATE SCHEMA, ALTER SCHEMA ... RENAME or OWNER TO)
// borrows: pg_database_owner, that is the database's owner, when the
// connected role lacks CREATE there (a managed admin in a database it made
// for an application role); "" when it has it.
func createLender(ctx context.Context, q Querier) (string, error) {
	var ok bool
	if err := q.QueryRow(ctx, "SELECT has_database_privilege(current_database(), 'CREATE')").Scan(&ok); err != nil {
		return "", fmt.Errorf("checking the privilege CREATE on the current database: %w", err)
	}
	if ok {
		return "", nil
	}
	return DatabaseOwnerRole, nil
}
