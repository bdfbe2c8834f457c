package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ObjectTarget names one object the way COMMENT ON and SECURITY LABEL ON do:
// an object type (their lower-case spelling, any letter case) and its names.
// postgresql_comment and postgresql_security_label address their objects
// through it.
type ObjectTarget struct {
	ObjectType string
	Schema     string // "" = resolved through search_path (or not schema-scoped)
	Name       string
	Column     string // object type "column" only: Name is then the table
	// OID is the object's OID recorded at the last read (0: none): a role,
	// database or schema that has another name now is followed by it
	// (followed).
	OID uint32
}

// renamedInPlace are the object types whose objects their own resources
// rename in place (postgresql_role, postgresql_database, postgresql_schema),
// with the query of an object's name by its OID.
var renamedInPlace = map[string]string{
	"role":     "SELECT rolname FROM pg_roles WHERE oid = $1",
	"database": "SELECT datname FROM pg_database WHERE oid = $1",
	"schema":   "SELECT nspname FROM pg_namespace WHERE oid = $1",
}

// followed is t, or, when no object has t's name and t is a role, database
// or schema with a recorded OID, t under the current name of the object of
// that OID (renamed outside Terraform, or by this apply): a comment removed
// in the apply that renames its role back is removed from the role.
func (t ObjectTarget) followed(ctx context.Context, q Querier) (ObjectTarget, error) {
	query, ok := renamedInPlace[strings.ToLower(t.ObjectType)]
	if !ok || t.OID == 0 || t.Schema != "" {
		return t, nil
	}
	var now string
	err := q.QueryRow(ctx, "SELECT coalesce(("+query+"), '')", t.OID).Scan(&now)
	if err != nil || now == "" || now == t.Name {
		return t, err
	}
	if _, _, _, found, err := t.address(ctx, q); err != nil || found {
		return t, err // the name is taken: that object is the target
	}
	t.Name = now
	return t, nil
}

// UnqualifiedObjectTypes are the object types whose objects are named
// without a schema (cluster-wide objects and the database-wide ones that
// belong to no schema).
var UnqualifiedObjectTypes = []string{
	"schema", "role", "database", "tablespace", "extension", "event trigger", "publication", "subscription", "language",
}

// SharedObjectTypes are the object types whose objects are cluster-wide
// (pg_shdescription, pg_shseclabel); the others belong to one database.
var SharedObjectTypes = []string{"role", "database", "tablespace"}

// SQL spells the target for COMMENT ON / SECURITY LABEL ON / ALTER, e.g.
// `TABLE "s"."t"`, `COLUMN "s"."t"."c"` or `LARGE OBJECT 16402`.
func (t ObjectTarget) SQL() string {
	typ := strings.ToUpper(t.ObjectType)
	if strings.EqualFold(t.ObjectType, "large object") {
		return typ + " " + largeObjectOID(t.Name)
	}
	if strings.EqualFold(t.ObjectType, "column") {
		return typ + " " + pgconn.QuoteQualified(t.Schema, t.Name) + "." + pgconn.QuoteIdent(t.Column)
	}
	return typ + " " + pgconn.QuoteQualified(t.Schema, t.Name)
}

