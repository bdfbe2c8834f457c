package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// SecurityLabelObjectTypes are the object types postgresql_security_label
// supports, as SECURITY LABEL spells them (lower case).
var SecurityLabelObjectTypes = []string{
	"table", "view", "materialized view", "sequence", "foreign table", "type", "domain",
	"function", "procedure", "routine", "aggregate",
	"schema", "role", "database", "tablespace", "event trigger", "publication", "subscription", "language",
}

// SecurityLabelTarget names a labelled object.
type SecurityLabelTarget struct {
	Provider   string
	ObjectType string // one of SecurityLabelObjectTypes, any letter case
	Schema     string // "" = resolved through search_path (or not schema-scoped)
	Name       string
}

func (t SecurityLabelTarget) object() ObjectTarget {
	return ObjectTarget{ObjectType: t.ObjectType, Schema: t.Schema, Name: t.Name}
}

func (t SecurityLabelTarget) sqlObject() string { return t.object().SQL() }

// ReadSecurityLabel returns the label of the target in database db; ok is
// false when the object or its label (for this provider) does not exist.
func (c *Client) ReadSecurityLabel(ctx context.Context, db string, t SecurityLabelTarget) (label string, ok bool, err error) {
	err = c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		classID, objID, _, found, err := t.object().address(ctx, tx)
		if err != nil || !found {
			return err
		}
		err = tx.QueryRow(ctx, `
SELECT label FROM pg_seclabel WHERE classoid = $1 AND objoid = $2 AND objsubid = 0 AND provider = $3
UNION ALL
SELECT label FROM pg_shseclabel WHERE classoid = $1 AND objoid = $2 AND provider = $3`, classID, objID, t.Provider).Scan(&label)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the security label of %s: %w", t.sqlObject(), err)
		}
		ok = true
		return nil
	})
	return label, ok, err
}

// SetSecurityLabel sets (label != nil) or removes (nil) the label of the
// target. Removing the label of a missing object or database is not an error.
// SECURITY LABEL needs ownership of the object (CREATEROLE for a role): a
// role that is not the owner borrows the owner's privileges (borrow.go).
func (c *Client) SetSecurityLabel(ctx context.Context, db string, t SecurityLabelTarget, label *string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		classID, objID, _, found, err := t.object().address(ctx, tx)
		if err != nil || (!found && label == nil) {
			return err
		}
		owner := ""
		if found {
			if owner, err = objectOwner(ctx, tx, classID, objID); err != nil {
				return err
			}
		}
		value := "NULL"
		if label != nil {
			value = pgconn.QuoteLiteral(*label)
		}
		stmt := "SECURITY LABEL FOR " + pgconn.QuoteIdent(t.Provider) + " ON " + t.sqlObject() + " IS " + value
		// a missing object: SECURITY LABEL says so in its own words
		return withRoles(ctx, tx, []string{owner}, func() error {
			if label == nil {
				// the object (a role dropped in the same apply) may be dropped
				// meanwhile by another session, and its label with it (revoke.go)
				_, err := revokeStatement(ctx, tx, t.object().gone, stmt)
				return err
			}
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
	if err != nil && label == nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("setting the security label of %s for provider %q: %w", t.sqlObject(), t.Provider, err)
	}
	return nil
}
