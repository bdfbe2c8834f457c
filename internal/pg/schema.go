package pg

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Schema is a schema as pg_namespace describes it.
type Schema struct {
	OID   uint32
	Name  string
	Owner string
	// Grants are the schema's privileges by grantee ("" = PUBLIC).
	Grants map[string]SchemaGrant
}

// SchemaGrant is what one grantee ("" = PUBLIC) holds on a schema.
type SchemaGrant struct {
	Role string
	// RoleOID is Role's OID when the resource last read it (0: unknown): the
	// previous grants of UpdateSchema follow a role renamed since by it.
	RoleOID     uint32
	Usage       bool // USAGE without grant option
	UsageGrant  bool // USAGE WITH GRANT OPTION
	Create      bool
	CreateGrant bool
}

// SchemaSpec is what a schema should look like. Owner "" keeps the current
// owner (the connected role on create). Grants, when non-nil, are applied for
// each grantee listed (the deprecated policy blocks of postgresql_schema).
type SchemaSpec struct {
	Name   string
	Owner  string
	Grants []SchemaGrant
}

// IsMissingDatabase reports whether err says that the database does not exist.
func IsMissingDatabase(err error) bool { return pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName }

// schemaSelect reads schemas with their privileges in one query (one row each).
const schemaSelect = `
SELECT n.oid, n.nspname, pg_get_userbyid(n.nspowner), g.roles, g.privs, g.grantable
FROM pg_namespace n
CROSS JOIN LATERAL (
  SELECT array_agg(coalesce(r.rolname, '')) AS roles, array_agg(a.privilege_type::text) AS privs, array_agg(a.is_grantable) AS grantable
  FROM aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
  LEFT JOIN pg_roles r ON r.oid = a.grantee) g`

func scanSchema(row pgx.Row) (*Schema, error) {
	var s Schema
	var roles, privs []string
	var grantable []bool
	if err := row.Scan(&s.OID, &s.Name, &s.Owner, &roles, &privs, &grantable); err != nil {
		return nil, err
	}
	s.Grants = map[string]SchemaGrant{}
	for i, role := range roles {
		if i >= len(privs) || i >= len(grantable) {
			break
		}
		g := s.Grants[role]
		g.Role = role
		switch {
		case privs[i] == "USAGE" && grantable[i]:
			g.UsageGrant = true
		case privs[i] == "USAGE":
			g.Usage = true
		case privs[i] == "CREATE" && grantable[i]:
			g.CreateGrant = true
		case privs[i] == "CREATE":
			g.Create = true
		}
		s.Grants[role] = g
	}
	return &s, nil
}

func readSchema(ctx context.Context, q Querier, where string, args ...any) (*Schema, error) {
	s, err := scanSchema(q.QueryRow(ctx, schemaSelect+" "+where, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading schema: %w", err)
	}
	return s, nil
}

// schemaSnapshot is every schema of database db (fromSnapshot).
func (c *Client) schemaSnapshot(ctx context.Context, db string) (*index[Schema], bool, error) {
	return fromSnapshot(ctx, c, db, "schemas", func(ctx context.Context, q Querier) (*index[Schema], error) {
		return loadIndex(ctx, q, schemaSelect, "schemas", scanSchema, func(v *Schema) (uint32, string) { return v.OID, v.Name })
	})
}

func cloneSchema(s *Schema) *Schema {
	c := *s
	c.Grants = maps.Clone(s.Grants)
	return &c
}

// ReadSchema reads schema name (or, when oid is not 0, the schema with that
// OID) in database db. It returns nil, nil when the schema does not exist, and
// an error for which IsMissingDatabase is true when the database does not.
func (c *Client) ReadSchema(ctx context.Context, db string, oid uint32, name string) (*Schema, error) {
	if x, ok, err := c.schemaSnapshot(ctx, db); ok {
		if err != nil {
			return nil, err
		}
		if oid != 0 {
			if s := x.lookup(oid, "", cloneSchema); s != nil {
				return s, nil
			}
		}
		return x.lookup(0, name, cloneSchema), nil
	}
	var s *Schema
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		s, err = readSchema(ctx, q, "WHERE n.oid = $1 OR (n.nspname = $2 AND NOT EXISTS (SELECT 1 FROM pg_namespace o WHERE o.oid = $1))", oid, name)
		return err
	})
	return s, err
}

func schemaGrantee(role string) string {
	if role == "" {
		return "PUBLIC"
	}
	return pgconn.QuoteIdent(role)
}