// address resolves the target to (classid, objid, objsubid); found is false
// when the object (or its schema, table or database) does not exist.
func (t ObjectTarget) address(ctx context.Context, q Querier) (classID, objID uint32, subID int32, found bool, err error) {
	typ := strings.ToLower(t.ObjectType)
	if t.Schema != "" {
		// by the catalogs: pg_get_object_address and to_regproc look a
		// qualified name up through the schema, which needs USAGE on it (a
		// managed admin without pg_read_all_data has none on schemas of other
		// roles); reading pg_class, pg_type and pg_proc needs nothing
		if classID, objID, subID, found, handled, err := t.addressInCatalog(ctx, q, typ); handled || err != nil {
			return classID, objID, subID, found, err
		}
	}
	switch typ {
	case "function", "procedure", "routine", "aggregate":
		// unqualified, through search_path, by name only, as COMMENT ON
		// FUNCTION f (the name must be unique)
		var oid *uint32
		err = q.QueryRow(ctx, "SELECT to_regproc($1)::oid", pgconn.QuoteIdent(t.Name)).Scan(&oid)
		if err != nil || oid == nil {
			return 0, 0, 0, false, err
		}
		return 1255, *oid, 0, true, nil
	}
	name := []string{t.Name}
	if t.Schema != "" {
		name = []string{t.Schema, t.Name}
	}
	switch typ {
	case "type", "domain":
		// pg_get_object_address takes a type as one name in SQL syntax and
		// has no "domain" (a domain is a type)
		typ, name = "type", []string{pgconn.QuoteQualified(t.Schema, t.Name)}
	case "column":
		typ, name = "table column", append(name, t.Column)
	}
	// a missing object is an error of pg_get_object_address: run it in a
	// savepoint so that the surrounding transaction survives it
	if tx, ok := q.(pgx.Tx); ok {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return 0, 0, 0, false, err
		}
		defer func() { _ = sp.Rollback(ctx) }()
		q = sp
	}
	err = q.QueryRow(ctx, "SELECT classid, objid, objsubid FROM pg_get_object_address($1, $2, '{}')", typ, name).Scan(&classID, &objID, &subID)
	if err != nil {
		switch pgconn.SQLState(err) {
		case pgconn.CodeUndefinedObject, "42P01", "42883", "42703", pgconn.CodeInvalidSchemaName, pgconn.CodeInvalidCatalogName:
			return 0, 0, 0, false, nil
		}
		return 0, 0, 0, false, fmt.Errorf("finding %s: %w", t.SQL(), err)
	}
	return classID, objID, subID, true, nil
}

// largeObjectOID is name when it is a large object's OID (digits), else a
// quoted literal of it, which PostgreSQL refuses as an OID.
func largeObjectOID(name string) string {
	if name != "" && strings.Trim(name, "0123456789") == "" {
		return name
	}
	return pgconn.QuoteLiteral(name)
}

// relkinds are the pg_class kinds of each relation object type.
var relkinds = map[string]string{
	"table": "rp", "view": "v", "materialized view": "m", "sequence": "S", "foreign table": "f", "index": "iI", "column": "rpvmfc",
}

// addressInCatalog resolves a schema-qualified relation, column, type or
// function from the catalogs. handled is false when the catalogs do not
// settle it (another object type, or a type name that is not its catalog
// name, such as an alias) and pg_get_object_address must.
func (t ObjectTarget) addressInCatalog(ctx context.Context, q Querier, typ string) (classID, objID uint32, subID int32, found, handled bool, err error) {
	switch typ {
	case "function", "procedure", "routine", "aggregate":
		// by name only, as COMMENT ON FUNCTION f: found when the name is unique
		var oids []uint32
		rows, err := q.Query(ctx, `SELECT p.oid FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = $1 AND p.proname = $2 LIMIT 2`, t.Schema, t.Name)
		if err != nil {
			return 0, 0, 0, false, true, err
		}
		if oids, err = pgx.CollectRows(rows, pgx.RowTo[uint32]); err != nil || len(oids) != 1 {
			return 0, 0, 0, false, true, err
		}
		return 1255, oids[0], 0, true, true, nil
	case "type", "domain":
		var oid uint32
		err := q.QueryRow(ctx, `SELECT t.oid FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE n.nspname = $1 AND t.typname = $2`, t.Schema, t.Name).Scan(&oid)
		if err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return 0, 0, 0, false, false, nil
			}
			return 0, 0, 0, false, true, err
		}
		return 1247, oid, 0, true, true, nil
	}
	kinds, ok := relkinds[typ]
	if !ok {
		return 0, 0, 0, false, false, nil
	}
	var (
		oid     uint32
		relkind string
		attnum  *int32
	)
	err = q.QueryRow(ctx, `SELECT c.oid, c.relkind::text,
  (SELECT a.attnum FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $3 AND a.attnum > 0 AND NOT a.attisdropped)
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = $2`, t.Schema, t.Name, t.Column).Scan(&oid, &relkind, &attnum)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, 0, 0, false, true, nil
	case err != nil:
		return 0, 0, 0, false, true, err
	case !strings.Contains(kinds, relkind):
		return 0, 0, 0, false, true, fmt.Errorf("finding %s: %s is not a %s", t.SQL(), pgconn.QuoteQualified(t.Schema, t.Name), typ)
	case typ == "column":
		if attnum == nil {
			return 0, 0, 0, false, true, nil
		}
		return 1259, oid, *attnum, true, true, nil
	}
	return 1259, oid, 0, true, true, nil
}

