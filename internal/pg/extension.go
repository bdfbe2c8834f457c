package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
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
// A trusted extension needs CREATE on the database; a managed admin without
// it borrows the privileges of the database's owner (extensionLenders).
func (c *Client) CreateExtension(ctx context.Context, db string, s ExtensionSpec, cascade bool) error {
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		lenders, err := extensionLenders(ctx, tx, s)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, lenders, func() error {
			stmt := "CREATE EXTENSION IF NOT EXISTS " + pgconn.QuoteIdent(s.Name)
			if s.Schema != "" {
				stmt += " SCHEMA " + pgconn.QuoteIdent(s.Schema)
			}
			if s.Version != "" {
				stmt += " VERSION " + pgconn.QuoteLiteral(s.Version)
			}
			if cascade {
				stmt += " CASCADE"
			}
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("creating extension %q in database %q: %w", s.Name, db, err)
			}
			return alterExtension(ctx, tx, s)
		})
	})
}

// extensionLenders lists the roles whose privileges the connected role lacks
// for installing extension s in the current database, or for bringing an
// installed one to s, so that a managed admin borrows them (withRoles):
//   - the owner of the database, when the extension is trusted and is
//     installed or updated while the connected role has no CREATE on the
//     database: PostgreSQL runs a trusted extension's scripts as the bootstrap
//     superuser on behalf of a role with CREATE on the database (for an
//     untrusted one nothing helps but a superuser, and PostgreSQL says so);
//   - the owner of the extension, when it is updated or moved (ALTER
//     EXTENSION needs it);
//   - the owner of the schema it goes to, when the connected role has no
//     CREATE there and the extension moves to it, or is installed by scripts
//     that run as the connected role (an extension that needs no superuser).
//
// The owner pg_database_owner (of schema public since PostgreSQL 15) is
// listed as such: borrowing it borrows the database's owner (lender.go). A
// superuser needs nobody's privileges, and a change that changes nothing
// needs none either.
func extensionLenders(ctx context.Context, q Querier, s ExtensionSpec) ([]string, error) {
	rows, err := q.Query(ctx, `
WITH dbo AS (SELECT r.rolname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE d.datname = current_database()),
     ext AS (SELECT e.extowner, e.extversion, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1),
     plan AS (SELECT NOT EXISTS (SELECT 1 FROM ext) AS installs,
                     EXISTS (SELECT 1 FROM ext WHERE $2 <> '' AND extversion <> $2) AS updates,
                     EXISTS (SELECT 1 FROM ext WHERE $3 <> '' AND nspname <> $3) AS moves),
     ver AS (SELECT v.superuser, v.trusted, v.schema FROM pg_available_extension_versions v
             WHERE v.name = $1 AND v.version = coalesce(nullif($2, ''), (SELECT extversion FROM ext),
                                                        (SELECT default_version FROM pg_available_extensions WHERE name = $1))),
     target AS (SELECT n.oid, n.nspowner FROM pg_namespace n
                WHERE n.nspname = coalesce(nullif($3, ''), (SELECT schema FROM ver), (current_schemas(false))[1])),
     lender AS (
       SELECT (SELECT rolname FROM dbo) AS role FROM plan
        WHERE (installs OR updates) AND NOT has_database_privilege(current_database(), 'CREATE')
          AND coalesce((SELECT superuser AND trusted FROM ver), false)
       UNION ALL
       SELECT pg_get_userbyid(ext.extowner) FROM ext, plan WHERE updates OR moves
       UNION ALL
       SELECT pg_get_userbyid(t.nspowner) FROM target t, plan
        WHERE NOT has_schema_privilege(t.oid, 'CREATE')
          AND (moves OR installs AND NOT coalesce((SELECT superuser FROM ver), true)))
SELECT DISTINCT role FROM lender
WHERE role IS NOT NULL AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) ORDER BY 1`, s.Name, s.Version, s.Schema)
	if err != nil {
		return nil, fmt.Errorf("finding whose privileges extension %q needs: %w", s.Name, err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func alterExtension(ctx context.Context, tx pgx.Tx, s ExtensionSpec) error {
	var schema, version string
	if err := tx.QueryRow(ctx, `SELECT n.nspname, e.extversion FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = $1`, s.Name).Scan(&schema, &version); err != nil {
		return fmt.Errorf("reading extension %q: %w", s.Name, err)
	}
	if s.Schema != "" && s.Schema != schema {
		if _, err := tx.Exec(ctx, "ALTER EXTENSION "+pgconn.QuoteIdent(s.Name)+" SET SCHEMA "+pgconn.QuoteIdent(s.Schema)); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeInsufficientPriv {
				return fmt.Errorf("moving extension %q to schema %q: PostgreSQL requires owning every member object of the extension; "+
					"the members of a trusted extension installed by a non-superuser belong to the bootstrap superuser, so only a superuser can move it: %w", s.Name, s.Schema, err)
			}
			return fmt.Errorf("moving extension %q to schema %q: %w", s.Name, s.Schema, err)
		}
	}
	if s.Version != "" && s.Version != version {
		if _, err := tx.Exec(ctx, "ALTER EXTENSION "+pgconn.QuoteIdent(s.Name)+" UPDATE TO "+pgconn.QuoteLiteral(s.Version)); err != nil {
			return fmt.Errorf("updating extension %q to version %s: %w", s.Name, s.Version, err)
		}
	}
	return nil
}

// UpdateExtension moves an extension to another schema and/or updates it to
// another version, in one transaction in database db, with the privileges of
// the extension's owner and, for a trusted extension's update scripts, of the
// database's owner when the connected role lacks them (extensionLenders).
func (c *Client) UpdateExtension(ctx context.Context, db string, s ExtensionSpec) error {
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		lenders, err := extensionLenders(ctx, tx, s)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, lenders, func() error { return alterExtension(ctx, tx, s) })
	})
}

