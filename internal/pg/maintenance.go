package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	pgxconn "github.com/jackc/pgx/v5/pgconn"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Operations that are not objects: the provider's actions (Terraform 1.14+)
// refresh materialized views, VACUUM and ANALYZE tables, terminate sessions
// and reassign ownership. Each statement runs on its own (VACUUM cannot run in
// a transaction block), with every name quoted and every value a parameter.

// withServerText adds PostgreSQL's DETAIL and HINT to err, which pgx leaves
// out of the error text: for these operations they are what tells the user
// what to do (a unique index for REFRESH ... CONCURRENTLY, the privileges
// REASSIGN OWNED needs).
func withServerText(err error) error {
	var pgErr *pgxconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	var extra []string
	if pgErr.Detail != "" {
		extra = append(extra, "DETAIL: "+pgErr.Detail)
	}
	if pgErr.Hint != "" {
		extra = append(extra, "HINT: "+pgErr.Hint)
	}
	if len(extra) == 0 {
		return err
	}
	return fmt.Errorf("%w (%s)", err, strings.Join(extra, "; "))
}

// RefreshMaterializedView runs REFRESH MATERIALIZED VIEW [CONCURRENTLY] on
// schema.name in database db.
func (c *Client) RefreshMaterializedView(ctx context.Context, db, schema, name string, concurrently bool) error {
	sql := "REFRESH MATERIALIZED VIEW "
	if concurrently {
		sql += "CONCURRENTLY "
	}
	sql += pgconn.QuoteQualified(schema, name)
	err := c.Do(ctx, db, func(ctx context.Context, q Querier) error {
		var kind string
		err := q.QueryRow(ctx, `SELECT c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = $2`, schema, name).Scan(&kind)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("materialized view %s does not exist in database %s", pgconn.QuoteQualified(schema, name), pgconn.QuoteIdent(dbName(c, db)))
		}
		if err != nil {
			return err
		}
		if kind != "m" {
			return fmt.Errorf("%s in database %s is not a materialized view", pgconn.QuoteQualified(schema, name), pgconn.QuoteIdent(dbName(c, db)))
		}
		return pgconn.ExecOneErr(ctx, q, sql)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", sql, withServerText(err))
	}
	return nil
}

func dbName(c *Client, db string) string {
	if db == "" {
		return c.Config().Database
	}
	return db
}

// MaintainedTable is a table, partitioned table or materialized view that
// VACUUM and ANALYZE can process.
type MaintainedTable struct {
	Name string
	// Allowed: the connected role may VACUUM and ANALYZE it (superuser, owner
	// or the database's owner; MAINTAIN privilege on PostgreSQL 17+).
	Allowed bool
}

const maintainedTablesSQL = `
SELECT c.relname,
       r.rolsuper OR pg_has_role(current_user, c.relowner, 'USAGE')
         OR (NOT c.relisshared AND pg_has_role(current_user, d.datdba, 'USAGE'))
         OR CASE WHEN current_setting('server_version_num')::int >= 170000
                 THEN has_table_privilege(c.oid, 'MAINTAIN') ELSE false END
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_roles r ON r.rolname = current_user
JOIN pg_database d ON d.datname = current_database()
WHERE n.nspname = $1 AND c.relkind IN ('r', 'm', 'p')`

// MaintainedTables lists the tables, partitioned tables (whose partitions
// VACUUM and ANALYZE process with them) and materialized views of schema in
// database db, sorted by name, with whether the connected role may process
// them. It fails when the schema does not exist.
func (c *Client) MaintainedTables(ctx context.Context, db, schema string) ([]MaintainedTable, error) {
	var out []MaintainedTable
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		out = nil
		var exists bool
		if err := q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", schema).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("schema %s does not exist in database %s", pgconn.QuoteIdent(schema), pgconn.QuoteIdent(dbName(c, db)))
		}
		// partitions are processed with their partitioned table
		rows, err := q.Query(ctx, maintainedTablesSQL+" AND NOT c.relispartition ORDER BY c.relname COLLATE \"C\"", schema)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (MaintainedTable, error) {
			var t MaintainedTable
			err := row.Scan(&t.Name, &t.Allowed)
			return t, err
		})
		return err
	})
	return out, err
}

// maintainedTable checks one table before VACUUM or ANALYZE: PostgreSQL only
// warns and skips a table the role may not process, which would look like
// success.
func (c *Client) maintainedTable(ctx context.Context, q Querier, db, schema, table, verb string) error {
	var allowed bool
	err := q.QueryRow(ctx, maintainedTablesSQL+" AND c.relname = $2", schema, table).Scan(new(string), &allowed)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("no table or materialized view %s in database %s", pgconn.QuoteQualified(schema, table), pgconn.QuoteIdent(dbName(c, db)))
	}
	if err != nil {
		return err
	}
	if !allowed {
		var me string
		_ = q.QueryRow(ctx, "SELECT current_user").Scan(&me)
		return fmt.Errorf("role %s may not %s %s in database %s: it must be a superuser, the table's owner (or have its privileges), "+
			"the database's owner, or (PostgreSQL 17+) hold the MAINTAIN privilege on the table", pgconn.QuoteIdent(me), verb, pgconn.QuoteQualified(schema, table), pgconn.QuoteIdent(dbName(c, db)))
	}
	return nil
}

