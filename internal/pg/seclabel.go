package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
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

func (t SecurityLabelTarget) sqlObject() string {
	return strings.ToUpper(t.ObjectType) + " " + QuoteQualified(t.Schema, t.Name)
}

// objectAddress resolves the target to (classid, objid); found is false when the object does not exist.
func (t SecurityLabelTarget) objectAddress(ctx context.Context, q Querier) (classID, objID uint32, found bool, err error) {
	typ := strings.ToLower(t.ObjectType)
	switch typ {
	case "function", "procedure", "routine", "aggregate":
		// by name only, as SECURITY LABEL ON FUNCTION f (the name must be unique)
		var oid *uint32
		err = q.QueryRow(ctx, "SELECT to_regproc($1)::oid", QuoteQualified(t.Schema, t.Name)).Scan(&oid)
		if err != nil || oid == nil {
			return 0, 0, false, err
		}
		return 1255, *oid, true, nil
	}
	name := []string{t.Name}
	if t.Schema != "" {
		name = []string{t.Schema, t.Name}
	}
	// a missing object is an error of pg_get_object_address: run it in a
	// savepoint so that the surrounding transaction survives it
	if tx, ok := q.(pgx.Tx); ok {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return 0, 0, false, err
		}
		defer func() { _ = sp.Rollback(ctx) }()
		q = sp
	}
	err = q.QueryRow(ctx, "SELECT classid, objid FROM pg_get_object_address($1, $2, '{}')", typ, name).Scan(&classID, &objID)
	if err != nil {
		switch SQLState(err) {
		case CodeUndefinedObject, "42P01", "42883", CodeInvalidSchemaName, CodeInvalidCatalogName:
			return 0, 0, false, nil
		}
		return 0, 0, false, fmt.Errorf("finding %s: %w", t.sqlObject(), err)
	}
	return classID, objID, true, nil
}

// ReadSecurityLabel returns the label of the target in database db; ok is
// false when the object or its label (for this provider) does not exist.
func (c *Client) ReadSecurityLabel(ctx context.Context, db string, t SecurityLabelTarget) (label string, ok bool, err error) {
	err = c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		classID, objID, found, err := t.objectAddress(ctx, tx)
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
func (c *Client) SetSecurityLabel(ctx context.Context, db string, t SecurityLabelTarget, label *string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		if label == nil {
			if _, _, found, err := t.objectAddress(ctx, tx); err != nil || !found {
				return err
			}
		}
		value := "NULL"
		if label != nil {
			value = QuoteLiteral(*label)
		}
		_, err := tx.Exec(ctx, "SECURITY LABEL FOR "+QuoteIdent(t.Provider)+" ON "+t.sqlObject()+" IS "+value)
		return err
	})
	if err != nil && label == nil && SQLState(err) == CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("setting the security label of %s for provider %q: %w", t.sqlObject(), t.Provider, err)
	}
	return nil
}
