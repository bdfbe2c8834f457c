package pg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Listing grants the way people write them (postgresql_grant's list
// resource). A fact is what one grantee holds on one object (or column); it
// is listed when it differs from what the object had when it was created:
// its initial privileges (pg_init_privs: what initdb and extension scripts
// granted, such as PUBLIC's USAGE on schema public) or, without those,
// PostgreSQL's built-in ones (acldefault: the owner's, PUBLIC's CONNECT and
// TEMPORARY on databases, EXECUTE on routines, USAGE on types and
// languages). An owner's own privileges come with ownership and are never
// listed (postgresql_grant ignores the objects its grantee owns).
//
// The facts are then grouped as GRANT statements are written: one grant per
// grantee, object type, schema, privilege set and grant option. A grantee
// holding the same privileges on every object of a type in a schema (the
// objects it owns aside) gets the "all objects in the schema" form (no
// objects), which postgresql_grant reads again over every object at each
// refresh; otherwise the objects are named. PUBLIC left without its built-in
// privileges comes out with what it keeps, none included.

// GrantListFilter selects the grants ListGrants lists; empty values do not
// filter.
type GrantListFilter struct {
	// Grantee is a LIKE pattern on the grantee's name ("public" for PUBLIC).
	Grantee    string
	Schema     string
	ObjectType string // one of ListedGrantObjectTypes
	// IncludeSystem also lists grants on the objects of the system schemas
	// (pg_*, information_schema) and on those schemas.
	IncludeSystem bool
	// ClusterWide also lists the grants on tablespaces and configuration
	// parameters, objects of the cluster rather than of the database.
	ClusterWide bool
	// ExplicitObjects never uses the all-objects-in-the-schema form.
	ExplicitObjects bool
}

// ListedGrantObjectTypes are the object types grants are listed as:
// functions, aggregates and window functions as function, procedures as
// procedure (never routine), types and domains as type (never domain).
var ListedGrantObjectTypes = []string{ObjDatabase, ObjSchema, ObjTable, ObjSequence, ObjFunction, ObjProcedure, ObjColumn,
	ObjType, ObjLanguage, ObjFDW, ObjServer, ObjLargeObj, ObjTablespace, ObjParameter}

// ListedGrant is one postgresql_grant as ListGrants lists it: the
// attributes that name it (its identity). Objects is empty for a database
// or schema grant and for the all-objects-in-the-schema form; Schema is ""
// for the object types that take none.
type ListedGrant struct {
	Grantee, Database, Schema, ObjectType string
	Objects, Columns                      []string
	// Privileges and Grantable are what the grantee holds (for display).
	Privileges, Grantable []string
}

// aclFact is what one grantee holds on one object: privileges and those it
// may grant, sorted.
type aclFact struct {
	held, grantable []string
}

func (f aclFact) key() string {
	return strings.Join(f.held, ",") + "|" + strings.Join(f.grantable, ",")
}

// aclListedObject is one object of the listing with its privileges by
// grantee, now and at creation.
type aclListedObject struct {
	objectType, schema, name, column, owner string
	now, initial                            map[string]aclFact
}

// grantListQuery lists every object a grant can name in the database: its
// postgresql_grant object type, schema ("" for none), name (a routine with
// its argument types, as postgresql_grant's objects take it), column, owner,
// and its ACL now and at creation, exploded into grantee names ("public"),
// privileges and grant options. $1: include the system schemas; $2: include
// tablespaces and parameters; $3: PostgreSQL 15 or later (pg_parameter_acl).
const grantListQuery = `
WITH o AS (
  SELECT 'database' AS t, '' AS s, d.datname::text AS n, '' AS c, d.datdba AS owner,
         coalesce(d.datacl, acldefault('d', d.datdba)) AS acl, acldefault('d', d.datdba) AS init
  FROM pg_database d WHERE d.datname = current_database()
  UNION ALL
  SELECT 'schema', n.nspname::text, n.nspname::text, '', n.nspowner, coalesce(n.nspacl, acldefault('n', n.nspowner)),
         coalesce(i.initprivs, acldefault('n', n.nspowner))
  FROM pg_namespace n LEFT JOIN pg_init_privs i ON i.classoid = 'pg_namespace'::regclass AND i.objoid = n.oid AND i.objsubid = 0
  WHERE $1::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema')
  UNION ALL
  SELECT CASE WHEN c.relkind = 'S' THEN 'sequence' ELSE 'table' END, n.nspname::text, c.relname::text, '', c.relowner,
         coalesce(c.relacl, acldefault(CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END::"char", c.relowner)),
         coalesce(i.initprivs, acldefault(CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END::"char", c.relowner))
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_init_privs i ON i.classoid = 'pg_class'::regclass AND i.objoid = c.oid AND i.objsubid = 0
  WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p', 'S')
    AND ($1::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'))
  UNION ALL
  SELECT 'column', n.nspname::text, c.relname::text, a.attname::text, c.relowner, a.attacl, i.initprivs
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_init_privs i ON i.classoid = 'pg_class'::regclass AND i.objoid = c.oid AND i.objsubid = a.attnum
  WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND a.attnum > 0 AND NOT a.attisdropped
    AND (a.attacl IS NOT NULL OR i.initprivs IS NOT NULL)
    AND ($1::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'))
  UNION ALL
  SELECT CASE WHEN p.prokind = 'p' THEN 'procedure' ELSE 'function' END, n.nspname::text,
         p.proname::text || '(' || array_to_string(array(SELECT format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS x(t, ord) ORDER BY ord), ', ') || ')',
         '', p.proowner, coalesce(p.proacl, acldefault('f', p.proowner)), coalesce(i.initprivs, acldefault('f', p.proowner))
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  LEFT JOIN pg_init_privs i ON i.classoid = 'pg_proc'::regclass AND i.objoid = p.oid AND i.objsubid = 0
  WHERE $1::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema')
  UNION ALL
  SELECT 'type', n.nspname::text, t.typname::text, '', t.typowner, coalesce(t.typacl, acldefault('T', t.typowner)), coalesce(i.initprivs, acldefault('T', t.typowner))
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
  LEFT JOIN pg_init_privs i ON i.classoid = 'pg_type'::regclass AND i.objoid = t.oid AND i.objsubid = 0
  WHERE t.typtype IN ('b', 'c', 'd', 'e', 'r', 'm')
    AND (t.typtype <> 'c' OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
    AND NOT (t.typcategory = 'A' AND t.typelem <> 0)
    AND ($1::bool OR (n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'))
  UNION ALL
  SELECT 'language', '', l.lanname::text, '', l.lanowner, coalesce(l.lanacl, acldefault('l', l.lanowner)), coalesce(i.initprivs, acldefault('l', l.lanowner))
  FROM pg_language l LEFT JOIN pg_init_privs i ON i.classoid = 'pg_language'::regclass AND i.objoid = l.oid AND i.objsubid = 0
  UNION ALL
  SELECT 'foreign_data_wrapper', '', f.fdwname::text, '', f.fdwowner, coalesce(f.fdwacl, acldefault('F', f.fdwowner)), coalesce(i.initprivs, acldefault('F', f.fdwowner))
  FROM pg_foreign_data_wrapper f LEFT JOIN pg_init_privs i ON i.classoid = 'pg_foreign_data_wrapper'::regclass AND i.objoid = f.oid AND i.objsubid = 0
  UNION ALL
  SELECT 'foreign_server', '', f.srvname::text, '', f.srvowner, coalesce(f.srvacl, acldefault('S', f.srvowner)), coalesce(i.initprivs, acldefault('S', f.srvowner))
  FROM pg_foreign_server f LEFT JOIN pg_init_privs i ON i.classoid = 'pg_foreign_server'::regclass AND i.objoid = f.oid AND i.objsubid = 0
  UNION ALL
  SELECT 'large_object', '', l.oid::text, '', l.lomowner, coalesce(l.lomacl, acldefault('L', l.lomowner)), acldefault('L', l.lomowner)
  FROM pg_largeobject_metadata l WHERE l.lomacl IS NOT NULL
  UNION ALL
  SELECT 'tablespace', '', s.spcname::text, '', s.spcowner, coalesce(s.spcacl, acldefault('t', s.spcowner)), acldefault('t', s.spcowner)
  FROM pg_tablespace s WHERE $2::bool
  PARAMETERS
)
-- aclexplode refuses an empty ACL ('{}', as REVOKE can leave one): none is NULL
, e AS (
  SELECT o.t, o.s, o.n, o.c, o.owner,
         CASE WHEN cardinality(o.acl) > 0 THEN o.acl END AS acl, CASE WHEN cardinality(o.init) > 0 THEN o.init END AS init
  FROM o
)
SELECT o.t, o.s, o.n, o.c, coalesce(pg_get_userbyid(o.owner)::text, ''),
       coalesce(array(SELECT CASE WHEN a.grantee = 0 THEN 'public' ELSE pg_get_userbyid(a.grantee)::text END FROM aclexplode(o.acl) a), '{}'),
       coalesce(array(SELECT a.privilege_type::text FROM aclexplode(o.acl) a), '{}'),
       coalesce(array(SELECT a.is_grantable FROM aclexplode(o.acl) a), '{}'),
       coalesce(array(SELECT CASE WHEN a.grantee = 0 THEN 'public' ELSE pg_get_userbyid(a.grantee)::text END FROM aclexplode(o.init) a), '{}'),
       coalesce(array(SELECT a.privilege_type::text FROM aclexplode(o.init) a), '{}'),
       coalesce(array(SELECT a.is_grantable FROM aclexplode(o.init) a), '{}')
FROM e o`

// grantListParameters adds the configuration parameters (PostgreSQL 15+);
// their owner is the bootstrap superuser, as postgresql_grant reads them.
const grantListParameters = `
  UNION ALL
  SELECT 'parameter', '', p.parname::text, '', 10::oid, coalesce(p.paracl, acldefault('p', 10::oid)), acldefault('p', 10::oid)
  FROM pg_parameter_acl p WHERE $2::bool`

// facts turns exploded ACL arrays into what each grantee holds.
func facts(grantees, privs []string, grantable []bool) map[string]aclFact {
	out := map[string]aclFact{}
	for i, g := range grantees {
		if i >= len(privs) || i >= len(grantable) {
			break
		}
		f := out[g]
		if !slices.Contains(f.held, privs[i]) {
			f.held = append(f.held, privs[i])
		}
		if grantable[i] && !slices.Contains(f.grantable, privs[i]) {
			f.grantable = append(f.grantable, privs[i])
		}
		out[g] = f
	}
	for g, f := range out {
		slices.Sort(f.held)
		slices.Sort(f.grantable)
		out[g] = f
	}
	return out
}

// ListGrants lists the grants of database db (and, with f.ClusterWide, of
// the cluster's tablespaces and parameters, named in db) as
// postgresql_grant resources, read-only in one query: see the comment at
// the top of this file. Sorted by schema, object type, grantee and objects.
func (c *Client) ListGrants(ctx context.Context, db string, f GrantListFilter) ([]ListedGrant, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, err
	}
	query := grantListQuery
	params := ""
	if caps.AtLeast(15) {
		params = grantListParameters
	}
	query = strings.Replace(query, "  PARAMETERS\n", params+"\n", 1)
	objs, err := listRows(ctx, c, db, func(r pgx.CollectableRow) (aclListedObject, error) {
		var o aclListedObject
		var g, p, ig, ip []string
		var gr, igr []bool
		if err := r.Scan(&o.objectType, &o.schema, &o.name, &o.column, &o.owner, &g, &p, &gr, &ig, &ip, &igr); err != nil {
			return o, err
		}
		o.now, o.initial = facts(g, p, gr), facts(ig, ip, igr)
		return o, nil
	}, query, f.IncludeSystem, f.ClusterWide)
	if err != nil {
		return nil, fmt.Errorf("listing the grants of database %q: %w", db, err)
	}
	var like func(string) bool
	if f.Grantee != "" {
		var names []string
		// the LIKE pattern is matched by the server, once per grantee name
		seen := map[string]bool{}
		for _, o := range objs {
			for g := range o.now {
				if !seen[g] {
					seen[g] = true
					names = append(names, g)
				}
			}
			for g := range o.initial {
				if !seen[g] {
					seen[g] = true
					names = append(names, g)
				}
			}
		}
		matched, err := c.listNames(ctx, db, `SELECT n FROM unnest($1::text[]) AS n WHERE n LIKE $2`, names, f.Grantee)
		if err != nil {
			return nil, fmt.Errorf("listing the grants of database %q: %w", db, err)
		}
		like = func(g string) bool { return slices.Contains(matched, g) }
	}
	objs = slices.DeleteFunc(objs, func(o aclListedObject) bool {
		return (f.Schema != "" && o.schema != f.Schema) || (f.ObjectType != "" && o.objectType != f.ObjectType)
	})
	return groupGrants(db, objs, like, !f.ExplicitObjects), nil
}

