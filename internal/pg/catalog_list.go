package pg

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// NameFilter filters object names with LIKE patterns and a regular
// expression. Every pattern travels as a bind parameter; empty lists and an
// empty regex do not filter.
type NameFilter struct {
	LikeAny    []string
	LikeAll    []string
	NotLikeAll []string
	Regex      string
}

func (f NameFilter) args() []any {
	var re any
	if f.Regex != "" {
		re = f.Regex
	}
	return []any{emptyNil(f.LikeAny), emptyNil(f.LikeAll), emptyNil(f.NotLikeAll), re}
}

// nameFilterSQL is the WHERE fragment for column col using parameters $1..$4.
func nameFilterSQL(col string) string {
	return fmt.Sprintf(`($1::text[] IS NULL OR %[1]s LIKE ANY ($1::text[]))
  AND ($2::text[] IS NULL OR %[1]s LIKE ALL ($2::text[]))
  AND ($3::text[] IS NULL OR %[1]s NOT LIKE ALL ($3::text[]))
  AND ($4::text IS NULL OR %[1]s ~ $4::text)`, col)
}

// ListSchemas lists the schemas of database db matching f, sorted. System
// schemas (pg_* and information_schema) are left out unless includeSystem.
func (c *Client) ListSchemas(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT nspname::text FROM pg_namespace
WHERE `+nameFilterSQL("nspname::text")+`
  AND ($5::bool OR (nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'))
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// SchemaObject is one row of the postgresql_tables and _sequences data
// sources: an object in a schema, and its kind (what that is depends on the
// list: a table's information_schema table_type, a sequence's data type).
type SchemaObject struct {
	Schema string
	Name   string
	Kind   string
}

func scanSchemaObject(r pgx.CollectableRow) (SchemaObject, error) {
	var o SchemaObject
	return o, r.Scan(&o.Schema, &o.Name, &o.Kind)
}

// ListTables lists the tables of database db (those information_schema.tables
// shows the connected role) matching f, in the given schemas (all but the
// system schemas when empty) and of the given table types (all when empty).
// Their kind is the table type: BASE TABLE, VIEW, FOREIGN, LOCAL TEMPORARY.
func (c *Client) ListTables(ctx context.Context, db string, f NameFilter, schemas, tableTypes []string) ([]SchemaObject, error) {
	return listRows(ctx, c, db, scanSchemaObject, `
SELECT table_schema::text, table_name::text, table_type::text FROM information_schema.tables
WHERE `+nameFilterSQL("table_name::text")+`
  AND (CASE WHEN $5::text[] IS NULL THEN table_schema NOT IN ('pg_catalog', 'information_schema') ELSE table_schema = ANY ($5::text[]) END)
  AND ($6::text[] IS NULL OR table_type = ANY ($6::text[]))
ORDER BY 1, 2`, append(f.args(), emptyNil(schemas), emptyNil(tableTypes))...)
}

// ListSequences lists the sequences of database db (those
// information_schema.sequences shows the connected role) matching f, in the
// given schemas (all when empty). Their kind is the data type.
func (c *Client) ListSequences(ctx context.Context, db string, f NameFilter, schemas []string) ([]SchemaObject, error) {
	return listRows(ctx, c, db, scanSchemaObject, `
SELECT sequence_schema::text, sequence_name::text, data_type::text FROM information_schema.sequences
WHERE `+nameFilterSQL("sequence_name::text")+`
  AND ($5::text[] IS NULL OR sequence_schema = ANY ($5::text[]))
ORDER BY 1, 2`, append(f.args(), emptyNil(schemas))...)
}

func emptyNil(s []string) any {
	if len(s) == 0 {
		return nil
	}
	return s
}

// ListRoleNames lists the roles matching f, sorted. PostgreSQL's predefined
// roles (pg_*) are left out unless includeSystem.
func (c *Client) ListRoleNames(ctx context.Context, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, "", `
SELECT rolname::text FROM pg_roles
WHERE `+nameFilterSQL("rolname::text")+`
  AND ($5::bool OR rolname NOT LIKE 'pg\_%')
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// ListDatabaseNames lists the databases matching f, sorted. template0 and
// template1 are left out unless includeSystem.
func (c *Client) ListDatabaseNames(ctx context.Context, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, "", `
SELECT datname::text FROM pg_database
WHERE `+nameFilterSQL("datname::text")+`
  AND ($5::bool OR datname NOT IN ('template0', 'template1'))
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// ListExtensionNames lists the extensions installed in database db matching
// f, sorted. plpgsql (installed in every database) is left out unless
// includeSystem.
func (c *Client) ListExtensionNames(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT extname::text FROM pg_extension
WHERE `+nameFilterSQL("extname::text")+`
  AND ($5::bool OR extname <> 'plpgsql')
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// listNames runs a query of one text column in database db (read-only).
func (c *Client) listNames(ctx context.Context, db, query string, args ...any) ([]string, error) {
	return listRows(ctx, c, db, pgx.RowTo[string], query, args...)
}

// listRows runs a query in database db (read-only) and scans its rows.
func listRows[T any](ctx context.Context, c *Client, db string, scan pgx.RowToFunc[T], query string, args ...any) ([]T, error) {
	var out []T
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, scan)
		return err
	})
	return out, err
}

// ListPublicationNames lists the publications of database db matching f, sorted.
func (c *Client) ListPublicationNames(ctx context.Context, db string, f NameFilter) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT pubname::text FROM pg_publication
WHERE `+nameFilterSQL("pubname::text")+`
ORDER BY 1`, f.args()...)
}

// ListSubscriptionNames lists the subscriptions of database db matching f,
// sorted (pg_subscription's names are readable by every role).
func (c *Client) ListSubscriptionNames(ctx context.Context, db string, f NameFilter) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT subname::text FROM pg_subscription
WHERE subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND `+nameFilterSQL("subname::text")+`
ORDER BY 1`, f.args()...)
}

