package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Policy is a row-level security policy as the catalog describes it.
type Policy struct {
	OID        uint32
	Name       string
	Schema     string
	Table      string
	Command    string // ALL, SELECT, INSERT, UPDATE or DELETE
	Permissive bool
	Roles      []string // sorted; "public" for PUBLIC
	// The expressions as stored (pg_node_tree text), "" when none. Reading
	// them takes no lock on the table.
	UsingTree     string
	WithCheckTree string
	// The server's rendering (pg_get_expr), "" when none or not rendered:
	// ReadPolicy leaves them empty, because pg_get_expr opens the table (an
	// ACCESS SHARE lock, which waits behind any ACCESS EXCLUSIVE holder);
	// RenderPolicyExprs fills them, and writes return them.
	Using     string
	WithCheck string
}

// PolicySpec is what a policy should look like.
type PolicySpec struct {
	Name       string
	Schema     string
	Table      string
	Command    string
	Permissive bool
	Roles      []string // empty = PUBLIC
	Using      string   // "" = none
	WithCheck  string   // "" = none
}

// policySelect reads catalog rows only: no function here opens the table.
const policySelect = `
SELECT p.oid, p.polname, n.nspname, c.relname,
       CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
       p.polpermissive,
       array(SELECT CASE WHEN r = 0 THEN 'public' ELSE pg_get_userbyid(r) END FROM unnest(p.polroles) r ORDER BY 1),
       coalesce(p.polqual::text, ''), coalesce(p.polwithcheck::text, '')`

// policyRender adds the rendering of the expressions (pg_get_expr opens the table).
const policyRender = `,
       coalesce(pg_get_expr(p.polqual, p.polrelid), ''), coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')`

const policyFrom = `
FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid JOIN pg_namespace n ON n.oid = c.relnamespace`

// readPolicy reads one policy; with render, the expressions' rendering too.
func readPolicy(ctx context.Context, q Querier, render bool, where string, args ...any) (*Policy, error) {
	var p Policy
	dest := []any{&p.OID, &p.Name, &p.Schema, &p.Table, &p.Command, &p.Permissive, &p.Roles, &p.UsingTree, &p.WithCheckTree}
	query := policySelect
	if render {
		query += policyRender
		dest = append(dest, &p.Using, &p.WithCheck)
	}
	err := q.QueryRow(ctx, query+policyFrom+" "+where, args...).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading policy: %w", err)
	}
	return &p, nil
}

func readPolicyByOIDOrName(ctx context.Context, q Querier, render bool, oid uint32, schema, table, name string) (*Policy, error) {
	if oid != 0 {
		if p, err := readPolicy(ctx, q, render, "WHERE p.oid = $1", oid); err != nil || p != nil {
			return p, err
		}
	}
	return readPolicy(ctx, q, render, "WHERE n.nspname = $1 AND c.relname = $2 AND p.polname = $3", schema, table, name)
}

// ReadPolicy reads a policy of database db by OID when oid is not 0
// (following renames of the policy and its table), else by schema, table and
// name; nil, nil when it does not exist. It reads the catalog only and takes
// no lock on the table, so it never waits for one: the expressions come as
// stored (UsingTree, WithCheckTree), not rendered (see RenderPolicyExprs).
func (c *Client) ReadPolicy(ctx context.Context, db string, oid uint32, schema, table, name string) (*Policy, error) {
	var p *Policy
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		p, err = readPolicyByOIDOrName(ctx, q, false, oid, schema, table, name)
		return err
	})
	return p, err
}

// RenderPolicyExprs returns the server's rendering (pg_get_expr) of the
// expressions of the policy with OID oid ("" for none). pg_get_expr opens the
// table with an ACCESS SHARE lock, so this waits while another session holds
// ACCESS EXCLUSIVE on it: call it only when the stored expression is not the
// one last written.
func (c *Client) RenderPolicyExprs(ctx context.Context, db string, oid uint32) (using, withCheck string, err error) {
	err = c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `SELECT coalesce(pg_get_expr(polqual, polrelid), ''), coalesce(pg_get_expr(polwithcheck, polrelid), '')
FROM pg_policy WHERE oid = $1`, oid).Scan(&using, &withCheck)
	})
	if err != nil {
		return "", "", fmt.Errorf("rendering the expressions of policy %d: %w", oid, err)
	}
	return using, withCheck, nil
}

func policyRoles(roles []string) string {
	if len(roles) == 0 {
		return "PUBLIC"
	}
	r := make([]string, len(roles))
	for i, n := range roles {
		if IsPublic(n) {
			r[i] = "PUBLIC"
		} else {
			r[i] = pgconn.QuoteIdent(n)
		}
	}
	slices.Sort(r)
	return strings.Join(r, ", ")
}

