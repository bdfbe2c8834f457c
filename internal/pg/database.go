package pg

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	pgxconn "github.com/jackc/pgx/v5/pgconn"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// DatabaseSettings are what pg_database records of a database besides its
// name and OID, the same in what is read and what is asked for.
type DatabaseSettings struct {
	Owner      string
	Encoding   string // e.g. "UTF8"
	Collate    string
	Ctype      string
	Tablespace string
	ConnLimit  int64
	AllowConn  bool
	IsTemplate bool
}

// Database is a database as pg_database describes it.
type Database struct {
	OID  uint32
	Name string
	DatabaseSettings
}

// DatabaseSpec is what a database should look like. Template, Encoding,
// Collate, Ctype and Tablespace may be empty (server default); Owner empty
// means the connected role.
type DatabaseSpec struct {
	Name     string
	Template string
	DatabaseSettings
}

const databaseSelect = `
SELECT d.oid, d.datname, pg_get_userbyid(d.datdba), pg_encoding_to_char(d.encoding),
       d.datcollate::text, d.datctype::text, t.spcname::text, d.datconnlimit, d.datallowconn, d.datistemplate
FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace`

func scanDatabase(row pgx.Row) (*Database, error) {
	var d Database
	var limit int32
	if err := row.Scan(&d.OID, &d.Name, &d.Owner, &d.Encoding, &d.Collate, &d.Ctype, &d.Tablespace, &limit, &d.AllowConn, &d.IsTemplate); err != nil {
		return nil, err
	}
	d.ConnLimit = int64(limit)
	return &d, nil
}

func readDatabase(ctx context.Context, q Querier, where string, arg any) (*Database, error) {
	d, err := scanDatabase(q.QueryRow(ctx, databaseSelect+" "+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading database: %w", err)
	}
	return d, nil
}

// ReadDatabase reads a database by name; nil, nil when it does not exist.
func (c *Client) ReadDatabase(ctx context.Context, name string) (*Database, error) {
	return c.readDatabaseBy(ctx, 0, name, "WHERE d.datname = $1", name)
}

// ReadDatabaseByOID reads a database by OID; nil, nil when it does not exist.
func (c *Client) ReadDatabaseByOID(ctx context.Context, oid uint32) (*Database, error) {
	return c.readDatabaseBy(ctx, oid, "", "WHERE d.oid = $1", oid)
}

func (c *Client) readDatabaseBy(ctx context.Context, oid uint32, name, where string, arg any) (*Database, error) {
	if x, ok, err := c.databaseSnapshot(ctx); ok {
		if err != nil {
			return nil, err
		}
		return x.lookup(oid, name, cloneDatabase), nil
	}
	var d *Database
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var err error
		d, err = readDatabase(ctx, q, where, arg)
		return err
	})
	return d, err
}

// databaseSnapshot is every database of the cluster (fromSnapshot).
func (c *Client) databaseSnapshot(ctx context.Context) (*index[Database], bool, error) {
	return fromSnapshot(ctx, c, "", "databases", func(ctx context.Context, q Querier) (*index[Database], error) {
		return loadIndex(ctx, q, databaseSelect, "databases", scanDatabase, func(v *Database) (uint32, string) { return v.OID, v.Name })
	})
}

func cloneDatabase(d *Database) *Database {
	c := *d
	return &c
}

func databaseOptions(s DatabaseSpec) string {
	var b strings.Builder
	for _, o := range []struct {
		keyword, value string
		quote          func(string) string
	}{
		{"OWNER", s.Owner, pgconn.QuoteIdent},
		{"TEMPLATE", s.Template, pgconn.QuoteIdent},
		{"ENCODING", s.Encoding, pgconn.QuoteLiteral},
		{"LC_COLLATE", s.Collate, pgconn.QuoteLiteral},
		{"LC_CTYPE", s.Ctype, pgconn.QuoteLiteral},
		{"TABLESPACE", s.Tablespace, pgconn.QuoteIdent},
	} {
		if o.value != "" {
			b.WriteString(" " + o.keyword + " " + o.quote(o.value))
		}
	}
	b.WriteString(" ALLOW_CONNECTIONS " + strconv.FormatBool(s.AllowConn))
	b.WriteString(" CONNECTION LIMIT " + strconv.FormatInt(s.ConnLimit, 10))
	b.WriteString(" IS_TEMPLATE " + strconv.FormatBool(s.IsTemplate))
	return b.String()
}

