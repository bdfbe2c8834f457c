package pg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The listings of the list resources added for adopting whole clusters
// (catalog_list.go has the first ones). Each runs one read-only query.
// "System" objects, left out unless asked, are those initdb made (OID below
// 16384, FirstNormalObjectId), those in the system schemas (pg_*,
// information_schema) and the members of extensions (their script made
// them).

// systemSchemaSQL is true for a system schema's name in column col.
func systemSchemaSQL(col string) string {
	return "(" + col + " LIKE 'pg\\_%' OR " + col + " = 'information_schema')"
}

// extensionMemberSQL is true when the object (classid, oid) belongs to an
// extension.
func extensionMemberSQL(class, oid string) string {
	return "EXISTS (SELECT 1 FROM pg_depend x WHERE x.classid = '" + class + "'::regclass AND x.objid = " + oid + " AND x.deptype = 'e')"
}

// TableObject names an object of a table (a policy), or a table (Name "").
type TableObject struct {
	Schema, Table, Name string
}

// ListPolicies lists the row-level security policies of database db whose
// names match f, on tables of schema and named table (every one when ""),
// sorted by schema, table and name.
func (c *Client) ListPolicies(ctx context.Context, db, schema, table string, f NameFilter) ([]TableObject, error) {
	return listRows(ctx, c, db, func(r pgx.CollectableRow) (TableObject, error) {
		var o TableObject
		return o, r.Scan(&o.Schema, &o.Table, &o.Name)
	}, `
SELECT n.nspname::text, c.relname::text, p.polname::text
FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE `+nameFilterSQL("p.polname::text")+`
  AND ($5::text IS NULL OR n.nspname = $5) AND ($6::text IS NULL OR c.relname = $6)
ORDER BY 1, 2, 3`, append(f.args(), emptyNilString(schema), emptyNilString(table))...)
}

// ListRLSTables lists the tables of database db with row-level security
// enabled or forced, whose names match f, in schema (every schema when ""),
// sorted. Tables of the system schemas are left out.
func (c *Client) ListRLSTables(ctx context.Context, db, schema string, f NameFilter) ([]TableObject, error) {
	return listRows(ctx, c, db, func(r pgx.CollectableRow) (TableObject, error) {
		var o TableObject
		return o, r.Scan(&o.Schema, &o.Table)
	}, `
SELECT n.nspname::text, c.relname::text
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND (c.relrowsecurity OR c.relforcerowsecurity)
  AND `+nameFilterSQL("c.relname::text")+`
  AND ($5::text IS NULL OR n.nspname = $5) AND NOT `+systemSchemaSQL("n.nspname")+`
ORDER BY 1, 2`, append(f.args(), emptyNilString(schema))...)
}