// objectOwner returns the owner of the object at (classid, objid), "" when
// the object has no owner (a role) or is not found.
func objectOwner(ctx context.Context, q Querier, classID, objID uint32) (string, error) {
	var owner *string
	err := q.QueryRow(ctx, `SELECT pg_get_userbyid(CASE $1::oid
  WHEN 'pg_class'::regclass THEN (SELECT relowner FROM pg_class WHERE oid = $2)
  WHEN 'pg_proc'::regclass THEN (SELECT proowner FROM pg_proc WHERE oid = $2)
  WHEN 'pg_type'::regclass THEN (SELECT typowner FROM pg_type WHERE oid = $2)
  WHEN 'pg_namespace'::regclass THEN (SELECT nspowner FROM pg_namespace WHERE oid = $2)
  WHEN 'pg_database'::regclass THEN (SELECT datdba FROM pg_database WHERE oid = $2)
  WHEN 'pg_tablespace'::regclass THEN (SELECT spcowner FROM pg_tablespace WHERE oid = $2)
  WHEN 'pg_extension'::regclass THEN (SELECT extowner FROM pg_extension WHERE oid = $2)
  WHEN 'pg_event_trigger'::regclass THEN (SELECT evtowner FROM pg_event_trigger WHERE oid = $2)
  WHEN 'pg_publication'::regclass THEN (SELECT pubowner FROM pg_publication WHERE oid = $2)
  -- by its owner dependency: pg_subscription.oid is superuser-only on PostgreSQL 13;
  -- none is recorded for the bootstrap superuser (pinned), OID 10
  WHEN 'pg_subscription'::regclass THEN COALESCE((SELECT refobjid FROM pg_shdepend
    WHERE classid = 'pg_subscription'::regclass AND objid = $2 AND deptype = 'o'), 10)
  WHEN 'pg_language'::regclass THEN (SELECT lanowner FROM pg_language WHERE oid = $2)
  WHEN 'pg_foreign_server'::regclass THEN (SELECT srvowner FROM pg_foreign_server WHERE oid = $2)
  WHEN 'pg_foreign_data_wrapper'::regclass THEN (SELECT fdwowner FROM pg_foreign_data_wrapper WHERE oid = $2)
  WHEN 'pg_collation'::regclass THEN (SELECT collowner FROM pg_collation WHERE oid = $2)
  WHEN 'pg_conversion'::regclass THEN (SELECT conowner FROM pg_conversion WHERE oid = $2)
  WHEN 'pg_ts_dict'::regclass THEN (SELECT dictowner FROM pg_ts_dict WHERE oid = $2)
  WHEN 'pg_ts_config'::regclass THEN (SELECT cfgowner FROM pg_ts_config WHERE oid = $2)
  WHEN 'pg_largeobject'::regclass THEN (SELECT lomowner FROM pg_largeobject_metadata WHERE oid = $2)
END)::text`, classID, objID).Scan(&owner)
	if err != nil || owner == nil {
		return "", err
	}
	return *owner, nil
}