// DropExtension drops an extension of database db, with the privileges of
// its owner when the connected role lacks them; a missing extension or
// database is not an error.
func (c *Client) DropExtension(ctx context.Context, db, name string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var owner string
		if err := tx.QueryRow(ctx, `SELECT coalesce((SELECT pg_get_userbyid(extowner) FROM pg_extension WHERE extname = $1), '')`, name).Scan(&owner); err != nil {
			return fmt.Errorf("reading the owner of extension %q: %w", name, err)
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			stmt := "DROP EXTENSION IF EXISTS " + pgconn.QuoteIdent(name)
			if cascade {
				stmt += " CASCADE"
			}
			if _, err := tx.Exec(ctx, stmt); err != nil {
				if pgconn.SQLState(err) == pgconn.CodeDependentObjects {
					return fmt.Errorf("objects depend on extension %q in database %q; drop them first or set drop_cascade = true: %w", name, db, err)
				}
				return fmt.Errorf("dropping extension %q in database %q: %w", name, db, err)
			}
			return nil
		})
	})
	if IsMissingDatabase(err) {
		return nil
	}
	return err
}

// ExtensionMoveBlocker names a member object of extension name in database
// db, and its owner, that keeps the connected role from moving the extension
// to schema target ("" when none, when the extension is not installed, or
// when no other schema than the extension's is named target: a schema that
// does not exist yet may be the extension's own, renamed in the same apply):
// ALTER EXTENSION ... SET SCHEMA needs to own every member, and a member
// owned by a superuser can be neither owned nor borrowed by a role that is
// not one. The members of a trusted extension that a non-superuser installed
// belong to the bootstrap superuser. It only reads the catalog (plan time).
func (c *Client) ExtensionMoveBlocker(ctx context.Context, db, name, target string) (object, owner string, err error) {
	err = c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		err := q.QueryRow(ctx, `
WITH m AS (
  SELECT d.classid, d.objid, CASE d.classid
    WHEN 'pg_proc'::regclass THEN (SELECT proowner FROM pg_proc WHERE oid = d.objid)
    WHEN 'pg_type'::regclass THEN (SELECT typowner FROM pg_type WHERE oid = d.objid)
    WHEN 'pg_class'::regclass THEN (SELECT relowner FROM pg_class WHERE oid = d.objid)
    WHEN 'pg_operator'::regclass THEN (SELECT oprowner FROM pg_operator WHERE oid = d.objid)
    WHEN 'pg_opclass'::regclass THEN (SELECT opcowner FROM pg_opclass WHERE oid = d.objid)
    WHEN 'pg_opfamily'::regclass THEN (SELECT opfowner FROM pg_opfamily WHERE oid = d.objid)
    WHEN 'pg_collation'::regclass THEN (SELECT collowner FROM pg_collation WHERE oid = d.objid)
    WHEN 'pg_conversion'::regclass THEN (SELECT conowner FROM pg_conversion WHERE oid = d.objid)
    WHEN 'pg_ts_dict'::regclass THEN (SELECT dictowner FROM pg_ts_dict WHERE oid = d.objid)
    WHEN 'pg_ts_config'::regclass THEN (SELECT cfgowner FROM pg_ts_config WHERE oid = d.objid)
  END AS owner
  FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = $1
    AND EXISTS (SELECT 1 FROM pg_namespace n WHERE n.nspname = $2 AND n.oid <> e.extnamespace))
SELECT pg_describe_object(m.classid, m.objid, 0), r.rolname FROM m JOIN pg_roles r ON r.oid = m.owner
WHERE r.rolsuper AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
ORDER BY 1 LIMIT 1`, name, target).Scan(&object, &owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return object, owner, err
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