// ListedFunction names one function: its schema, name and input argument
// types as PostgreSQL renders them (format_type).
type ListedFunction struct {
	Schema, Name string
	InputTypes   []string
}

// ListFunctions lists the functions (prokind 'f': not procedures, aggregates
// or window functions) of database db whose names match f, in schema (every
// schema when ""), sorted. Unless includeSystem, the system schemas (pg_*,
// information_schema) and the members of extensions are left out.
func (c *Client) ListFunctions(ctx context.Context, db, schema string, f NameFilter, includeSystem bool) ([]ListedFunction, error) {
	return listRows(ctx, c, db, func(r pgx.CollectableRow) (ListedFunction, error) {
		var s ListedFunction
		return s, r.Scan(&s.Schema, &s.Name, &s.InputTypes)
	}, `
SELECT n.nspname::text, p.proname::text,
       array(SELECT format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, ord) ORDER BY ord)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.prokind = 'f'
  AND `+nameFilterSQL("p.proname::text")+`
  AND ($5::text IS NULL OR n.nspname = $5)
  AND ($6::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')))
ORDER BY 1, 2, p.oid`, append(f.args(), emptyNilString(schema), includeSystem)...)
}

// MembershipFilter selects role memberships: LIKE patterns and POSIX regular
// expressions on the member (Role) and the granted role (GrantRole); empty
// values do not filter. Every value travels as a bind parameter.
type MembershipFilter struct {
	Role, GrantRole           string
	RoleRegex, GrantRoleRegex string
	// IncludeSystem also lists the memberships of reserved roles (pg_*, the
	// managed services' roles) and those PostgreSQL 16+ gives a CREATEROLE
	// role in the roles it creates.
	IncludeSystem bool
}

// Membership is one (member, granted role) pair.
type Membership struct {
	Role, GrantRole string
}

// reservedRoleRegex matches the names reservedRole reports.
const reservedRoleRegex = `^(pg_|rds|cloudsql|azure)`

// ListMemberships lists the role memberships matching f, one per (member,
// granted role) pair (PostgreSQL 16+ keeps one row per grantor), sorted. By
// default it leaves out memberships whose member is a reserved role (such as
// pg_monitor's in pg_read_all_stats), memberships in a managed service's
// reserved roles, and on PostgreSQL 16+ the membership with ADMIN OPTION
// that a non-superuser CREATEROLE role receives, from the bootstrap
// superuser, in each role it creates; memberships of ordinary roles in
// predefined roles (pg_read_all_data) are listed.
func (c *Client) ListMemberships(ctx context.Context, f MembershipFilter) ([]Membership, error) {
	return listRows(ctx, c, "", func(r pgx.CollectableRow) (Membership, error) {
		var m Membership
		return m, r.Scan(&m.Role, &m.GrantRole)
	}, `
SELECT r.rolname::text, g.rolname::text
FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid
WHERE ($1::text IS NULL OR r.rolname::text LIKE $1)
  AND ($2::text IS NULL OR g.rolname::text LIKE $2)
  AND ($3::text IS NULL OR r.rolname::text ~ $3)
  AND ($4::text IS NULL OR g.rolname::text ~ $4)
  AND ($5::bool OR (r.rolname !~ $6 AND (g.rolname LIKE 'pg\_%' OR g.rolname !~ $6)))
GROUP BY 1, 2
HAVING $5::bool OR current_setting('server_version_num')::int < 160000
    OR NOT bool_and(m.grantor = 10 AND m.admin_option AND r.rolcreaterole AND NOT r.rolsuper)
ORDER BY 1, 2`, emptyNilString(f.Role), emptyNilString(f.GrantRole), emptyNilString(f.RoleRegex), emptyNilString(f.GrantRoleRegex),
		f.IncludeSystem, reservedRoleRegex)
}