// VacuumOptions are the options of VACUUM.
type VacuumOptions struct {
	Full, Analyze, Freeze bool
}

// VacuumStatement is the VACUUM statement for schema.table with opts.
func VacuumStatement(schema, table string, opts VacuumOptions) string {
	var o []string
	if opts.Full {
		o = append(o, "FULL")
	}
	if opts.Freeze {
		o = append(o, "FREEZE")
	}
	if opts.Analyze {
		o = append(o, "ANALYZE")
	}
	sql := "VACUUM "
	if len(o) > 0 {
		sql += "(" + strings.Join(o, ", ") + ") "
	}
	return sql + pgconn.QuoteQualified(schema, table)
}

// Vacuum runs VACUUM on schema.table in database db, outside a transaction
// block (VACUUM refuses one). It fails, rather than letting PostgreSQL skip
// the table with a warning, when the table does not exist or the role may not
// vacuum it.
func (c *Client) Vacuum(ctx context.Context, db, schema, table string, opts VacuumOptions) error {
	return c.maintain(ctx, db, schema, table, "vacuum", VacuumStatement(schema, table, opts))
}

// Analyze runs ANALYZE on schema.table in database db, with the same checks as Vacuum.
func (c *Client) Analyze(ctx context.Context, db, schema, table string) error {
	return c.maintain(ctx, db, schema, table, "analyze", "ANALYZE "+pgconn.QuoteQualified(schema, table))
}

// maintain runs the maintenance statement sql (VACUUM, ANALYZE) on
// schema.table in database db, outside a transaction block, once
// maintainedTable has checked that the table exists and the role may verb it.
func (c *Client) maintain(ctx context.Context, db, schema, table, verb, sql string) error {
	err := c.Do(ctx, db, func(ctx context.Context, q Querier) error {
		if err := c.maintainedTable(ctx, q, db, schema, table, verb); err != nil {
			return err
		}
		return pgconn.ExecOneErr(ctx, q, sql)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", sql, withServerText(err))
	}
	return nil
}

// Backend is a session found in pg_stat_activity.
type Backend struct {
	PID             int32
	Database        string
	User            string
	ApplicationName string
}

// applicationName is the application_name of the provider's own sessions.
func (c *Client) applicationName() string {
	if c.Config().ApplicationName != "" {
		return c.Config().ApplicationName
	}
	return "terraform-provider-postgresql"
}

// SessionsToTerminate lists the sessions connected to database (when not "")
// as role (when not ""), both when both are given, leaving out the provider's
// own sessions: the one asking, and every session of the provider's role with
// the provider's application_name (its pools).
func (c *Client) SessionsToTerminate(ctx context.Context, database, role string) ([]Backend, error) {
	var out []Backend
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, `
SELECT pid, coalesce(datname, ''), coalesce(usename, ''), coalesce(application_name, '')
FROM pg_stat_activity
WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
  AND ($1 = '' OR datname = $1) AND ($2 = '' OR usename = $2)
  AND NOT (usename = current_user AND application_name = $3)
ORDER BY pid`, database, role, c.applicationName())
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Backend, error) {
			var b Backend
			err := row.Scan(&b.PID, &b.Database, &b.User, &b.ApplicationName)
			return b, err
		})
		return err
	})
	return out, err
}

// TerminateBackend ends session pid with pg_terminate_backend and, on
// PostgreSQL 14+, waits up to 5 seconds for it to exit. It reports false when
// the session was already gone (or, on 14+, had not exited in time).
func (c *Client) TerminateBackend(ctx context.Context, pid int32) (bool, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return false, err
	}
	sql := "SELECT pg_terminate_backend($1)"
	if caps.AtLeast(14) {
		sql = "SELECT pg_terminate_backend($1, 5000)"
	}
	var ok bool
	err = c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, sql, pid).Scan(&ok)
	})
	if err != nil {
		return false, fmt.Errorf("pg_terminate_backend(%d): %w", pid, withServerText(err))
	}
	return ok, nil
}

// ReassignOwned runs REASSIGN OWNED BY oldRoles TO newRole in database db
// (REASSIGN OWNED acts on one database, plus shared objects: databases and
// tablespaces). It needs the privileges of every old role and of the new
// one: a non-superuser admin (managed services) takes them for the
// transaction when it can grant itself the memberships (borrow.go), and the
// error says which grant is missing when it cannot.
func (c *Client) ReassignOwned(ctx context.Context, db string, oldRoles []string, newRole string) error {
	sql := "REASSIGN OWNED BY " + pgconn.QuoteIdents(oldRoles) + " TO " + pgconn.QuoteIdent(newRole)
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		super, err := c.Superuser(ctx)
		if err != nil {
			return err
		}
		if super {
			return pgconn.ExecOneErr(ctx, tx, sql)
		}
		return withRoles(ctx, tx, append(append([]string{}, oldRoles...), newRole), func() error {
			return pgconn.ExecOneErr(ctx, tx, sql)
		})
	})
	if err != nil {
		return fmt.Errorf("%s in database %s: %w", sql, pgconn.QuoteIdent(dbName(c, db)), withServerText(err))
	}
	return nil
}
