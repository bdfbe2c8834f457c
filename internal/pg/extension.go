package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Extension is an installed extension as pg_extension describes it.
type Extension struct {
	OID     uint32
	Name    string
	Schema  string
	Version string
}

// ExtensionSpec is what an extension should look like; Schema and Version
// empty mean the extension's defaults on create and "leave as is" on update.
type ExtensionSpec struct {
	Name    string
	Schema  string
	Version string
}

// ReadExtension reads extension name in database db; nil, nil when it is not
// installed (IsMissingDatabase(err) when the database does not exist).
func (c *Client) ReadExtension(ctx context.Context, db, name string) (*Extension, error) {
	var e *Extension
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var x Extension
		err := q.QueryRow(ctx, `SELECT e.oid, e.extname, n.nspname, e.extversion
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`, name).Scan(&x.OID, &x.Name, &x.Schema, &x.Version)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading extension %q: %w", name, err)
		}
		e = &x
		return nil
	})
	return e, err
}

// ExtensionTrusted reports whether an available extension is marked trusted
// (creatable by non-superusers with CREATE on the database); false when unknown.
func (c *Client) ExtensionTrusted(ctx context.Context, db, name string) (bool, error) {
	var trusted bool
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		err := q.QueryRow(ctx, `SELECT coalesce(bool_or(trusted), false) FROM pg_available_extension_versions WHERE name = $1`, name).Scan(&trusted)
		return err
	})
	return trusted, err
}

// CreateExtension installs an extension in database db (CREATE EXTENSION IF
// NOT EXISTS, so an installed one is adopted and then moved/updated to match).
func (c *Client) CreateExtension(ctx context.Context, db string, s ExtensionSpec, cascade bool) error {
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE EXTENSION IF NOT EXISTS " + QuoteIdent(s.Name)
		if s.Schema != "" {
			stmt += " SCHEMA " + QuoteIdent(s.Schema)
		}
		if s.Version != "" {
			stmt += " VERSION " + QuoteLiteral(s.Version)
		}
		if cascade {
			stmt += " CASCADE"
		}
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("creating extension %q in database %q: %w", s.Name, db, err)
		}
		return alterExtension(ctx, tx, s)
	})
}

func alterExtension(ctx context.Context, tx pgx.Tx, s ExtensionSpec) error {
	var schema, version string
	if err := tx.QueryRow(ctx, `SELECT n.nspname, e.extversion FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = $1`, s.Name).Scan(&schema, &version); err != nil {
		return fmt.Errorf("reading extension %q: %w", s.Name, err)
	}
	if s.Schema != "" && s.Schema != schema {
		if _, err := tx.Exec(ctx, "ALTER EXTENSION "+QuoteIdent(s.Name)+" SET SCHEMA "+QuoteIdent(s.Schema)); err != nil {
			if SQLState(err) == CodeInsufficientPriv {
				return fmt.Errorf("moving extension %q to schema %q: PostgreSQL requires owning every member object of the extension; "+
					"the members of a trusted extension installed by a non-superuser belong to the bootstrap superuser, so only a superuser can move it: %w", s.Name, s.Schema, err)
			}
			return fmt.Errorf("moving extension %q to schema %q: %w", s.Name, s.Schema, err)
		}
	}
	if s.Version != "" && s.Version != version {
		if _, err := tx.Exec(ctx, "ALTER EXTENSION "+QuoteIdent(s.Name)+" UPDATE TO "+QuoteLiteral(s.Version)); err != nil {
			return fmt.Errorf("updating extension %q to version %s: %w", s.Name, s.Version, err)
		}
	}
	return nil
}

// UpdateExtension moves an extension to another schema and/or updates it to
// another version, in one transaction in database db.
func (c *Client) UpdateExtension(ctx context.Context, db string, s ExtensionSpec) error {
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error { return alterExtension(ctx, tx, s) })
}

// DropExtension drops an extension of database db; a missing extension or
// database is not an error.
func (c *Client) DropExtension(ctx context.Context, db, name string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "DROP EXTENSION IF EXISTS " + QuoteIdent(name)
		if cascade {
			stmt += " CASCADE"
		}
		if _, err := tx.Exec(ctx, stmt); err != nil {
			if SQLState(err) == CodeDependentObjects {
				return fmt.Errorf("objects depend on extension %q in database %q; drop them first or set drop_cascade = true: %w", name, db, err)
			}
			return fmt.Errorf("dropping extension %q in database %q: %w", name, db, err)
		}
		return nil
	})
	if IsMissingDatabase(err) {
		return nil
	}
	return err
}

// CountExtensionDependents counts the objects outside the extension that depend on its members.
func (c *Client) CountExtensionDependents(ctx context.Context, db string, oid uint32) (int, error) {
	var n int
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `
WITH members AS (SELECT classid, objid FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND refobjid = $1 AND deptype = 'e')
SELECT count(DISTINCT (d.classid, d.objid)) FROM pg_depend d JOIN members m ON d.refclassid = m.classid AND d.refobjid = m.objid
WHERE d.deptype = 'n' AND (d.classid, d.objid) NOT IN (SELECT classid, objid FROM members)
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND t.typelem <> 0))`, oid).Scan(&n)
	})
	return n, err
}