// applySchemaGrants revokes what the grantees of prev no longer listed in
// want hold, and makes each grantee of want hold exactly its privileges. A
// grantee of prev that no longer exists holds nothing (revoke.go): the
// configuration may have removed it in the same apply. A grantee of prev
// that owns the schema now (an owner changed in the same apply) is left with
// the owner's own privileges (USAGE and CREATE), which no block states:
// revoking them would leave the owner unable to create objects in its own
// schema (found by the walk, TestAccWalk_regressionPolicyOfNewOwnerRemoved).
func applySchemaGrants(ctx context.Context, tx pgx.Tx, schema string, prev, want []SchemaGrant, kept map[string][]string) error {
	q := pgconn.QuoteIdent(schema)
	var owner, me string
	var asOwner bool
	if err := tx.QueryRow(ctx, `SELECT pg_get_userbyid(n.nspowner), current_user::text,
  NOT r.rolsuper AND n.nspowner <> r.oid AND pg_get_userbyid(n.nspowner) <> 'pg_database_owner'
    AND pg_has_role(current_user, n.nspowner, CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END)
FROM pg_namespace n, pg_roles r WHERE n.nspname = $1 AND r.rolname = current_user`, schema).Scan(&owner, &me, &asOwner); err != nil {
		return fmt.Errorf("reading the owner of schema %q: %w", schema, err)
	}
	if asOwner {
		// grant and revoke as the owner: PostgreSQL records as the grantor
		// of a GRANT the first of the connected role's roles that holds the
		// grant options (select_best_grantor), which may be a grantee given
		// USAGE WITH GRANT OPTION here; a later REVOKE ALL from that
		// grantee then fails on the dependent privileges (found by the
		// walk, TestAccWalk_regressionSchemaGrantorIsOwner)
		if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+pgconn.QuoteIdent(owner)); err != nil {
			return fmt.Errorf("acting as role %q, the owner of schema %q: %w", owner, schema, err)
		}
		defer func() { _, _ = tx.Exec(ctx, "SET LOCAL ROLE "+pgconn.QuoteIdent(me)) }()
	}
	for _, p := range prev {
		if !slices.ContainsFunc(want, func(w SchemaGrant) bool { return w.Role == p.Role }) {
			privs, ok := revokedSchemaPrivileges(kept[p.Role])
			if !ok {
				continue // another resource of this apply states them all
			}
			if err := revokeSchemaGrant(ctx, tx, q, p, privs); err != nil {
				return fmt.Errorf("revoking privileges on schema %q from %s: %w", schema, schemaGrantee(p.Role), err)
			}
			if p.Role != "" && p.Role == owner {
				if _, err := tx.Exec(ctx, "GRANT ALL ON SCHEMA "+q+" TO "+schemaGrantee(p.Role)); err != nil {
					return fmt.Errorf("giving the owner %s of schema %q its privileges back: %w", schemaGrantee(p.Role), schema, err)
				}
			}
		}
	}
	for _, w := range want {
		g := schemaGrantee(w.Role)
		stmts := []string{"REVOKE ALL ON SCHEMA " + q + " FROM " + g}
		for _, p := range []struct {
			priv        string
			plain, with bool
		}{{"USAGE", w.Usage, w.UsageGrant}, {"CREATE", w.Create, w.CreateGrant}} {
			switch {
			case p.with:
				stmts = append(stmts, "GRANT "+p.priv+" ON SCHEMA "+q+" TO "+g+" WITH GRANT OPTION")
			case p.plain:
				stmts = append(stmts, "GRANT "+p.priv+" ON SCHEMA "+q+" TO "+g)
			}
		}
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("setting privileges on schema %q for %s: %w", schema, g, err)
			}
		}
	}
	return nil
}