// ListEventTriggerNames lists the event triggers of database db matching f,
// sorted; those of extensions only with includeSystem.
func (c *Client) ListEventTriggerNames(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT e.evtname::text FROM pg_event_trigger e
WHERE `+nameFilterSQL("e.evtname::text")+`
  AND ($5::bool OR NOT `+extensionMemberSQL("pg_event_trigger", "e.oid")+`)
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// ListServerNames lists the foreign servers of database db matching f,
// sorted; those of extensions only with includeSystem.
func (c *Client) ListServerNames(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT s.srvname::text FROM pg_foreign_server s
WHERE `+nameFilterSQL("s.srvname::text")+`
  AND ($5::bool OR NOT `+extensionMemberSQL("pg_foreign_server", "s.oid")+`)
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// UserMappingName names a user mapping: its server and its user ("public"
// for PUBLIC's).
type UserMappingName struct {
	Server, User string
}

// ListUserMappings lists the user mappings of database db, of servers and
// users matching the LIKE patterns server and user ("" matches every one;
// PUBLIC's mapping is "public"), sorted.
func (c *Client) ListUserMappings(ctx context.Context, db, server, user string) ([]UserMappingName, error) {
	return listRows(ctx, c, db, func(r pgx.CollectableRow) (UserMappingName, error) {
		var m UserMappingName
		return m, r.Scan(&m.Server, &m.User)
	}, `
SELECT srvname::text, CASE WHEN umuser = 0 THEN 'public' ELSE usename::text END
FROM pg_user_mappings
WHERE ($1::text IS NULL OR srvname::text LIKE $1)
  AND ($2::text IS NULL OR (CASE WHEN umuser = 0 THEN 'public' ELSE usename::text END) LIKE $2)
ORDER BY 1, 2`, emptyNilString(server), emptyNilString(user))
}

// ListReplicationSlots lists the permanent replication slots of the cluster
// matching f, sorted: the logical slots of database db, or with physical
// the physical slots. Unless includeSystem, the slots of subscriptions are
// left out: those named by a subscription of the cluster (its subscription
// owns the slot) and those subscriptions make for their table
// synchronisation (pg_*).
func (c *Client) ListReplicationSlots(ctx context.Context, db string, physical bool, f NameFilter, includeSystem bool) ([]string, error) {
	kind, slotDB := "logical", any(db)
	if physical {
		kind, slotDB = "physical", nil
	}
	return c.listNames(ctx, "", `
SELECT slot_name::text FROM pg_replication_slots
WHERE slot_type = $5 AND NOT temporary AND ($6::text IS NULL OR database = $6)
  AND `+nameFilterSQL("slot_name::text")+`
  AND ($7::bool OR (slot_name NOT LIKE 'pg\_%'
       AND slot_name NOT IN (SELECT subslotname FROM pg_subscription WHERE subslotname IS NOT NULL)))
ORDER BY 1`, append(f.args(), kind, slotDB, includeSystem)...)
}

// RoleSettingFilter selects the settings of roles for every database: LIKE
// and POSIX patterns on the role; empty values do not filter.
type RoleSettingFilter struct {
	Role, RoleRegex string
	// Exclude are parameters left out (lower case).
	Exclude []string
	// IncludeSystem also lists the settings of reserved roles (pg_*, the
	// managed services' roles).
	IncludeSystem bool
}

// ListRoleSettings lists the settings of roles for every database
// (`ALTER ROLE ... SET`, not `IN DATABASE`) as (role, parameter) pairs,
// parameters in lower case, sorted.
func (c *Client) ListRoleSettings(ctx context.Context, f RoleSettingFilter) ([]RoleSetting, error) {
	var out []RoleSetting
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, `
SELECT r.rolname::text, lower(split_part(c, '=', 1))
FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole, unnest(s.setconfig) c
WHERE s.setdatabase = 0
  AND ($1::text IS NULL OR r.rolname::text LIKE $1)
  AND ($2::text IS NULL OR r.rolname::text ~ $2)
  AND ($3::bool OR r.rolname !~ $4)
  AND NOT lower(split_part(c, '=', 1)) = ANY ($5::text[])
ORDER BY 1, 2`, emptyNilString(f.Role), emptyNilString(f.RoleRegex), f.IncludeSystem, reservedRoleRegex, append([]string{}, f.Exclude...))
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (RoleSetting, error) {
			var s RoleSetting
			return s, r.Scan(&s.Role, &s.Parameter)
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the settings of roles: %w", err)
	}
	return out, nil
}

// DescribedObject is an object with a comment or a security label, named as
// postgresql_comment and postgresql_security_label name it: its object type
// (COMMENT ON's spelling), schema ("" for an object in none), name (the
// table, for a column) and column.
type DescribedObject struct {
	ObjectType, Schema, Name, Column string
	// Provider is the label provider of a security label.
	Provider string
}

// DescribedObjectFilter selects the comments or labels listed.
type DescribedObjectFilter struct {
	// Names filters the objects' names (the table's, for a column).
	Names              NameFilter
	ObjectType, Schema string
	// Provider keeps the labels of this label provider.
	Provider string
	// ClusterWide also lists those of roles and tablespaces (cluster-wide
	// objects); the database's own is listed with the database.
	ClusterWide   bool
	IncludeSystem bool
}

// unqualifiedDescribedTypes are the object types of DescribedObject named
// without a schema.
const unqualifiedDescribedTypes = `('schema', 'role', 'database', 'tablespace', 'extension', 'event trigger', 'publication', 'subscription', 'language')`

// describedSQL names the object of each row of d (classoid, objoid,
// objsubid, text, provider) through pg_identify_object_as_address, mapped
// to COMMENT ON's object types: its names are [schema, name, column], or
// [name] for an object in no schema. Objects of other types (constraints,
// triggers, operators, ...) and routines whose name is not unique in their
// schema get none. $1 to $4: the name filter (on the object's name, the
// table's for a column), $5: object type, $6: schema, $7: include roles and
// tablespaces, $8: include system objects.
var describedSQL = `
, a AS (
  SELECT d.*,
         CASE WHEN d.classoid = 'pg_type'::regclass
              THEN CASE WHEN t.typtype = 'd' THEN 'domain' ELSE 'type' END ELSE x.type END AS type,
         CASE WHEN d.classoid = 'pg_type'::regclass THEN ARRAY[tn.nspname::text, t.typname::text] ELSE x.object_names END AS names,
         d.objoid < 16384 OR EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = d.classoid AND e.objid = d.objoid AND e.deptype = 'e') AS system
  FROM d CROSS JOIN LATERAL pg_identify_object_as_address(d.classoid, d.objoid, d.objsubid) x
  LEFT JOIN pg_type t ON d.classoid = 'pg_type'::regclass AND t.oid = d.objoid
  LEFT JOIN pg_namespace tn ON tn.oid = t.typnamespace
), n AS (
  SELECT a.*,
    CASE WHEN a.type IN ('table', 'view', 'materialized view', 'sequence', 'foreign table', 'index', 'type', 'domain') OR a.type IN ` + unqualifiedDescribedTypes + `
           THEN a.type
         WHEN a.type IN ('table column', 'view column', 'materialized view column', 'foreign table column', 'composite type column') THEN 'column'
         WHEN a.type IN ('function', 'procedure', 'aggregate')
              AND (SELECT count(*) FROM pg_proc p JOIN pg_namespace pn ON pn.oid = p.pronamespace WHERE pn.nspname = a.names[1] AND p.proname = a.names[2]) = 1
           THEN a.type
    END AS objtype,
    a.type IN ` + unqualifiedDescribedTypes + ` AS unqualified
  FROM a
)
SELECT n.objtype, CASE WHEN n.unqualified THEN '' ELSE n.names[1] END, n.name,
       CASE WHEN n.objtype = 'column' THEN n.names[3] ELSE '' END,
       n.provider
FROM (SELECT n.*, CASE WHEN n.unqualified THEN n.names[1] ELSE n.names[2] END AS name FROM n) n
WHERE n.objtype IS NOT NULL
  AND ` + nameFilterSQL("n.name") + `
  AND ($5::text IS NULL OR n.objtype = $5)
  AND ($6::text IS NULL OR n.names[1] = $6 AND (NOT n.unqualified OR n.objtype = 'schema'))
  AND (n.objtype <> 'database' OR n.names[1] = current_database())
  AND (n.objtype NOT IN ('role', 'tablespace') OR $7::bool)
  -- by name: pg_subscription.oid is superuser-only on PostgreSQL 13
  AND (n.objtype <> 'subscription' OR n.names[1] IN (SELECT s.subname::text FROM pg_subscription s JOIN pg_database sd ON sd.oid = s.subdbid WHERE sd.datname = current_database()))
  AND ($8::bool OR NOT (n.system
       OR ((NOT n.unqualified OR n.objtype = 'schema') AND (n.names[1] LIKE 'pg\_%' OR n.names[1] = 'information_schema'))
       OR (n.objtype = 'extension' AND n.text IS NOT DISTINCT FROM (SELECT comment FROM pg_available_extensions WHERE name = n.names[1]))))
ORDER BY 5, 1, 2, 3, 4`

// ListComments lists the comments of database db (and of the cluster's
// roles and tablespaces with f.ClusterWide) on the objects
// postgresql_comment manages, sorted. Unless f.IncludeSystem, comments on
// system objects are left out, and so is an extension's comment when it is
// the one its control file gives. Routines are named without arguments,
// as postgresql_comment names them: only those whose name is unique.
func (c *Client) ListComments(ctx context.Context, db string, f DescribedObjectFilter) ([]DescribedObject, error) {
	return c.listDescribed(ctx, db, `
WITH d AS (
  SELECT classoid, objoid, objsubid, description AS text, '' AS provider FROM pg_description
  UNION ALL
  SELECT classoid, objoid, 0, description, '' FROM pg_shdescription
)`, CommentObjectTypes, f)
}

// ListSecurityLabels lists the security labels of database db (and of the
// cluster's roles and tablespaces with f.ClusterWide) on the objects
// postgresql_security_label manages, as ListComments lists comments.
func (c *Client) ListSecurityLabels(ctx context.Context, db string, f DescribedObjectFilter) ([]DescribedObject, error) {
	return c.listDescribed(ctx, db, `
WITH d AS (
  SELECT classoid, objoid, objsubid, label AS text, provider::text FROM pg_seclabel WHERE objsubid = 0 AND ($9::text IS NULL OR provider = $9)
  UNION ALL
  SELECT classoid, objoid, 0, label, provider::text FROM pg_shseclabel WHERE ($9::text IS NULL OR provider = $9)
)`, SecurityLabelObjectTypes, f)
}

// listDescribed runs describedSQL over d (the WITH clause with) and keeps
// the objects of the types the resource manages.
func (c *Client) listDescribed(ctx context.Context, db, with string, types []string, f DescribedObjectFilter) ([]DescribedObject, error) {
	query := with + describedSQL
	args := append(f.Names.args(), emptyNilString(f.ObjectType), emptyNilString(f.Schema), f.ClusterWide, f.IncludeSystem)
	if strings.Contains(with, "$9") {
		args = append(args, emptyNilString(f.Provider))
	}
	out, err := listRows(ctx, c, db, func(r pgx.CollectableRow) (DescribedObject, error) {
		var o DescribedObject
		return o, r.Scan(&o.ObjectType, &o.Schema, &o.Name, &o.Column, &o.Provider)
	}, query, args...)
	return slices.DeleteFunc(out, func(o DescribedObject) bool { return !slices.Contains(types, o.ObjectType) }), err
}
