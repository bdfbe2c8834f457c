package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// CommentObjectTypes are the object types postgresql_comment supports, as
// COMMENT ON spells them (lower case).
var CommentObjectTypes = []string{
	"table", "view", "materialized view", "sequence", "foreign table", "index", "column",
	"type", "domain", "function", "procedure", "routine",
	"schema", "role", "database", "tablespace", "extension", "event trigger", "publication", "subscription", "language",
}

// Comment is the comment of one object.
type Comment struct {
	Text string
	OID  uint32 // the object's (to record: ObjectTarget.OID)
}

// ReadComment returns the comment of the target in database db (comments of
// roles, databases and tablespaces are cluster-wide: pg_shdescription), or
// nil when the object or its comment does not exist. A role, database or
// schema renamed since its OID was recorded is followed (ObjectTarget.OID).
func (c *Client) ReadComment(ctx context.Context, db string, t ObjectTarget) (*Comment, error) {
	var out *Comment
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		t, err := t.followed(ctx, tx)
		if err != nil {
			return err
		}
		classID, objID, subID, found, err := t.address(ctx, tx)
		if err != nil || !found {
			return err
		}
		var text string
		err = tx.QueryRow(ctx, `
SELECT description FROM pg_description WHERE classoid = $1 AND objoid = $2 AND objsubid = $3
UNION ALL
SELECT description FROM pg_shdescription WHERE classoid = $1 AND objoid = $2`, classID, objID, subID).Scan(&text)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the comment of %s: %w", t.SQL(), err)
		}
		out = &Comment{Text: text, OID: objID}
		return nil
	})
	return out, err
}

// SetComment sets the comment of the target (it creates and updates a
// postgresql_comment). COMMENT ON needs ownership of the object (CREATEROLE
// for a role): a role that is not the owner borrows the owner's privileges
// (borrow.go). An empty text would remove the comment.
func (c *Client) SetComment(ctx context.Context, db string, t ObjectTarget, text string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "COMMENT ON " + t.SQL() + " IS " + pgconn.QuoteLiteral(text)
		classID, objID, _, found, err := t.address(ctx, tx)
		if err != nil {
			return err
		}
		owner := ""
		if found {
			if owner, err = objectOwner(ctx, tx, classID, objID); err != nil {
				return err
			}
		}
		// a missing object: COMMENT says so in its own words
		return withRoles(ctx, tx, []string{owner}, func() error {
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("setting the comment of %s: %w", t.SQL(), err)
	}
	return nil
}

// DropComment removes the comment of the target (COMMENT ON ... IS NULL),
// following a role, database or schema renamed since its OID was recorded
// (ObjectTarget.OID). A missing object or database is no error.
func (c *Client) DropComment(ctx context.Context, db string, t ObjectTarget) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		t, err := t.followed(ctx, tx)
		if err != nil {
			return err
		}
		classID, objID, _, found, err := t.address(ctx, tx)
		if err != nil || !found {
			return err
		}
		owner, err := objectOwner(ctx, tx, classID, objID)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			// the object (a role dropped in the same apply) may be dropped
			// meanwhile by another session, and its comment with it (revoke.go)
			_, err := revokeStatement(ctx, tx, t.gone, "COMMENT ON "+t.SQL()+" IS NULL")
			return err
		})
	})
	if err != nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("removing the comment of %s: %w", t.SQL(), err)
	}
	return nil
}