// revokeSchemaGrant revokes every privilege on schema q (quoted) from p's
// role. A role of p.RoleOID renamed since the resource last read it (outside
// Terraform, or by this apply, perhaps while this runs) is found by that OID:
// the privileges went with it (found by the walk, seed 13501 step 31 as the
// managed admin on PostgreSQL 18: a policy block removed while its role,
// renamed outside Terraform, was renamed back). A role that no longer
// exists has nothing left to revoke.
func revokeSchemaGrant(ctx context.Context, tx pgx.Tx, q string, p SchemaGrant, privs string) error {
	if p.RoleOID == 0 || p.Role == "" {
		_, err := revokeStatement(ctx, tx, rolesGone(p.Role), "REVOKE "+privs+" ON SCHEMA "+q+" FROM "+schemaGrantee(p.Role))
		return err
	}
	var last error
	for try := 0; try < 3; try++ {
		name, err := followRole(ctx, tx, p.Role, p.RoleOID)
		if err != nil {
			return err
		}
		if name == "" {
			return nil
		}
		// a rename between the lookup and the revoke fails it (the role is not
		// gone): look again
		_, err = revokeStatement(ctx, tx, roleOIDsGone(p.RoleOID), "REVOKE "+privs+" ON SCHEMA "+q+" FROM "+pgconn.QuoteIdent(name))
		if err == nil || !undefinedName(err) {
			return err
		}
		last = err
	}
	return last
}

// revokedSchemaPrivileges is what the revoke of a policy block removed from
// the configuration takes, given the privileges kept (claimSchemaGrants):
// "ALL" when none is kept; ok false when every privilege is.
func revokedSchemaPrivileges(kept []string) (privs string, ok bool) {
	if len(kept) == 0 {
		return "ALL", true
	}
	var out []string
	for _, p := range []string{"USAGE", "CREATE"} {
		if !slices.ContainsFunc(kept, func(k string) bool { return k == ClaimAll || strings.EqualFold(k, p) }) {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", "), len(out) > 0
}

// schemaGrantFactKey is the fact (pg/claims.go) of what grantee role (""
// PUBLIC) holds on schema: the fact of a postgresql_grant of object_type
// schema, which a policy block of postgresql_schema states as well.
func schemaGrantFactKey(db, schema, role string) string {
	if role == "" {
		role = PublicGrantee
	}
	return GrantTarget{Database: db, Schema: schema, ObjectType: ObjSchema, Grantee: role}.FactKey()
}

// claimSchemaGrants claims, while the policy blocks of a schema are
// written, what each grantee of want holds on the schema (the block states
// all of it), and retracts what the grantees of prev no longer listed hold.
// A fact can move between a block and a postgresql_grant (or
// postgresql_grant_additive) in one apply, and the two write in no particular
// order: a grant moved off PUBLIC revoked what a new PUBLIC block had just
// granted (found by the walk, seed 22500 step 23 on PostgreSQL 18,
// TestAccWalk_regressionSchemaPolicyBesideGrantMoved). kept are, by role, the
// privileges another resource of this apply states for a grantee whose
// block was removed (ClaimAll: all of them), which its revoke leaves alone.
// The facts are taken in the order of their keys, as ClaimMove takes its two.
func (c *Client) claimSchemaGrants(db, schema string, prev, want []SchemaGrant) (kept map[string][]string, release func()) {
	if c.claims == nil || db == "" {
		return nil, func() {}
	}
	type fact struct {
		role  string
		claim bool
	}
	facts := map[string]fact{}
	for _, p := range prev {
		facts[schemaGrantFactKey(db, schema, p.Role)] = fact{role: p.Role}
	}
	for _, w := range want {
		facts[schemaGrantFactKey(db, schema, w.Role)] = fact{role: w.Role, claim: true}
	}
	var releases []func()
	kept = map[string][]string{}
	for _, key := range slices.Sorted(maps.Keys(facts)) {
		f := facts[key]
		if f.claim {
			releases = append(releases, c.Claim(key))
			continue
		}
		claimed, rel := c.Retract(key)
		releases = append(releases, rel)
		whole, privs := ClaimedPrivileges(claimed)
		if len(whole) > 0 {
			kept[f.role] = []string{ClaimAll}
			continue
		}
		for _, ps := range privs {
			for p := range ps {
				kept[f.role] = append(kept[f.role], p)
			}
		}
	}
	return kept, func() {
		for i := len(releases) - 1; i >= 0; i-- {
			releases[i]()
		}
	}
}

func lockSchema(ctx context.Context, tx pgx.Tx, name string) error {
	var oid uint32
	err := tx.QueryRow(ctx, "SELECT oid FROM pg_namespace WHERE nspname = $1", name).Scan(&oid)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return pgconn.LockObjects(ctx, tx, []pgconn.AdvisoryLockKey{{ClassID: ClassNamespace, ObjID: oid}})
}

// CreateSchema creates a schema in database db in one transaction (with
// ifNotExists an existing schema is adopted and given the wanted owner).
func (c *Client) CreateSchema(ctx context.Context, db string, s SchemaSpec, ifNotExists bool) error {
	_, release := c.claimSchemaGrants(cmp.Or(db, c.DefaultDatabase()), s.Name, nil, s.Grants)
	defer release()
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var curOwner string
		if ifNotExists {
			_ = tx.QueryRow(ctx, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1", s.Name).Scan(&curOwner)
		}
		// CREATE SCHEMA needs CREATE on the database, even for a schema that exists
		dbo, err := createLender(ctx, tx)
		if err != nil {
			return err
		}
		granted, err := borrowRoles(ctx, tx, s.Owner, curOwner, dbo)
		if err != nil {
			return err
		}
		stmt := "CREATE SCHEMA "
		if ifNotExists {
			stmt += "IF NOT EXISTS "
		}
		stmt += pgconn.QuoteIdent(s.Name)
		if s.Owner != "" {
			stmt += " AUTHORIZATION " + pgconn.QuoteIdent(s.Owner)
		}
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("creating schema %q in database %q: %w", s.Name, db, err)
		}
		if curOwner != "" && s.Owner != "" && curOwner != s.Owner {
			if _, err := tx.Exec(ctx, "ALTER SCHEMA "+pgconn.QuoteIdent(s.Name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner)); err != nil {
				return fmt.Errorf("changing the owner of existing schema %q: %w", s.Name, err)
			}
		}
		if err := applySchemaGrants(ctx, tx, s.Name, nil, s.Grants, nil); err != nil {
			return err
		}
		return returnRoles(ctx, tx, granted)
	})
}