// CreateDatabase creates a database with one CREATE DATABASE statement (which
// cannot run in a transaction). When the owner is another role the connected
// role cannot use, the connected role takes a lasting membership in it first
// (borrow.go). If the statement's outcome is unclear (the connection
// broke) and the database now exists, it is reported as created. created
// tells whether the database exists afterwards, even when err is not nil, so
// the caller can record it instead of retrying.
func (c *Client) CreateDatabase(ctx context.Context, s DatabaseSpec) (created bool, err error) {
	err = c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
		granted, err := borrowRoles(ctx, conn, s.Owner)
		if err != nil {
			return errors.Join(err, returnRoles(ctx, conn, granted))
		}
		_, cerr := conn.Exec(ctx, "CREATE DATABASE "+pgconn.QuoteIdent(s.Name)+databaseOptions(s))
		rerr := returnRoles(ctx, conn, granted)
		if cerr != nil {
			return fmt.Errorf("creating database %q: %w", s.Name, cerr)
		}
		created = true
		c.ForgetDatabaseLimit(s.Name) // learnt anew before the first connection to it
		return rerr
	})
	if err != nil && !created && pgconn.SQLState(err) == "" {
		// Not a server error: the statement may have run. Adopt what exists.
		if d, rerr := c.ReadDatabase(ctx, s.Name); rerr == nil && d != nil {
			return true, nil
		}
	}
	return created, err
}

// alterDatabase runs UpdateDatabase's statements in tx (a savepoint): the
// rename, the owner change (when setOwner) and the options; attempt is
// UpdateDatabase's attempt.
func alterDatabase(ctx context.Context, tx pgx.Tx, c *Client, oldName string, cur *Database, s DatabaseSpec, setOwner bool, owner string, attempt int) error {
	if oldName != s.Name {
		if _, err := tx.Exec(ctx, "ALTER DATABASE "+pgconn.QuoteIdent(oldName)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeObjectInUse {
				err = fmt.Errorf("renaming database %q to %q: other sessions are connected to it; "+
					"PostgreSQL renames a database only when nobody is connected: %w", oldName, s.Name, err)
				// PostgreSQL waited 5 seconds for them to leave. The
				// provider's own sessions ClosePool ends: retried (Tx) a
				// few times when no other is connected.
				if attempt < 4 && c.onlyOwnConnected(ctx, oldName) {
					return &pgconn.TransientError{Err: err}
				}
				return err
			}
			return fmt.Errorf("renaming database %q to %q: %w", oldName, s.Name, err)
		}
	}
	q := pgconn.QuoteIdent(s.Name)
	if setOwner {
		if _, err := tx.Exec(ctx, "ALTER DATABASE "+q+" OWNER TO "+pgconn.QuoteIdent(owner)); err != nil {
			return fmt.Errorf("changing the owner of database %q: %w", s.Name, err)
		}
	}
	if s.ConnLimit != cur.ConnLimit || s.AllowConn != cur.AllowConn || s.IsTemplate != cur.IsTemplate {
		stmt := fmt.Sprintf("ALTER DATABASE %s WITH ALLOW_CONNECTIONS %t CONNECTION LIMIT %d IS_TEMPLATE %t", q, s.AllowConn, s.ConnLimit, s.IsTemplate)
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("altering database %q: %w", s.Name, err)
		}
	}
	return nil
}

// onlyOwnConnected reports whether every session connected to database db
// is one of this provider's (ReadDatabaseActivity: by application_name;
// false when that cannot be read).
func (c *Client) onlyOwnConnected(ctx context.Context, db string) bool {
	a, err := c.ReadDatabaseActivity(ctx, db)
	return err == nil && a.Connections == 0
}