// CreatePolicy creates a policy and returns it as read back.
func (c *Client) CreatePolicy(ctx context.Context, db string, s PolicySpec) (*Policy, error) {
	var out *Policy
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE POLICY " + pgconn.QuoteIdent(s.Name) + " ON " + pgconn.QuoteQualified(s.Schema, s.Table)
		if s.Permissive {
			stmt += " AS PERMISSIVE"
		} else {
			stmt += " AS RESTRICTIVE"
		}
		stmt += " FOR " + policyCommand(s.Command) + " TO " + policyRoles(s.Roles)
		if s.Using != "" {
			stmt += " USING (" + s.Using + ")"
		}
		if s.WithCheck != "" {
			stmt += " WITH CHECK (" + s.WithCheck + ")"
		}
		// tx.Exec runs exactly one statement (extended protocol): the
		// expressions cannot smuggle in another one
		if err := asTableOwner(ctx, tx, 0, s.Schema, s.Table, func() error {
			_, err := tx.Exec(ctx, stmt)
			return err
		}); err != nil {
			return fmt.Errorf("creating policy %q on %s: %w", s.Name, pgconn.QuoteQualified(s.Schema, s.Table), err)
		}
		var err error
		out, err = readPolicyByOIDOrName(ctx, tx, true, 0, s.Schema, s.Table, s.Name)
		return err
	})
	return out, err
}

func policyCommand(cmd string) string {
	switch strings.ToUpper(cmd) {
	case "SELECT", "INSERT", "UPDATE", "DELETE":
		return strings.ToUpper(cmd)
	}
	return "ALL"
}

// ErrPolicyGone is the error of UpdatePolicy when the policy no longer
// exists. DROP OWNED drops a policy whose only role is the one dropped, so a
// policy whose roles all go in the same apply as the roles themselves may be
// gone by the time its update runs.
var ErrPolicyGone = errors.New("the policy no longer exists")

// UpdatePolicy renames the policy with OID oid and sets its roles and
// expressions (ALTER POLICY), in one transaction. Expressions that are ""
// are left as they are (PostgreSQL cannot remove one).
func (c *Client) UpdatePolicy(ctx context.Context, db string, oid uint32, s PolicySpec) (*Policy, error) {
	var out *Policy
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readPolicy(ctx, tx, false, "WHERE p.oid = $1", oid)
		if err != nil {
			return err
		}
		if cur == nil {
			return fmt.Errorf("policy %q on %s: %w", s.Name, pgconn.QuoteQualified(s.Schema, s.Table), ErrPolicyGone)
		}
		table := pgconn.QuoteQualified(cur.Schema, cur.Table)
		if err := asTableOwner(ctx, tx, 0, cur.Schema, cur.Table, func() error {
			if cur.Name != s.Name {
				if _, err := tx.Exec(ctx, "ALTER POLICY "+pgconn.QuoteIdent(cur.Name)+" ON "+table+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
					return fmt.Errorf("renaming policy %q on %s to %q: %w", cur.Name, table, s.Name, err)
				}
			}
			stmt := "ALTER POLICY " + pgconn.QuoteIdent(s.Name) + " ON " + table + " TO " + policyRoles(s.Roles)
			if s.Using != "" {
				stmt += " USING (" + s.Using + ")"
			}
			if s.WithCheck != "" {
				stmt += " WITH CHECK (" + s.WithCheck + ")"
			}
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("altering policy %q on %s: %w", s.Name, table, err)
			}
			return nil
		}); err != nil {
			return err
		}
		out, err = readPolicy(ctx, tx, true, "WHERE p.oid = $1", oid)
		return err
	})
	return out, err
}

// DropPolicy drops a policy; a missing policy, table or database is not an error.
func (c *Client) DropPolicy(ctx context.Context, db string, oid uint32, schema, table, name string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readPolicyByOIDOrName(ctx, tx, false, oid, schema, table, name)
		if err != nil || cur == nil {
			return err
		}
		return asTableOwner(ctx, tx, 0, cur.Schema, cur.Table, func() error {
			_, err := tx.Exec(ctx, "DROP POLICY IF EXISTS "+pgconn.QuoteIdent(cur.Name)+" ON "+pgconn.QuoteQualified(cur.Schema, cur.Table))
			return err
		})
	})
	if err != nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping policy %q on %s: %w", name, pgconn.QuoteQualified(schema, table), err)
	}
	return nil
}

// TableRLS is the row-level security state of a table.
type TableRLS struct {
	OID     uint32
	Schema  string
	Table   string
	Enabled bool
	Force   bool
}