// allInSchemaTypes are the object types with an all-objects-in-the-schema
// form.
var allInSchemaTypes = []string{ObjTable, ObjSequence, ObjFunction, ObjProcedure}

// groupGrants groups the facts of objs that differ from the objects'
// initial privileges into grants (see the top of this file); keep, when not
// nil, keeps the grantees it accepts. allInSchema allows the
// all-objects-in-the-schema form.
func groupGrants(db string, objs []aclListedObject, keep func(string) bool, allInSchema bool) []ListedGrant {
	// the objects of each (object type, schema), and of each table for columns
	type groupKey struct{ objectType, schema, table string }
	groups := map[groupKey][]aclListedObject{}
	var order []groupKey
	for _, o := range objs {
		k := groupKey{objectType: o.objectType, schema: o.schema}
		if o.objectType == ObjColumn {
			k.table = o.name
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], o)
	}
	var out []ListedGrant
	for _, k := range order {
		members := groups[k]
		// the grantees with a fact that differs, in a stable order
		var grantees []string
		seen := map[string]bool{}
		for _, o := range members {
			for _, m := range []map[string]aclFact{o.now, o.initial} {
				for g := range m {
					if !seen[g] {
						seen[g] = true
						grantees = append(grantees, g)
					}
				}
			}
		}
		slices.Sort(grantees)
		for _, g := range grantees {
			if keep != nil && !keep(g) {
				continue
			}
			owns := func(o aclListedObject) bool { return g != PublicGrantee && o.owner == g }
			var changed []aclListedObject
			for _, o := range members {
				if !owns(o) && o.now[g].key() != o.initial[g].key() {
					changed = append(changed, o)
				}
			}
			if len(changed) == 0 {
				continue
			}
			base := ListedGrant{Grantee: g, Database: db, ObjectType: k.objectType}
			if usesSchema(k.objectType) {
				base.Schema = k.schema
			}
			if allInSchema && slices.Contains(allInSchemaTypes, k.objectType) {
				// the same on every object of the type in the schema that g
				// does not own: the all-objects form
				var first *aclFact
				same := true
				for _, o := range members {
					if owns(o) {
						continue
					}
					f := o.now[g]
					if first == nil {
						first = &f
					} else if f.key() != first.key() {
						same = false
						break
					}
				}
				if same && first != nil {
					lg := base
					lg.Objects, lg.Privileges, lg.Grantable = []string{}, first.held, first.grantable
					out = append(out, lg)
					continue
				}
			}
			// otherwise one grant per privilege set and grant option
			byFact := map[string]*ListedGrant{}
			var factOrder []string
			for _, o := range changed {
				fk := o.now[g].key()
				lg, ok := byFact[fk]
				if !ok {
					n := base
					n.Objects, n.Columns, n.Privileges, n.Grantable = []string{}, []string{}, o.now[g].held, o.now[g].grantable
					lg = &n
					byFact[fk] = lg
					factOrder = append(factOrder, fk)
				}
				switch k.objectType {
				case ObjDatabase, ObjSchema:
				case ObjColumn:
					lg.Objects = []string{k.table}
					lg.Columns = append(lg.Columns, o.column)
				default:
					lg.Objects = append(lg.Objects, o.name)
				}
			}
			for _, fk := range factOrder {
				lg := byFact[fk]
				if lg.Privileges == nil {
					lg.Privileges = []string{}
				}
				slices.Sort(lg.Objects)
				slices.Sort(lg.Columns)
				out = append(out, *lg)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b ListedGrant) int {
		if c := strings.Compare(a.Schema, b.Schema); c != 0 {
			return c
		}
		if c := slices.Index(ListedGrantObjectTypes, a.ObjectType) - slices.Index(ListedGrantObjectTypes, b.ObjectType); c != 0 {
			return c
		}
		if c := strings.Compare(a.Grantee, b.Grantee); c != 0 {
			return c
		}
		return slices.Compare(append(slices.Clone(a.Objects), a.Columns...), append(slices.Clone(b.Objects), b.Columns...))
	})
	return out
}