// UpdateDatabase renames (when oldName differs) and alters a database. Rename,
// owner and options change in one transaction on the provider's database; the
// tablespace (which PostgreSQL moves outside a transaction) follows; with
// reassignOwned, objects owned by the previous owner inside the database are
// then given to the new owner (REASSIGN OWNED, in that database).
func (c *Client) UpdateDatabase(ctx context.Context, oldName string, cur *Database, s DatabaseSpec, reassignOwned bool) error {
	if oldName != s.Name || (s.Tablespace != "" && s.Tablespace != cur.Tablespace) {
		c.ClosePool(oldName) // PostgreSQL refuses while sessions are connected to it
	}
	attempt := 0
	err := c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) (err error) {
		if attempt++; attempt > 1 && oldName != s.Name {
			// a session of this provider connected to it meanwhile (a role's
			// destroy in the same apply visits every database): closed again,
			// before this transaction holds a lock another session may want
			c.ClosePool(oldName)
		}
		if err := pgconn.LockObjects(ctx, tx, []pgconn.AdvisoryLockKey{{ClassID: ClassDatabase, ObjID: cur.OID}}); err != nil {
			return err
		}
		// the owner as it is now, by OID: another resource of the apply may
		// have renamed it since cur was read, and borrowing a role by a name
		// that is gone borrows nothing (the long walk, seed 29005 step 2 as
		// the managed admin on PostgreSQL 15: "must be owner of database")
		var nowOwner string
		ownerNow := func() (string, error) {
			var o string
			err := tx.QueryRow(ctx, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE oid = $1", cur.OID).Scan(&o)
			return o, err
		}
		if nowOwner, err = ownerNow(); err != nil {
			return fmt.Errorf("reading the owner of database %q: %w", oldName, err)
		}
		owner := nowOwner
		if s.Owner != "" {
			owner = s.Owner
		}
		granted, err := borrowRoles(ctx, tx, nowOwner, owner)
		if err != nil {
			return err
		}
		// renamed (or given away) between that read and the borrowing: the
		// statements fail for want of privileges, and the transaction is
		// retried with the owner as it is then (ownerSettled)
		err = ownerSettled(ctx, tx, func(tx pgx.Tx) error {
			return alterDatabase(ctx, tx, c, oldName, cur, s, owner != nowOwner, owner, attempt)
		}, func() (bool, error) {
			o, err := ownerNow()
			return o != nowOwner, err
		})
		if err != nil {
			return err
		}
		return returnRoles(ctx, tx, granted)
	})
	if err != nil {
		return err
	}
	if s.ConnLimit != cur.ConnLimit {
		// the next connections to it keep within the new limit
		c.ForgetDatabaseLimit(s.Name)
		c.RetirePools(s.Name)
	}
	if s.Tablespace != "" && s.Tablespace != cur.Tablespace {
		err := c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
			granted, err := borrowRoles(ctx, conn, s.Owner)
			if err != nil {
				return errors.Join(err, returnRoles(ctx, conn, granted))
			}
			_, terr := conn.Exec(ctx, "ALTER DATABASE "+pgconn.QuoteIdent(s.Name)+" SET TABLESPACE "+pgconn.QuoteIdent(s.Tablespace))
			if terr != nil {
				terr = fmt.Errorf("moving database %q to tablespace %q: %w", s.Name, s.Tablespace, terr)
			}
			return errors.Join(terr, returnRoles(ctx, conn, granted))
		})
		if err != nil {
			return err
		}
	}
	if reassignOwned && s.Owner != "" && s.Owner != cur.Owner {
		err := c.Tx(ctx, s.Name, func(ctx context.Context, tx pgx.Tx) error {
			granted, err := borrowRoles(ctx, tx, cur.Owner, s.Owner)
			if err != nil {
				return err
			}
			if err := reassignObjects(ctx, tx, cur.Owner, s.Owner); err != nil {
				return fmt.Errorf("giving the objects of role %q in database %q to %q: %w", cur.Owner, s.Name, s.Owner, err)
			}
			return returnRoles(ctx, tx, granted)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// reassignObjects gives every object of the current database owned by role
// from (outside the system schemas and extensions) to role to. Unlike REASSIGN
// OWNED it leaves the role's other databases alone and works when from is the
// bootstrap superuser.
func reassignObjects(ctx context.Context, tx pgx.Tx, from, to string) error {
	rows, err := tx.Query(ctx, `
WITH o AS (SELECT oid FROM pg_roles WHERE rolname = $1),
     ns AS (SELECT oid, nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'),
     ext AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
SELECT 1, 'SCHEMA', '', ns.nspname::text, '' FROM pg_namespace n JOIN ns ON ns.oid = n.oid, o
 WHERE n.nspowner = o.oid AND (('pg_namespace'::regclass, n.oid) NOT IN (SELECT * FROM ext))
UNION ALL
SELECT 2, CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                         WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, ns.nspname::text, c.relname::text, ''
FROM pg_class c JOIN ns ON ns.oid = c.relnamespace, o
 WHERE c.relowner = o.oid AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
   AND (('pg_class'::regclass, c.oid) NOT IN (SELECT * FROM ext))
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                   AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
UNION ALL
SELECT 3, CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
       ns.nspname::text, p.proname::text, pg_get_function_identity_arguments(p.oid)
FROM pg_proc p JOIN ns ON ns.oid = p.pronamespace, o
 WHERE p.proowner = o.oid AND (('pg_proc'::regclass, p.oid) NOT IN (SELECT * FROM ext))
   AND pg_get_function_identity_arguments(p.oid) IS NOT NULL -- not dropped since the snapshot
UNION ALL
SELECT 4, CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, ns.nspname::text, t.typname::text, ''
FROM pg_type t JOIN ns ON ns.oid = t.typnamespace, o
 WHERE t.typowner = o.oid AND (t.typtype IN ('d', 'e', 'r', 'm')
        OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
   AND (('pg_type'::regclass, t.oid) NOT IN (SELECT * FROM ext))
ORDER BY 1, 3, 4`, from)
	if err != nil {
		return err
	}
	type obj struct {
		order                    int
		kind, schema, name, args string
	}
	objs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (obj, error) {
		var o obj
		return o, r.Scan(&o.order, &o.kind, &o.schema, &o.name, &o.args)
	})
	if err != nil {
		return err
	}
	for _, o := range objs {
		target := pgconn.QuoteQualified(o.schema, o.name)
		if o.order == 3 {
			target += "(" + o.args + ")"
		}
		if _, err := tx.Exec(ctx, "ALTER "+o.kind+" "+target+" OWNER TO "+pgconn.QuoteIdent(to)); err != nil {
			return fmt.Errorf("ALTER %s %s OWNER: %w", o.kind, target, err)
		}
	}
	return nil
}

// DatabaseActivity is what a destroy plan reports about a database.
type DatabaseActivity struct {
	Connections    int // sessions connected to it, other than this provider's
	OwnConnections int // sessions opened by this provider (closed before a drop)
	// Blocking counts the sessions of Connections that keep DROP DATABASE from
	// running (autovacuum workers aside, which it stops itself).
	Blocking int
	// Unterminable counts the sessions of Blocking that
	// the provider's role may not terminate: those of superusers unless it is
	// one, those of roles whose privileges it lacks unless it has
	// pg_signal_backend's.
	Unterminable int
	// PreparedXacts counts the prepared transactions in the database, which
	// make DROP DATABASE fail (nothing the provider does ends them).
	PreparedXacts  int
	SizeBytes      int64
	SizePretty     string
	SizeKnown      bool
	ForceSupported bool // DROP DATABASE ... WITH (FORCE) (PostgreSQL 13+)
}

// ReadDatabaseActivity counts sessions connected to database name and its size.
func (c *Client) ReadDatabaseActivity(ctx context.Context, name string) (*DatabaseActivity, error) {
	var a DatabaseActivity
	app := c.Config().ApplicationName
	if app == "" {
		app = "terraform-provider-postgresql"
	}
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `
SELECT count(*) FILTER (WHERE a.application_name IS DISTINCT FROM $2),
       count(*) FILTER (WHERE a.application_name = $2),
       count(*) FILTER (WHERE a.application_name IS DISTINCT FROM $2 AND a.backend_type IS DISTINCT FROM 'autovacuum worker'),
       count(*) FILTER (WHERE a.application_name IS DISTINCT FROM $2 AND a.backend_type IS DISTINCT FROM 'autovacuum worker'
                        AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
                        AND (coalesce(r.rolsuper, false)
                             OR NOT (coalesce(pg_has_role(current_user, a.usesysid, 'USAGE'), false)
                                     OR pg_has_role(current_user, 'pg_signal_backend', 'USAGE')))),
       (SELECT count(*) FROM pg_prepared_xacts WHERE database = $1)
FROM pg_stat_activity a LEFT JOIN pg_roles r ON r.oid = a.usesysid
WHERE a.datname = $1 AND a.pid <> pg_backend_pid()`, name, app).Scan(&a.Connections, &a.OwnConnections, &a.Blocking, &a.Unterminable, &a.PreparedXacts)
	})
	if err != nil {
		return nil, err
	}
	_ = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		err := q.QueryRow(ctx, `SELECT pg_database_size($1::text), pg_size_pretty(pg_database_size($1::text))`, name).Scan(&a.SizeBytes, &a.SizePretty)
		a.SizeKnown = err == nil
		return nil
	})
	if caps, err := c.Capabilities(ctx); err == nil {
		a.ForceSupported = caps.AtLeast(13)
	}
	return &a, nil
}