// UpdateSchema renames (when oldName differs), changes the owner of and sets
// the grants on a schema of database db in one transaction.
func (c *Client) UpdateSchema(ctx context.Context, db, oldName string, s SchemaSpec, prevGrants []SchemaGrant) error {
	var kept map[string][]string
	if s.Grants != nil {
		var release func()
		kept, release = c.claimSchemaGrants(cmp.Or(db, c.DefaultDatabase()), s.Name, prevGrants, s.Grants)
		defer release()
	}
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		if err := lockSchema(ctx, tx, oldName); err != nil {
			return err
		}
		cur, err := readSchema(ctx, tx, "WHERE n.nspname = $1", oldName)
		if err != nil {
			return err
		}
		if cur == nil {
			return fmt.Errorf("schema %q does not exist in database %q", oldName, db)
		}
		var dbo string
		if oldName != s.Name || (s.Owner != "" && s.Owner != cur.Owner) {
			// renaming and giving away need CREATE on the database
			if dbo, err = createLender(ctx, tx); err != nil {
				return err
			}
		}
		granted, err := borrowRoles(ctx, tx, cur.Owner, s.Owner, dbo)
		if err != nil {
			return err
		}
		if oldName != s.Name {
			if _, err := tx.Exec(ctx, "ALTER SCHEMA "+pgconn.QuoteIdent(oldName)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
				return fmt.Errorf("renaming schema %q to %q: %w", oldName, s.Name, err)
			}
		}
		if s.Owner != "" && s.Owner != cur.Owner {
			if _, err := tx.Exec(ctx, "ALTER SCHEMA "+pgconn.QuoteIdent(s.Name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner)); err != nil {
				return fmt.Errorf("changing the owner of schema %q: %w", s.Name, err)
			}
		}
		if s.Grants != nil {
			if err := applySchemaGrants(ctx, tx, s.Name, prevGrants, s.Grants, kept); err != nil {
				return err
			}
		}
		return returnRoles(ctx, tx, granted)
	})
}

// DropSchema drops a schema of database db; a missing schema or database is not an error.
func (c *Client) DropSchema(ctx context.Context, db, name string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var owner string
		err := tx.QueryRow(ctx, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1", name).Scan(&owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := lockSchema(ctx, tx, name); err != nil {
			return err
		}
		granted, err := borrowRoles(ctx, tx, owner)
		if err != nil {
			return err
		}
		stmt := "DROP SCHEMA IF EXISTS " + pgconn.QuoteIdent(name)
		if cascade {
			stmt += " CASCADE"
		}
		if _, err := tx.Exec(ctx, stmt); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeDependentObjects {
				return fmt.Errorf("schema %q in database %q is not empty; drop its objects first or set drop_cascade = true: %w", name, db, err)
			}
			return fmt.Errorf("dropping schema %q in database %q: %w", name, db, err)
		}
		return returnRoles(ctx, tx, granted)
	})
	if IsMissingDatabase(err) {
		return nil
	}
	return err
}