func readTableRLS(ctx context.Context, q Querier, oid uint32, schema, table string) (*TableRLS, error) {
	const sel = `SELECT c.oid, n.nspname, c.relname, c.relrowsecurity, c.relforcerowsecurity
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND `
	var t TableRLS
	scan := func(row pgx.Row) error {
		return row.Scan(&t.OID, &t.Schema, &t.Table, &t.Enabled, &t.Force)
	}
	err := pgx.ErrNoRows
	if oid != 0 {
		err = scan(q.QueryRow(ctx, sel+"c.oid = $1", oid))
	}
	if errors.Is(err, pgx.ErrNoRows) {
		err = scan(q.QueryRow(ctx, sel+"n.nspname = $1 AND c.relname = $2", schema, table))
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading table %s: %w", pgconn.QuoteQualified(schema, table), err)
	}
	return &t, nil
}

// ReadTableRLS reads the row-level security flags of a table (by OID when
// not 0, else by name); nil, nil when the table does not exist.
func (c *Client) ReadTableRLS(ctx context.Context, db string, oid uint32, schema, table string) (*TableRLS, error) {
	var t *TableRLS
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		t, err = readTableRLS(ctx, q, oid, schema, table)
		return err
	})
	return t, err
}

// SetTableRLS enables or disables (and forces or not) row-level security on a
// table, changing only what differs. With missingOK a missing table is not an error.
func (c *Client) SetTableRLS(ctx context.Context, db string, oid uint32, schema, table string, enabled, force, missingOK bool) (*TableRLS, error) {
	var out *TableRLS
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readTableRLS(ctx, tx, oid, schema, table)
		if err != nil {
			return err
		}
		if cur == nil {
			if missingOK {
				return nil
			}
			return fmt.Errorf("table %s does not exist", pgconn.QuoteQualified(schema, table))
		}
		var actions []string
		if cur.Enabled != enabled {
			if enabled {
				actions = append(actions, "ENABLE ROW LEVEL SECURITY")
			} else {
				actions = append(actions, "DISABLE ROW LEVEL SECURITY")
			}
		}
		if cur.Force != force {
			if force {
				actions = append(actions, "FORCE ROW LEVEL SECURITY")
			} else {
				actions = append(actions, "NO FORCE ROW LEVEL SECURITY")
			}
		}
		if len(actions) > 0 {
			stmt := "ALTER TABLE " + pgconn.QuoteQualified(cur.Schema, cur.Table) + " " + strings.Join(actions, ", ")
			if err := asTableOwner(ctx, tx, cur.OID, "", "", func() error {
				_, err := tx.Exec(ctx, stmt)
				return err
			}); err != nil {
				return fmt.Errorf("changing row-level security of table %s: %w", pgconn.QuoteQualified(cur.Schema, cur.Table), err)
			}
		}
		out, err = readTableRLS(ctx, tx, cur.OID, "", "")
		return err
	})
	if err != nil && missingOK && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil, nil
	}
	return out, err
}

// asTableOwner runs fn (statements in tx) with the privileges of the owner
// of the table with OID oid (when not 0) or named schema.table, borrowed
// (borrow.go). A table given to another role between the read of its owner
// and fn (postgresql_object_owner in the same apply) fails fn with "must be
// owner of table": fn ran in a savepoint, and the transaction is retried
// (pgconn.TransientError) as the new owner. Found by the long walk (seed
// 24002 step 1 as the managed admin on PostgreSQL 15: a policy created
// while its table was given away).
func asTableOwner(ctx context.Context, tx pgx.Tx, oid uint32, schema, table string, fn func() error) error {
	owner, err := tableOwner(ctx, tx, oid, schema, table)
	if err != nil {
		return err
	}
	return ownerSettled(ctx, tx, func(pgx.Tx) error { return withRoles(ctx, tx, []string{owner}, fn) }, func() (bool, error) {
		now, err := tableOwner(ctx, tx, oid, schema, table)
		return now != owner, err
	})
}

// tableOwner returns the owner of the table with OID oid (when not 0) or
// named schema.table, "" when there is none: CREATE, ALTER and DROP POLICY
// and ALTER TABLE ... ROW LEVEL SECURITY need the table owner's privileges,
// which a role that is not the owner borrows (borrow.go); for a missing table
// the statement says so in its own words.
func tableOwner(ctx context.Context, q Querier, oid uint32, schema, table string) (string, error) {
	var owner string
	err := q.QueryRow(ctx, `SELECT coalesce((SELECT pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE CASE WHEN $1::oid <> 0 THEN c.oid = $1 ELSE n.nspname = $2 AND c.relname = $3 END), '')`, oid, schema, table).Scan(&owner)
	if err != nil {
		return "", fmt.Errorf("reading the owner of table %s: %w", pgconn.QuoteQualified(schema, table), err)
	}
	return owner, nil
}

// CountPolicies counts the policies of the table with OID oid (for destroy-plan warnings).
func (c *Client) CountPolicies(ctx context.Context, db string, oid uint32) (int, error) {
	var n int
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT count(*) FROM pg_policy WHERE polrelid = $1", oid).Scan(&n)
	})
	return n, err
}