// DropDatabase drops a database (a missing one is not an error). A template
// database is first made an ordinary one. With force, other sessions are
// disconnected: DROP DATABASE ... WITH (FORCE) on PostgreSQL 13+, otherwise
// connections are disallowed and the backends terminated before the drop.
//
// DROP DATABASE cannot run in a transaction block, so these preparations are
// committed before it: when the drop (or a later preparation) fails they are
// undone, leaving the database as it was, and the error says why it failed.
func (c *Client) DropDatabase(ctx context.Context, name string, force bool) error {
	d, err := c.ReadDatabase(ctx, name)
	if err != nil || d == nil {
		return err
	}
	if name == c.Config().Database {
		return fmt.Errorf("database %q is the provider's own database (the provider is connected to it); PostgreSQL cannot drop it from this connection", name)
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	c.ClosePool(name)
	return c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
		granted, err := borrowRoles(ctx, conn, d.Owner)
		if err != nil {
			return errors.Join(err, returnRoles(ctx, conn, granted))
		}
		q := pgconn.QuoteIdent(name)
		var undo []string // statements restoring what the preparations changed, in order
		restore := func(cause error) error {
			var errs []error
			for i := len(undo) - 1; i >= 0; i-- {
				if _, err := conn.Exec(ctx, undo[i]); err != nil {
					errs = append(errs, fmt.Errorf("restoring database %q after the failed drop (%s): %w", name, undo[i], err))
				}
			}
			return errors.Join(append([]error{cause}, errs...)...)
		}
		derr := func() error {
			if d.IsTemplate {
				if _, err := conn.Exec(ctx, "ALTER DATABASE "+q+" WITH IS_TEMPLATE false"); err != nil {
					return fmt.Errorf("making template database %q droppable: %w", name, err)
				}
				undo = append(undo, "ALTER DATABASE "+q+" WITH IS_TEMPLATE true")
			}
			stmt := "DROP DATABASE IF EXISTS " + q
			if force {
				if caps.AtLeast(13) && !c.dropWithoutForce {
					stmt += " WITH (FORCE)"
				} else {
					if d.AllowConn {
						if _, err := conn.Exec(ctx, "ALTER DATABASE "+q+" WITH ALLOW_CONNECTIONS false"); err != nil {
							return fmt.Errorf("disallowing connections to database %q: %w", name, err)
						}
						undo = append(undo, "ALTER DATABASE "+q+" WITH ALLOW_CONNECTIONS true")
					}
					if _, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name); err != nil {
						return fmt.Errorf("disconnecting sessions from database %q: %w", name, err)
					}
				}
			}
			if _, err := conn.Exec(ctx, stmt); err != nil {
				return dropDatabaseError(ctx, conn, name, force, err)
			}
			undo = nil
			return nil
		}()
		if derr != nil {
			return errors.Join(restore(derr), returnRoles(ctx, conn, granted))
		}
		return returnRoles(ctx, conn, granted)
	})
}