// DefaultPrivilegesFilter selects default privileges entries; empty values
// do not filter. Schema "" keeps both global and per-schema entries.
type DefaultPrivilegesFilter struct {
	Owner, Schema, ObjectType string
}

// ListDefaultPrivileges lists the (owner, schema, object type, grantee)
// entries of pg_default_acl in database db that postgresql_default_privileges
// manages, sorted: every grantee of a per-schema entry, and the grantees of a
// global entry whose privileges differ from PostgreSQL's built-in defaults
// (acldefault: the owner's own privileges, PUBLIC's EXECUTE on functions and
// USAGE on types), including a built-in grantee left with none (a `REVOKE
// EXECUTE ON FUNCTIONS FROM PUBLIC`). Grantee PUBLIC is "public"; the schema
// of a global entry is "". Object types the resource does not know (large
// objects) are left out.
func (c *Client) ListDefaultPrivileges(ctx context.Context, db string, f DefaultPrivilegesFilter) ([]DefaultPrivilegesTarget, error) {
	return listRows(ctx, c, db, func(r pgx.CollectableRow) (DefaultPrivilegesTarget, error) {
		t := DefaultPrivilegesTarget{Database: db}
		return t, r.Scan(&t.Owner, &t.Schema, &t.ObjectType, &t.Grantee)
	}, `
WITH d AS (
  SELECT d.defaclrole, d.defaclnamespace, d.defaclacl,
         CASE d.defaclobjtype WHEN 'r' THEN 'table' WHEN 'S' THEN 'sequence' WHEN 'f' THEN 'function'
                              WHEN 'T' THEN 'type' WHEN 'n' THEN 'schema' WHEN 'L' THEN 'large_object' END AS objtype,
         CASE WHEN d.defaclnamespace = 0
              THEN acldefault(CASE d.defaclobjtype WHEN 'S' THEN 's' ELSE d.defaclobjtype END, d.defaclrole) END AS builtin
  FROM pg_default_acl d
  WHERE d.defaclobjtype IN ('r', 'S', 'f', 'T', 'n', 'L')
), e AS (
  SELECT d.defaclrole, d.defaclnamespace, d.objtype, a.grantee, a.privilege_type || ':' || a.is_grantable::text AS p, false AS builtin
  FROM d, aclexplode(d.defaclacl) a
  UNION ALL
  SELECT d.defaclrole, d.defaclnamespace, d.objtype, a.grantee, a.privilege_type || ':' || a.is_grantable::text, true
  FROM d, aclexplode(d.builtin) a
), g AS (
  SELECT defaclrole, defaclnamespace, objtype, grantee
  FROM e GROUP BY 1, 2, 3, 4
  HAVING coalesce(array_agg(p ORDER BY p) FILTER (WHERE NOT builtin), '{}') IS DISTINCT FROM coalesce(array_agg(p ORDER BY p) FILTER (WHERE builtin), '{}')
)
SELECT o.rolname::text, coalesce(n.nspname::text, ''), g.objtype,
       CASE WHEN g.grantee = 0 THEN 'public' ELSE pg_get_userbyid(g.grantee)::text END
FROM g JOIN pg_roles o ON o.oid = g.defaclrole LEFT JOIN pg_namespace n ON n.oid = g.defaclnamespace
WHERE ($1::text IS NULL OR o.rolname = $1)
  AND ($2::text IS NULL OR n.nspname = $2)
  AND ($3::text IS NULL OR g.objtype = $3)
ORDER BY 1, 2, 3, 4`, emptyNilString(f.Owner), emptyNilString(f.Schema), emptyNilString(f.ObjectType))
}

func emptyNilString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