// SchemaContents is what a schema holds, as far as dropping it is concerned.
type SchemaContents struct {
	// Objects counts relations (not indexes), functions and procedures, and
	// standalone types that do not belong to an extension.
	Objects int
	// Extensions lists the extensions installed in the schema: their member
	// objects go with them, and the schema can only be dropped after them.
	Extensions []string
	// Lasting counts the objects (a subset of Objects) that stay in the schema
	// whatever else a destroy drops (see lastingObjects), and LastingNames
	// names the first few, e.g. `table "orders"`.
	Lasting      int
	LastingNames []string
}

// lastingObjects selects (kind, name) of the objects of schema $1 that no
// DROP of a function, extension, foreign server or other schema can take
// with it: the provider manages those kinds, so a destroy may drop them before
// the schema (a view or domain may use a function; a foreign table belongs to
// its server; a typed table goes with its type; a partition or inheritance
// child goes with a parent elsewhere). Left are plain and partitioned tables
// and enum types, and sequences no column owns, outside extensions. filter is
// a condition appended to each branch, written on c.relnamespace and
// c.relowner (the type's branch gets typnamespace and typowner).
func lastingObjects(filter string) string {
	return `
WITH members AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
SELECT 'table', c.relnamespace, c.relname::text, c.relowner FROM pg_class c
 WHERE c.relkind IN ('r', 'p') AND c.reloftype = 0 AND NOT c.relispartition
   AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
                   WHERE i.inhrelid = c.oid AND p.relnamespace <> c.relnamespace)
   AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_class'::regclass AND m.objid = c.oid) ` + filter + `
UNION ALL
SELECT 'sequence', c.relnamespace, c.relname::text, c.relowner FROM pg_class c
 WHERE c.relkind = 'S'
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                   AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
   AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_class'::regclass AND m.objid = c.oid) ` + filter + `
UNION ALL
SELECT 'type', t.typnamespace, t.typname::text, t.typowner FROM pg_type t
 WHERE t.typtype = 'e'
   AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_type'::regclass AND m.objid = t.oid) ` +
		strings.NewReplacer("c.relnamespace", "t.typnamespace", "c.relowner", "t.typowner").Replace(filter)
}

// lastingSummary counts what a lastingObjects query selects (columns kind,
// namespace, name, owner) and names the first few: `table "s"."t"` (with
// their schema when qualify).
func lastingSummary(ctx context.Context, q Querier, query string, qualify bool, args ...any) (int, []string, error) {
	var n int
	var names []string
	err := q.QueryRow(ctx, `
WITH o(kind, nsp, name, owner) AS (`+query+`)
SELECT count(*), coalesce((SELECT array_agg(x) FROM (
  SELECT o.kind || ' ' || CASE WHEN $`+fmt.Sprint(len(args)+1)+` THEN quote_ident(n.nspname) || '.' ELSE '' END || quote_ident(o.name) AS x
  FROM o JOIN pg_namespace n ON n.oid = o.nsp ORDER BY 1 LIMIT 5) f), '{}')
FROM o`, append(args, qualify)...).Scan(&n, &names)
	return n, names, err
}

// CountSchemaObjects reports what schema oid of database db holds.
func (c *Client) CountSchemaObjects(ctx context.Context, db string, oid uint32) (SchemaContents, error) {
	var sc SchemaContents
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		if err := q.QueryRow(ctx, `
WITH members AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
SELECT (SELECT count(*) FROM pg_class c WHERE relnamespace = $1 AND relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
          AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_class'::regclass AND m.objid = c.oid))
     + (SELECT count(*) FROM pg_proc p WHERE pronamespace = $1
          AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_proc'::regclass AND m.objid = p.oid))
     + (SELECT count(*) FROM pg_type t WHERE typnamespace = $1
          AND (typtype IN ('d', 'e', 'r', 'm') OR (typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
          AND NOT EXISTS (SELECT 1 FROM members m WHERE m.classid = 'pg_type'::regclass AND m.objid = t.oid)),
       array(SELECT extname::text FROM pg_extension WHERE extnamespace = $1 ORDER BY 1)`, oid).Scan(&sc.Objects, &sc.Extensions); err != nil {
			return err
		}
		var err error
		sc.Lasting, sc.LastingNames, err = lastingSummary(ctx, q, lastingObjects("AND c.relnamespace = $1"), false, oid)
		return err
	})
	return sc, err
}