// dropDatabaseError explains why DROP DATABASE failed: PostgreSQL's detail
// (e.g. "There is 1 other session using the database.", "There is 1
// subscription."), and the way out when other sessions are the reason.
func dropDatabaseError(ctx context.Context, conn Querier, name string, force bool, err error) error {
	var pgErr *pgxconn.PgError
	detail := ""
	if errors.As(err, &pgErr) && pgErr.Detail != "" {
		detail = ". " + pgErr.Detail
	}
	if pgconn.SQLState(err) == pgconn.CodeObjectInUse && !force {
		// 55006 is also raised for subscriptions, replication slots and
		// prepared transactions: name sessions only when there are some.
		var sessions int
		if qerr := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name).Scan(&sessions); qerr == nil && sessions > 0 {
			return fmt.Errorf("dropping database %q: other sessions are connected to it (%d). Disconnect them, or set force_drop = true "+
				"to have the provider terminate them: %w", name, sessions, err)
		}
	}
	return fmt.Errorf("dropping database %q: %w%s", name, err, detail)
}

// XactPosition returns the server's transaction counter (the xmax of a fresh
// snapshot, 64-bit): databases whose catalog row is written later are newer.
// A refresh of many objects reads it from a snapshot (fromSnapshot): a
// position taken at most snapshotMaxAge earlier, with no write of this
// process since, is earlier than now, which only makes more databases look
// written after it (the plan then keeps an update that the apply refuses).
func (c *Client) XactPosition(ctx context.Context) (int64, error) {
	load := func(ctx context.Context, q Querier) (int64, error) {
		var pos int64
		err := q.QueryRow(ctx, "SELECT txid_snapshot_xmax(txid_current_snapshot())").Scan(&pos)
		return pos, err
	}
	if pos, ok, err := fromSnapshot(ctx, c, "", "xact-position", load); ok {
		return pos, err
	}
	var pos int64
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var err error
		pos, err = load(ctx, q)
		return err
	})
	return pos, err
}

// DatabaseWrittenSince reports whether the catalog row of database name was
// written (created or altered) after transaction position pos (XactPosition).
func (c *Client) DatabaseWrittenSince(ctx context.Context, name string, pos int64) (bool, error) {
	var since bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		// The row's 32-bit xmin is widened to 64 bits with the epoch of the
		// current snapshot's xmax (it committed, so it is below that xmax).
		err := q.QueryRow(ctx, `
WITH s AS (SELECT txid_snapshot_xmax(txid_current_snapshot()) AS x),
     r AS (SELECT d.xmin::text::bigint AS xmin32, s.x, ((s.x >> 32) << 32) | d.xmin::text::bigint AS wide
           FROM pg_database d, s WHERE d.datname = $1)
SELECT xmin32 >= 3 AND (CASE WHEN wide > x THEN wide - 4294967296 ELSE wide END) >= $2::bigint FROM r`, name, pos).Scan(&since)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return since, err
}

// DatabaseExists reports whether database name exists (used by imports to
// find which split of a dotted ID names a database).
func (c *Client) DatabaseExists(ctx context.Context, name string) (bool, error) {
	var ok bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
	})
	return ok, err
}
