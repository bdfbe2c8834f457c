package pg

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// OwnershipObjectTypes are the object types postgresql_object_owner gives
// an owner (ALTER <type> ... OWNER TO), in ALTER's spelling (lower case).
var OwnershipObjectTypes = []string{
	"table", "view", "materialized view", "sequence", "foreign table",
	"type", "domain", "function", "procedure", "routine",
	"collation", "conversion", "text search dictionary", "text search configuration",
	"schema", "database", "tablespace", "language", "publication", "subscription", "server", "event trigger", "large object",
}

// OwnershipUnqualifiedObjectTypes are the types of OwnershipObjectTypes whose
// objects belong to no schema.
var OwnershipUnqualifiedObjectTypes = []string{
	"schema", "database", "tablespace", "language", "publication", "subscription", "server", "event trigger", "large object",
}

// ReadObjectOwner returns the owner of the target in database db; found is
// false when the object (or its schema or database) does not exist.
func (c *Client) ReadObjectOwner(ctx context.Context, db string, t ObjectTarget) (owner string, found bool, err error) {
	err = c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		classID, objID, _, ok, err := t.address(ctx, tx)
		if err != nil || !ok {
			return err
		}
		if owner, err = objectOwner(ctx, tx, classID, objID); err != nil {
			return fmt.Errorf("reading the owner of %s: %w", t.SQL(), err)
		}
		found = owner != ""
		return nil
	})
	return owner, found, err
}

// SetObjectOwner makes role the owner of the target in database db (ALTER
// ... OWNER TO), in one transaction. PostgreSQL allows it to a role that is
// a member of the current owner and may SET ROLE to the new one: a provider
// role that is neither borrows both roles' privileges for the statement
// (borrow.go). The new owner needs what PostgreSQL asks of an owner (CREATE
// on the object's schema, CREATEDB's holder for a database).
func (c *Client) SetObjectOwner(ctx context.Context, db string, t ObjectTarget, role string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		classID, objID, _, found, err := t.address(ctx, tx)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("%s does not exist in database %q", t.SQL(), db)
		}
		cur, err := objectOwner(ctx, tx, classID, objID)
		if err != nil {
			return err
		}
		if cur == role {
			return nil
		}
		return withRoles(ctx, tx, []string{cur, role}, func() error {
			_, err := tx.Exec(ctx, "ALTER "+t.SQL()+" OWNER TO "+pgconn.QuoteIdent(role))
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("making %s the owner of %s: %w", pgconn.QuoteIdent(role), t.SQL(), err)
	}
	return nil
}
