package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// lendDatabaseOwner is every client's pgconn.ConnectLender: the server
// refused the provider's role a connection to database db for want of
// CONNECT. A managed administrator reaches a database whose PUBLIC has no
// CONNECT through the privileges of the database's owner (a membership it
// took when it created the database or gave it away); when the database is
// given to another role outside Terraform, it needs that role's privileges
// instead. When take is set (a write), the role takes them, as any
// borrowing outside a transaction does: a lasting membership, on the
// default database's dedicated connection (borrowRoles); it reports whether
// it did. Otherwise (a read: plan and refresh change nothing) it only reports
// whether it could.
func lendDatabaseOwner(ctx context.Context, c *pgconn.Client, db string, take bool) (bool, error) {
	var owner string
	var can bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		err := q.QueryRow(ctx, `SELECT pg_catalog.pg_get_userbyid(datdba) FROM pg_catalog.pg_database WHERE datname = $1`, db).Scan(&owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // gone: the statement fails with its own error
		}
		if err != nil {
			return err
		}
		m, err := checkMembership(ctx, q, owner)
		if err != nil {
			return err
		}
		s, _ := decide(m, false)
		can = s == stepTake && m.canGrant || s == stepCatchUp
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("looking up the owner of database %s: %w", pgconn.QuoteIdent(db), err)
	}
	if !can || !take {
		return can, nil
	}
	err = c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
		_, err := borrowRoles(ctx, conn, owner)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("taking the privileges of role %s, the owner of database %s, to connect to it: %w",
			pgconn.QuoteIdent(owner), pgconn.QuoteIdent(db), err)
	}
	return true, nil
}
