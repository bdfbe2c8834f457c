package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ClassParameterACL is the OID of pg_parameter_acl (advisory-lock class for parameters).
const ClassParameterACL = 6243

// Object types of GRANT as the provider names them.
const (
	ObjDatabase   = "database"
	ObjSchema     = "schema"
	ObjTable      = "table"
	ObjSequence   = "sequence"
	ObjFunction   = "function"
	ObjProcedure  = "procedure"
	ObjRoutine    = "routine"
	ObjFDW        = "foreign_data_wrapper"
	ObjServer     = "foreign_server"
	ObjColumn     = "column"
	ObjParameter  = "parameter"
	ObjType       = "type"
	ObjDomain     = "domain"
	ObjLanguage   = "language"
	ObjTablespace = "tablespace"
	ObjLargeObj   = "large_object"
	PublicGrantee = "public"
)

// GrantObjectTypes lists the object types postgresql_grant accepts.
var GrantObjectTypes = []string{ObjDatabase, ObjSchema, ObjTable, ObjSequence, ObjFunction, ObjProcedure, ObjRoutine, ObjFDW, ObjServer, ObjColumn, ObjParameter,
	ObjType, ObjDomain, ObjLanguage, ObjTablespace, ObjLargeObj}

// GrantPrivileges returns the privileges PostgreSQL (of the given major
// version, 0 = newest) knows for an object type, in canonical order; ALL
// stands for exactly these.
func GrantPrivileges(objectType string, major int) []string {
	switch objectType {
	case ObjDatabase:
		return []string{"CONNECT", "CREATE", "TEMPORARY"}
	case ObjSchema:
		return []string{"CREATE", "USAGE"}
	case ObjTable:
		p := []string{"DELETE", "INSERT", "REFERENCES", "SELECT", "TRIGGER", "TRUNCATE", "UPDATE"}
		if major == 0 || major >= 17 {
			p = append(p, "MAINTAIN")
			sort.Strings(p)
		}
		return p
	case ObjSequence:
		return []string{"SELECT", "UPDATE", "USAGE"}
	case ObjFunction, ObjProcedure, ObjRoutine:
		return []string{"EXECUTE"}
	case ObjFDW, ObjServer, ObjType, ObjDomain, ObjLanguage:
		return []string{"USAGE"}
	case ObjTablespace:
		return []string{"CREATE"}
	case ObjLargeObj:
		return []string{"SELECT", "UPDATE"}
	case ObjColumn:
		return []string{"INSERT", "REFERENCES", "SELECT", "UPDATE"}
	case ObjParameter:
		return []string{"ALTER SYSTEM", "SET"}
	}
	return nil
}

// NormalizePrivilege upper-cases a privilege and maps aliases (TEMP).
func NormalizePrivilege(p string) string {
	p = strings.ToUpper(strings.TrimSpace(p))
	p = strings.Join(strings.Fields(p), " ")
	if p == "TEMP" {
		return "TEMPORARY"
	}
	return p
}

// ExpandPrivileges normalises privileges and replaces ALL by the full list for
// the object type and server major version. The result is sorted and unique.
func ExpandPrivileges(objectType string, major int, privs []string) []string {
	return expandAll(privs, GrantPrivileges(objectType, major))
}

// expandAll normalises privs and replaces ALL by all. Sorted and unique.
func expandAll(privs, all []string) []string {
	var out []string
	for _, p := range privs {
		n := NormalizePrivilege(p)
		if n == "ALL" || n == "ALL PRIVILEGES" {
			out = append(out, all...)
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// GrantTarget names the objects a grant is about.
type GrantTarget struct {
	Database   string
	Schema     string
	ObjectType string
	// Objects are the object names; empty = every object of the type in the
	// schema (table, sequence, function, procedure, routine).
	Objects []string
	Columns []string // ObjectType column
	Grantee string   // role name or "public" (any case)
	// GranteeOID is the grantee's OID when the grant was last read (0 when
	// unknown): when no role is named Grantee any more and a role has that
	// OID, the grantee was renamed outside Terraform, and the grant is read
	// and revoked under its current name (a rename is not a drop: its
	// privileges stay with it).
	GranteeOID uint32
	// Written, when set, restricts a read of every object of the type in
	// the schema (no Objects) to the objects a write covered
	// (WithWrittenObjects): the read back of that write.
	Written *WrittenObjects
}

// WrittenObjects are the objects a grant's write covered, by OID: a grant
// on every object of a type in a schema covers those that exist when it
// runs, and its read back leaves out one created meanwhile by another
// resource of the apply (a function beside a grant on all the functions of
// its schema, with no dependency between them: the long walk, seed 23507
// step 1 on PostgreSQL 18), which the write could not cover and the
// framework would take for an inconsistent result. The next refresh reads
// every object, and the plan covers the new one.
type WrittenObjects struct {
	mu   sync.Mutex
	oids map[uint32]bool
}

type writtenObjectsKey struct{}

// WithWrittenObjects returns ctx carrying w, which a grant's write in that
// context fills with the objects it covered.
func WithWrittenObjects(ctx context.Context) (context.Context, *WrittenObjects) {
	w := &WrittenObjects{}
	return context.WithValue(ctx, writtenObjectsKey{}, w), w
}

// record replaces the objects covered (a retried write records again).
func (w *WrittenObjects) record(objs []objectRow) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.oids = make(map[uint32]bool, len(objs))
	for _, o := range objs {
		w.oids[o.oid] = true
	}
}

// covers reports whether the write covered oid (true when nothing was
// recorded: no write, or one that never reached its objects).
func (w *WrittenObjects) covers(oid uint32) bool {
	if w == nil {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.oids == nil || w.oids[oid]
}

// IsPublic reports whether the grantee is PUBLIC.
func (t GrantTarget) IsPublic() bool { return strings.EqualFold(t.Grantee, PublicGrantee) }

// GrantObjectState is what the grantee holds on one object.
type GrantObjectState struct {
	Name      string // object name (table name for columns)
	Column    string // column name, for column grants
	OwnedBy   bool   // the grantee owns the object: ownership privileges are not reported
	Held      []string
	Grantable []string
}

// GrantState is the result of reading a grant.
type GrantState struct {
	// Exists is false when the database, schema or grantee no longer exists.
	Exists bool
	// GranteeOID is the grantee's OID (0 for PUBLIC), to record as
	// GrantTarget.GranteeOID.
	GranteeOID uint32
	Objects    []GrantObjectState
	// Missing lists explicitly named objects (or columns as table.column) that do not exist.
	Missing []string
}

// grantObject is one resolved catalog object.
type grantObject struct {
	oid       uint32
	classID   uint32
	name      string
	column    string
	args      string // identity arguments (routines), SQL rendered by the server
	argOIDs   string // argument type OIDs (routines), for matching signatures (resolveSignatures)
	owner     uint32
	ownerName string
	ownerSU   bool
}

func (o grantObject) sql(objectType, schema string) string {
	switch objectType {
	case ObjDatabase:
		return "DATABASE " + pgconn.QuoteIdent(o.name)
	case ObjSchema:
		return "SCHEMA " + pgconn.QuoteIdent(o.name)
	case ObjTable, ObjColumn:
		return "TABLE " + pgconn.QuoteQualified(schema, o.name)
	case ObjSequence:
		return "SEQUENCE " + pgconn.QuoteQualified(schema, o.name)
	case ObjFunction, ObjProcedure, ObjRoutine:
		return "ROUTINE " + pgconn.QuoteQualified(schema, o.name) + "(" + o.args + ")"
	case ObjFDW:
		return "FOREIGN DATA WRAPPER " + pgconn.QuoteIdent(o.name)
	case ObjServer:
		return "FOREIGN SERVER " + pgconn.QuoteIdent(o.name)
	case ObjParameter:
		return "PARAMETER " + pgconn.QuoteIdent(o.name)
	case ObjType:
		return "TYPE " + pgconn.QuoteQualified(schema, o.name)
	case ObjDomain:
		return "DOMAIN " + pgconn.QuoteQualified(schema, o.name)
	case ObjLanguage:
		return "LANGUAGE " + pgconn.QuoteIdent(o.name)
	case ObjTablespace:
		return "TABLESPACE " + pgconn.QuoteIdent(o.name)
	case ObjLargeObj:
		return "LARGE OBJECT " + largeObjectOID(o.name)
	}
	return ""
}

func grantee(t GrantTarget) string {
	if t.IsPublic() {
		return "PUBLIC"
	}
	return pgconn.QuoteIdent(t.Grantee)
}

// sharedGrantTypes are the object types of cluster-wide catalogs.
var sharedGrantTypes = []string{ObjDatabase, ObjParameter, ObjTablespace}

// grantDatabase is the database whose connection runs statements for t:
// shared catalogs (databases, parameters, tablespaces) go through the
// provider's database so that advisory locks on them are taken in one database.
func (c *Client) grantDatabase(t GrantTarget) string {
	if slices.Contains(sharedGrantTypes, t.ObjectType) {
		return ""
	}
	return t.Database
}

// objectQuery returns the query listing the target's objects with their ACLs:
// $1 schema, $2 object names (NULL = all), $3 database, $4 columns; for
// routines, $6 the keys of the objects named with arguments
// (resolveSignatures).
func objectQuery(objectType string) (string, uint32) {
	owner := func(expr string) string {
		return expr + ` AS owner, (SELECT rolname FROM pg_roles WHERE oid = ` + expr + `) AS ownername, (SELECT rolsuper FROM pg_roles WHERE oid = ` + expr + `) AS ownersu`
	}
	switch objectType {
	case ObjDatabase:
		return `SELECT oid, datname AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("datdba") + `, coalesce(datacl, acldefault('d', datdba)) AS acl
FROM pg_database WHERE datname = $3 AND ($1::text IS NULL OR true) AND ($2::text[] IS NULL OR true) AND ($4::text[] IS NULL OR true)`, ClassDatabase
	case ObjSchema:
		return `SELECT oid, nspname AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("nspowner") + `, coalesce(nspacl, acldefault('n', nspowner)) AS acl
FROM pg_namespace WHERE nspname = $1 AND ($2::text[] IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, ClassNamespace
	case ObjTable, ObjSequence:
		kinds, def := "'r','v','m','f','p'", "r"
		if objectType == ObjSequence {
			kinds, def = "'S'", "s"
		}
		return `SELECT c.oid, c.relname AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("c.relowner") + `, coalesce(c.relacl, acldefault('` + def + `', c.relowner)) AS acl
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN (` + kinds + `) AND ($2::text[] IS NULL OR c.relname = ANY($2)) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, ClassClass
	case ObjColumn:
		return `SELECT c.oid, c.relname AS name, a.attname::text AS col, '' AS args, '' AS argoids, ` + owner("c.relowner") + `, a.attacl AS acl
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
WHERE n.nspname = $1 AND c.relkind IN ('r','v','m','f','p') AND c.relname = ANY($2) AND a.attnum > 0 AND NOT a.attisdropped
  AND a.attname = ANY($4) AND ($3::text IS NULL OR true)`, ClassClass
	case ObjFunction, ObjProcedure, ObjRoutine:
		kinds := "'f','a','w','p'"
		switch objectType {
		case ObjFunction:
			kinds = "'f','a','w'" // GRANT ... ON ALL FUNCTIONS does not cover procedures
		case ObjProcedure:
			kinds = "'p'"
		}
		return `SELECT p.oid, p.proname::text AS name, '' AS col, pg_get_function_identity_arguments(p.oid) AS args,
       array_to_string(p.proargtypes::oid[], ',') AS argoids, ` + owner("p.proowner") + `, coalesce(p.proacl, acldefault('f', p.proowner)) AS acl
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = $1 AND p.prokind IN (` + kinds + `)
  AND (($2::text[] IS NULL AND $6::text[] IS NULL) OR p.proname = ANY($2) OR p.proname || '(' || array_to_string(p.proargtypes::oid[], ',') || ')' = ANY($6))
  AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, ClassProc
	case ObjFDW:
		return `SELECT oid, fdwname::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("fdwowner") + `, coalesce(fdwacl, acldefault('F', fdwowner)) AS acl
FROM pg_foreign_data_wrapper WHERE fdwname = ANY($2) AND ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 2328
	case ObjServer:
		return `SELECT oid, srvname::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("srvowner") + `, coalesce(srvacl, acldefault('S', srvowner)) AS acl
FROM pg_foreign_server WHERE srvname = ANY($2) AND ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 1417
	case ObjType, ObjDomain:
		// types and domains (a domain is a type), not the row types of
		// tables nor array types, which take no privileges of their own
		kinds := "'b','c','d','e','r','m'"
		if objectType == ObjDomain {
			kinds = "'d'"
		}
		return `SELECT t.oid, t.typname::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("t.typowner") + `, coalesce(t.typacl, acldefault('T', t.typowner)) AS acl
FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE n.nspname = $1 AND t.typname = ANY($2) AND t.typtype IN (` + kinds + `)
  AND (t.typtype <> 'c' OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
  AND NOT (t.typcategory = 'A' AND t.typelem <> 0) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 1247
	case ObjLanguage:
		return `SELECT oid, lanname::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("lanowner") + `, coalesce(lanacl, acldefault('l', lanowner)) AS acl
FROM pg_language WHERE lanname = ANY($2) AND ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 2612
	case ObjTablespace:
		return `SELECT oid, spcname::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("spcowner") + `, coalesce(spcacl, acldefault('t', spcowner)) AS acl
FROM pg_tablespace WHERE spcname = ANY($2) AND ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 1213
	case ObjLargeObj:
		return `SELECT oid, oid::text AS name, '' AS col, '' AS args, '' AS argoids, ` + owner("lomowner") + `, coalesce(lomacl, acldefault('L', lomowner)) AS acl
FROM pg_largeobject_metadata WHERE oid::text = ANY($2) AND ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, 2613
	case ObjParameter:
		return `SELECT coalesce(pa.oid, 0::oid) AS oid, n.name, '' AS col, '' AS args, '' AS argoids, ` + owner("10::oid") + `,
       coalesce(pa.paracl, acldefault('p', 10::oid)) AS acl
FROM unnest($2::text[]) AS n(name) LEFT JOIN pg_parameter_acl pa ON pa.parname = lower(n.name)
WHERE ($1::text IS NULL OR true) AND ($3::text IS NULL OR true) AND ($4::text[] IS NULL OR true)`, ClassParameterACL
	}
	return "", 0
}

type objectRow struct {
	grantObject
	held, grantable []string
}

// readObjects resolves the target's objects and what granteeOID holds on
// each; sigs are the keys of the routines named with arguments
// (resolveSignatures).
func readObjects(ctx context.Context, q Querier, t GrantTarget, granteeOID uint32, sigs map[string]string) ([]objectRow, error) {
	query, classID, args, err := objectsQuery(t, granteeOID, sigs)
	if err != nil {
		return nil, err
	}
	full := `SELECT o.oid, o.name, o.col, o.args, o.argoids, o.owner, coalesce(o.ownername, ''), coalesce(o.ownersu, false),
  array(SELECT DISTINCT a.privilege_type FROM aclexplode(o.acl) a WHERE a.grantee = $5 ORDER BY 1),
  array(SELECT DISTINCT a.privilege_type FROM aclexplode(o.acl) a WHERE a.grantee = $5 AND a.is_grantable ORDER BY 1)
FROM (` + query + `) o
-- a routine another session dropped after this statement's snapshot has no
-- identity arguments any more (pg_get_function_identity_arguments reads the
-- catalog as it is now): it is gone, as for a revoke it should be
WHERE o.args IS NOT NULL ORDER BY o.name, o.col, o.args`
	rows, err := q.Query(ctx, full, args...)
	if err != nil {
		return nil, fmt.Errorf("reading %s privileges: %w", t.ObjectType, err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (objectRow, error) {
		var r objectRow
		err := row.Scan(&r.oid, &r.name, &r.column, &r.args, &r.argOIDs, &r.owner, &r.ownerName, &r.ownerSU, &r.held, &r.grantable)
		r.classID = classID
		return r, err
	})
}

// objectsQuery is objectQuery for t with its arguments ($5: granteeOID, for
// the queries around it).
func objectsQuery(t GrantTarget, granteeOID uint32, sigs map[string]string) (string, uint32, []any, error) {
	query, classID := objectQuery(t.ObjectType)
	if query == "" {
		return "", 0, nil, fmt.Errorf("unsupported object type %q", t.ObjectType)
	}
	var names, cols, keys []string
	if len(t.Objects) > 0 {
		names = t.Objects
		if isRoutine(t.ObjectType) {
			// a routine named with arguments matches by its argument types
			names, keys = []string{}, []string{}
			for _, n := range t.Objects {
				if _, _, ok := routineSignature(n); !ok {
					names = append(names, n)
				} else if k := sigs[n]; k != "" {
					keys = append(keys, k)
				}
			}
		}
	}
	if t.ObjectType == ObjSchema {
		names = nil
	}
	if len(t.Columns) > 0 {
		cols = t.Columns
	}
	var schema *string
	if t.Schema != "" {
		schema = &t.Schema
	}
	args := []any{schema, names, t.Database, cols, granteeOID}
	if isRoutine(t.ObjectType) {
		args = append(args, keys)
	}
	return query, classID, args, nil
}

// granteeOID returns the OID of the grantee (0 for PUBLIC) and whether it exists.
func granteeOID(ctx context.Context, q Querier, t GrantTarget) (uint32, bool, error) {
	if t.IsPublic() {
		return 0, true, nil
	}
	var oid uint32
	err := q.QueryRow(ctx, "SELECT oid FROM pg_roles WHERE rolname = $1", t.Grantee).Scan(&oid)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return oid, err == nil, err
}

// renamedRole returns the name of the role with OID oid, "" when there is none.
// followRole is the current name of the role a resource knew as name with
// OID oid (0: unknown): name while a role has it, else the name of the role
// with that OID (renamed since), "" when there is neither.
func followRole(ctx context.Context, q Querier, name string, oid uint32) (string, error) {
	var now string
	err := q.QueryRow(ctx, `SELECT coalesce((SELECT rolname FROM pg_roles WHERE rolname = $1),
  (SELECT rolname FROM pg_roles WHERE oid = $2 AND $2 <> 0), '')`, name, oid).Scan(&now)
	return now, err
}

func renamedRole(ctx context.Context, q Querier, oid uint32) (string, error) {
	var name string
	err := q.QueryRow(ctx, "SELECT coalesce((SELECT rolname FROM pg_roles WHERE oid = $1), '')", oid).Scan(&name)
	return name, err
}

func isRoutine(objectType string) bool {
	return objectType == ObjFunction || objectType == ObjProcedure || objectType == ObjRoutine
}

// containerExists checks the database (and schema, where the type has one).
func (c *Client) containerExists(ctx context.Context, t GrantTarget) (bool, error) {
	// database, parameter and tablespace grants never connect to the database itself
	shared := slices.Contains(sharedGrantTypes, t.ObjectType)
	if x, ok, err := c.databaseSnapshot(ctx); ok {
		if err != nil {
			return false, err
		}
		d := x.byName[t.Database]
		usable := d != nil && (d.AllowConn || shared)
		if !usable || t.Schema == "" || shared {
			return usable, nil
		}
		if x, ok, err := c.schemaSnapshot(ctx, t.Database); ok {
			return err == nil && x.byName[t.Schema] != nil, err
		}
	}
	var ok bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1 AND (datallowconn OR $2))", t.Database, shared).Scan(&ok)
	})
	if err != nil || !ok || t.Schema == "" || shared {
		return ok, err
	}
	err = c.Read(ctx, t.Database, func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", t.Schema).Scan(&ok)
	})
	return ok, err
}

// ReadGrant reads what the grantee holds on the target's objects, following
// a grantee renamed outside Terraform (GrantTarget.GranteeOID).
func (c *Client) ReadGrant(ctx context.Context, t GrantTarget) (*GrantState, error) {
	st, err := c.readGrant(ctx, t)
	if err != nil || st.Exists || t.GranteeOID == 0 || t.IsPublic() {
		return st, err
	}
	var name string
	err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var err error
		name, err = followRole(ctx, q, t.Grantee, t.GranteeOID)
		return err
	})
	if err != nil || name == "" || name == t.Grantee {
		return st, err
	}
	t.Grantee = name
	return c.readGrant(ctx, t)
}

func (c *Client) readGrant(ctx context.Context, t GrantTarget) (*GrantState, error) {
	st := &GrantState{}
	ok, err := c.containerExists(ctx, t)
	if err != nil || !ok {
		return st, err
	}
	// the grantee's OID from the role snapshot when there is one
	known := t.IsPublic()
	var gOID uint32
	if !known {
		if x, ok, err := c.roleSnapshot(ctx); ok {
			if err != nil {
				return st, err
			}
			r := x.byName[t.Grantee]
			if r == nil {
				return st, nil
			}
			known, gOID = true, r.OID
		}
	}
	sigs, err := c.resolveSignatures(ctx, t)
	if err != nil {
		return st, err
	}
	fill := func(objs []objectRow) {
		st.Exists, st.GranteeOID = true, gOID
		st.Objects = st.Objects[:0]
		for _, o := range objs {
			if len(t.Objects) == 0 && !t.Written.covers(o.oid) {
				continue
			}
			st.Objects = append(st.Objects, GrantObjectState{
				Name: o.name, Column: o.column,
				OwnedBy: !t.IsPublic() && o.owner == gOID, Held: o.held, Grantable: o.grantable,
			})
		}
		objects, columns := missingObjects(t, objs, sigs)
		st.Missing = slices.Concat(objects, columns)
	}
	// the privileges on schemas, tables and sequences from the snapshot of
	// the database's ACLs of that kind
	if known {
		if x, ok, err := c.aclSnapshotOf(ctx, t.Database, t); ok {
			if err != nil {
				return st, err
			}
			fill(x.rows(t, gOID))
			return st, nil
		}
	}
	err = c.Read(ctx, c.grantDatabase(t), func(ctx context.Context, q Querier) error {
		if !known {
			oid, exists, err := granteeOID(ctx, q, t)
			if err != nil || !exists {
				return err
			}
			gOID = oid
		}
		objs, err := readObjects(ctx, q, t, gOID, sigs)
		if err != nil {
			return err
		}
		fill(objs)
		return nil
	})
	return st, err
}

// aclObject is an object of a snapshot of ACLs as grants see it: the object,
// its owner and every ACL entry (grantee OID, 0 = PUBLIC).
type aclObject struct {
	grantObject
	grantees  []uint32
	privs     []string
	grantable []bool
}

// row is what readObjects returns for the object and grantee.
func (s aclObject) row(grantee uint32) objectRow {
	r := objectRow{grantObject: s.grantObject, held: []string{}, grantable: []string{}}
	for i, g := range s.grantees {
		if g != grantee || i >= len(s.privs) || i >= len(s.grantable) {
			continue
		}
		if !slices.Contains(r.held, s.privs[i]) {
			r.held = append(r.held, s.privs[i])
		}
		if s.grantable[i] && !slices.Contains(r.grantable, s.privs[i]) {
			r.grantable = append(r.grantable, s.privs[i])
		}
	}
	slices.Sort(r.held)
	slices.Sort(r.grantable)
	return r
}

// aclSnapshot is a snapshot of the ACLs of one kind of object of a database
// (schemas, tables, sequences) by schema name, each list sorted by name as
// readObjects sorts (names are of type name: byte order).
type aclSnapshot map[string][]aclObject

// rows is what readObjects returns for grantee on the objects of t (every
// object of the schema, or those t names). The schema of a schema grant is
// its own object.
func (x aclSnapshot) rows(t GrantTarget, grantee uint32) []objectRow {
	out := []objectRow{}
	for _, o := range x[t.Schema] {
		if t.ObjectType == ObjSchema || len(t.Objects) == 0 || slices.Contains(t.Objects, o.name) {
			out = append(out, o.row(grantee))
		}
	}
	return out
}

// aclSnapshotQueries are the loads of aclSnapshot by object type: schema
// name, object OID and name, owner, and the ACL exploded into arrays.
var aclSnapshotQueries = map[string]string{
	ObjSchema: `
SELECT n.nspname, n.oid, n.nspname, n.nspowner, coalesce(o.rolname, ''), coalesce(o.rolsuper, false), g.grantees, g.privs, g.grantable
FROM pg_namespace n
LEFT JOIN pg_roles o ON o.oid = n.nspowner
CROSS JOIN LATERAL (
  SELECT array_agg(a.grantee) AS grantees, array_agg(a.privilege_type::text) AS privs, array_agg(a.is_grantable) AS grantable
  FROM aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a) g`,
	ObjTable:    relationACLQuery("'r','v','m','f','p'", "r"),
	ObjSequence: relationACLQuery("'S'", "s"),
}

func relationACLQuery(kinds, def string) string {
	return `
SELECT n.nspname, c.oid, c.relname, c.relowner, coalesce(o.rolname, ''), coalesce(o.rolsuper, false), g.grantees, g.privs, g.grantable
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_roles o ON o.oid = c.relowner
CROSS JOIN LATERAL (
  SELECT array_agg(a.grantee) AS grantees, array_agg(a.privilege_type::text) AS privs, array_agg(a.is_grantable) AS grantable
  FROM aclexplode(coalesce(c.relacl, acldefault('` + def + `', c.relowner))) a) g
WHERE c.relkind IN (` + kinds + `)`
}

// aclSnapshotOf is the snapshot of the ACLs of every object of objectType
// (schema, table, sequence) in database db (fromSnapshot); ok is false for
// other types, and for grants that name columns.
func (c *Client) aclSnapshotOf(ctx context.Context, db string, t GrantTarget) (aclSnapshot, bool, error) {
	query, classID := aclSnapshotQueries[t.ObjectType], uint32(ClassClass)
	if query == "" || len(t.Columns) > 0 {
		return nil, false, nil
	}
	if t.ObjectType == ObjSchema {
		classID = ClassNamespace
	}
	return fromSnapshot(ctx, c, db, t.ObjectType+"-acls", func(ctx context.Context, q Querier) (aclSnapshot, error) {
		rows, err := q.Query(ctx, query)
		if err != nil {
			return nil, fmt.Errorf("reading %s privileges: %w", t.ObjectType, err)
		}
		defer rows.Close()
		x := aclSnapshot{}
		for rows.Next() {
			var schema string
			s := aclObject{grantObject: grantObject{classID: classID}}
			if err := rows.Scan(&schema, &s.oid, &s.name, &s.owner, &s.ownerName, &s.ownerSU, &s.grantees, &s.privs, &s.grantable); err != nil {
				return nil, fmt.Errorf("reading %s privileges: %w", t.ObjectType, err)
			}
			x[schema] = append(x[schema], s)
		}
		for _, objs := range x {
			slices.SortFunc(objs, func(a, b aclObject) int { return strings.Compare(a.name, b.name) })
		}
		return x, rows.Err()
	})
}

// missingObjects lists the named objects (as named: "t", "f(integer)") and
// columns that the read did not find (sigs: the keys of the routines named
// with arguments, resolveSignatures). For database and schema grants the
// object is the database or schema itself.
func missingObjects(t GrantTarget, objs []objectRow, sigs map[string]string) (objects, columns []string) {
	switch t.ObjectType {
	case ObjDatabase, ObjSchema:
		if len(objs) == 0 {
			name := t.Database
			if t.ObjectType == ObjSchema {
				name = t.Schema
			}
			objects = append(objects, name)
		}
		return objects, nil
	}
	for _, name := range t.Objects {
		found := false
		for _, o := range objs {
			if o.name == name || (sigs[name] != "" && o.name+"("+o.argOIDs+")" == sigs[name]) {
				found = true
				if t.ObjectType != ObjColumn {
					break
				}
			}
		}
		if !found {
			objects = append(objects, name)
		}
	}
	if t.ObjectType == ObjColumn && len(objects) == 0 {
		for _, col := range t.Columns {
			if !slices.ContainsFunc(objs, func(o objectRow) bool { return o.column == col }) {
				columns = append(columns, col)
			}
		}
	}
	return objects, columns
}

// missingError is the error for the named objects and columns of t that the
// read did not find (nil when there are none), each named in full.
func missingError(t GrantTarget, objs []objectRow, sigs map[string]string) error {
	objects, columns := missingObjects(t, objs, sigs)
	switch {
	case len(objects) > 0 && t.ObjectType == ObjDatabase:
		return databaseNotFound(t.Database)
	case len(objects) > 0 && t.ObjectType == ObjSchema:
		return schemaNotFound(t.Database, t.Schema)
	case len(objects) > 0:
		nf := &NotFoundError{What: MissingObjects, Database: t.Database}
		if t.ObjectType == ObjParameter || t.ObjectType == ObjTablespace {
			nf.Database = "" // cluster-wide
		}
		for _, o := range objects {
			nf.Objects = append(nf.Objects, objectDisplay(t.ObjectType, t.Schema, o))
		}
		return nf
	case len(columns) > 0:
		nf := &NotFoundError{What: MissingColumns, Database: t.Database}
		for _, c := range columns {
			nf.Objects = append(nf.Objects, "column "+pgconn.QuoteIdent(c)+" of "+objectDisplay(ObjTable, t.Schema, t.Objects[0]))
		}
		return nf
	}
	return nil
}

// objectDisplay names an object of a grant as PostgreSQL prints it:
// `table "app"."orders"`, `function "app"."f"(integer)`, `server "s"`.
func objectDisplay(objectType, schema, name string) string {
	switch objectType {
	case ObjTable, ObjColumn:
		return "table " + pgconn.QuoteQualified(schema, name)
	case ObjSequence:
		return "sequence " + pgconn.QuoteQualified(schema, name)
	case ObjFunction, ObjProcedure, ObjRoutine:
		if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
			return objectType + " " + pgconn.QuoteQualified(schema, name[:i]) + name[i:]
		}
		return objectType + " " + pgconn.QuoteQualified(schema, name)
	case ObjFDW:
		return "foreign-data wrapper " + pgconn.QuoteIdent(name)
	case ObjServer:
		return "server " + pgconn.QuoteIdent(name)
	case ObjParameter:
		return "parameter " + pgconn.QuoteIdent(name)
	case ObjType, ObjDomain:
		return objectType + " " + pgconn.QuoteQualified(schema, name)
	case ObjLargeObj:
		return "large object " + largeObjectOID(name)
	}
	return objectType + " " + pgconn.QuoteIdent(name)
}

// usesSchema reports whether grants on objectType name a schema (the others
// ignore it).
func usesSchema(objectType string) bool {
	switch objectType {
	case ObjDatabase, ObjFDW, ObjServer, ObjParameter, ObjLanguage, ObjTablespace, ObjLargeObj:
		return false
	}
	return true
}

// GrantSpec is what the grantee must hold: exactly Privileges (already
// expanded and normalised), with or without grant option; or, Additive, at
// least Privileges (with grant option when WithGrantOption), without
// Revoke (nor the grant option of RevokeGrantOption), whatever else it holds.
type GrantSpec struct {
	Target          GrantTarget
	Privileges      []string
	WithGrantOption bool
	// Additive makes Privileges a floor: the grantee's other privileges,
	// and the grant option of Privileges when WithGrantOption is false, are
	// left alone (grant_additive.go).
	Additive bool
	// Revoke and RevokeGrantOption (Additive only) are the privileges to
	// revoke, and those to revoke the grant option of, where the grantee
	// holds them: those the additive grant gave and no longer names.
	Revoke, RevokeGrantOption []string
}

// SetGrant makes the grantee hold exactly spec.Privileges on the target's
// objects (grants what is missing, revokes what is not wanted), in one
// transaction, under advisory locks on every object whose ACL changes; when
// nothing needs to change it only reads. Column privileges survive changes to
// table privileges and vice versa. A missing database, schema, grantee or
// object is a NotFoundError, found before any statement; with missingOK
// (used to revoke on destroy) it is no error and nothing is done for it.
func (c *Client) SetGrant(ctx context.Context, spec GrantSpec, missingOK bool) error {
	t := spec.Target
	if missingOK {
		ok, err := c.containerExists(ctx, t)
		if err != nil || !ok {
			return err
		}
	} else if err := c.checkDatabase(ctx, t.Database); err != nil {
		return err
	}
	superuser, err := c.Superuser(ctx)
	if err != nil {
		return err
	}
	sigs, err := c.resolveSignatures(ctx, t)
	if err != nil {
		return err
	}
	var left error
	err = c.Tx(ctx, c.grantDatabase(t), func(ctx context.Context, tx pgx.Tx) error {
		left = nil
		var keep *error
		if missingOK && len(spec.Privileges) == 0 {
			keep = &left
		}
		return setGrant(ctx, tx, superuser, spec, sigs, missingOK, keep)
	})
	if err == nil && left != nil {
		return &NotRevokedError{Err: left}
	}
	if missingOK && err != nil && c.grantGone(ctx, t, err) {
		return nil
	}
	return err
}

// grantGone reports whether err, from a revoke (missingOK) of t, came from
// the grantee, schema or database being dropped while the revoke ran (a
// destroy that drops it in parallel: a module naming it by a string gives
// Terraform no order), and it is gone now: what the revoke wanted.
func (c *Client) grantGone(ctx context.Context, t GrantTarget, err error) bool {
	switch pgconn.SQLState(err) {
	case pgconn.CodeInvalidSchemaName, pgconn.CodeUndefinedObject, pgconn.CodeInvalidCatalogName:
	default:
		return false
	}
	if ok, cerr := c.containerExists(ctx, t); cerr == nil && !ok {
		return true
	}
	var exists bool
	rerr := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		_, ok, err := granteeOID(ctx, q, t)
		exists = ok
		return err
	})
	return rerr == nil && !exists
}

// NotRevokedError is what a revoke of everything (a destroy) could not take
// back: privileges that other roles granted (a REVOKE takes back only the
// grants of the role that revokes). The rest was revoked and committed.
type NotRevokedError struct{ Err error }

func (e *NotRevokedError) Error() string { return e.Err.Error() }
func (e *NotRevokedError) Unwrap() error { return e.Err }

// ChangeGrant revokes every privilege of each grant in revoke (what the
// resource named before and no longer does: objects or columns dropped from
// its sets, or another grantee, schema or database that still exists under
// that name) and makes spec hold (SetGrant), in one transaction when all are
// in the same database; otherwise spec is applied first and the others
// revoked afterwards, so that a failure leaves the old privileges in place.
func (c *Client) ChangeGrant(ctx context.Context, spec GrantSpec, revoke ...GrantTarget) error {
	specs := make([]GrantSpec, len(revoke))
	for i, t := range revoke {
		specs[i] = GrantSpec{Target: t}
	}
	return c.ChangeGrantSpecs(ctx, spec, specs...)
}

// ChangeGrantSpecs is ChangeGrant with the revokes as specs: each applied
// as SetGrant with missingOK (a grantee, schema or object gone is revoked
// already), before spec, in one transaction when all are in the same
// database. The additive form passes additive specs that revoke only what
// it gave (GrantSpec.Revoke).
func (c *Client) ChangeGrantSpecs(ctx context.Context, spec GrantSpec, revoke ...GrantSpec) error {
	db := c.grantDatabase(spec.Target)
	if slices.ContainsFunc(revoke, func(r GrantSpec) bool { return c.grantDatabase(r.Target) != db }) {
		if err := c.SetGrant(ctx, spec, false); err != nil {
			return err
		}
		for _, r := range revoke {
			if err := c.SetGrant(ctx, r, true); err != nil {
				return err
			}
		}
		return nil
	}
	if err := c.checkDatabase(ctx, spec.Target.Database); err != nil {
		return err
	}
	superuser, err := c.Superuser(ctx)
	if err != nil {
		return err
	}
	sigs, err := c.resolveSignatures(ctx, spec.Target)
	if err != nil {
		return err
	}
	revokeSigs := make([]map[string]string, len(revoke))
	for i, r := range revoke {
		if revokeSigs[i], err = c.resolveSignatures(ctx, r.Target); err != nil {
			return err
		}
	}
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		for i, r := range revoke {
			if err := setGrant(ctx, tx, superuser, r, revokeSigs[i], true, nil); err != nil {
				return err
			}
		}
		return setGrant(ctx, tx, superuser, spec, sigs, false, nil)
	})
}

// GrantFrom is the grant that from (what a resource named before) names now
// that the resource names to instead: its database, grantee and schema,
// each taken as renamed to to's when it no longer exists under its old name
// (PostgreSQL keys privileges by OID: they followed the rename), the grantee
// by its OID when from has it. When the result names what to names, the
// privileges are already where they belong.
func (c *Client) GrantFrom(ctx context.Context, from, to GrantTarget) (GrantTarget, error) {
	out := from
	var dbOK, roleOK bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1), $3 OR exists(SELECT 1 FROM pg_roles WHERE rolname = $2)`,
			from.Database, from.Grantee, from.IsPublic()).Scan(&dbOK, &roleOK)
	})
	if err != nil {
		return out, err
	}
	if from.Database != to.Database && !dbOK {
		out.Database = to.Database
	}
	if !sameGrantee(from, to) && !roleOK {
		out.Grantee = to.Grantee
		if from.GranteeOID != 0 {
			// the role of from's grantee OID (GrantTarget.GranteeOID): when
			// it has another name than to's, the resource names another role
			// now and from's was renamed too, in this apply or outside
			// Terraform; the privileges are with it
			var name string
			err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
				var err error
				name, err = renamedRole(ctx, q, from.GranteeOID)
				return err
			})
			if err != nil {
				return out, err
			}
			if name != "" {
				out.Grantee = name
			}
		}
	}
	if usesSchema(from.ObjectType) && from.Schema != to.Schema && from.Schema != "" && to.Schema != "" {
		var ok bool
		err := c.Read(ctx, out.Database, func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", from.Schema).Scan(&ok)
		})
		if err != nil && !IsMissingDatabase(err) {
			return out, err
		}
		if !ok {
			out.Schema = to.Schema
		}
	}
	return out, nil
}

// SameGrant reports whether a and b name the same grantee, database and
// schema (the objects aside).
func SameGrant(a, b GrantTarget) bool {
	return sameGrantee(a, b) && a.Database == b.Database && (a.Schema == b.Schema || !usesSchema(a.ObjectType))
}

func sameGrantee(a, b GrantTarget) bool {
	return a.Grantee == b.Grantee || (a.IsPublic() && b.IsPublic())
}

// setGrant is SetGrant in transaction tx (in the target's database); sigs are
// the keys of the routines named with arguments (resolveSignatures).
// With left set (a destroy), what checkApplied finds left undone is stored
// there instead of failing: the rest of the revoke stands.
func setGrant(ctx context.Context, tx pgx.Tx, superuser bool, spec GrantSpec, sigs map[string]string, missingOK bool, left *error) error {
	t := spec.Target
	gOID, exists, err := granteeOID(ctx, tx, t)
	if err != nil {
		return err
	}
	if !exists && t.GranteeOID != 0 && !t.IsPublic() {
		// renamed outside Terraform (GrantTarget.GranteeOID), perhaps being
		// renamed back by this apply: a rename that commits before the
		// revoke below makes it fail, not succeed on nothing (grantGone)
		name, err := renamedRole(ctx, tx, t.GranteeOID)
		if err != nil {
			return err
		}
		if name != "" {
			t.Grantee, gOID, exists = name, t.GranteeOID, true
			spec.Target = t
		}
	}
	var missing []*NotFoundError
	if !exists {
		missing = append(missing, roleNotFound(MissingGrantee, t.Grantee))
	}
	if t.Schema != "" && usesSchema(t.ObjectType) && t.ObjectType != ObjSchema {
		var ok bool
		if err := tx.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", t.Schema).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			missing = append(missing, schemaNotFound(t.Database, t.Schema))
		}
	}
	if len(missing) > 0 {
		if missingOK {
			return nil
		}
		return errorsOf(missing)
	}
	objs, err := readObjects(ctx, tx, t, gOID, sigs)
	if err != nil {
		return err
	}
	if !missingOK {
		w, _ := ctx.Value(writtenObjectsKey{}).(*WrittenObjects)
		w.record(objs)
	}
	if err := missingError(t, objs, sigs); err != nil && !missingOK {
		return err
	}
	actions := grantActions(spec, gOID, objs)
	if len(actions) == 0 {
		return nil // nothing to change: no locks, no statements
	}
	// Lock every object (and, in managed mode, every owner we may join), then read again.
	var keys []pgconn.AdvisoryLockKey
	for _, o := range objs {
		keys = append(keys, pgconn.AdvisoryLockKey{ClassID: o.classID, ObjID: o.oid})
	}
	// the owners of the objects that change
	owners := map[uint32]grantObject{}
	for _, gr := range actions {
		for _, o := range gr.objs {
			owners[o.owner] = o.grantObject
		}
	}
	if t.ObjectType == ObjParameter {
		keys = keys[:0]
		for _, o := range objs {
			keys = append(keys, pgconn.AdvisoryLockKey{ClassID: ClassParameterACL, ObjID: hashName(strings.ToLower(o.name))})
		}
	}
	join, err := lockJoining(ctx, tx, superuser, owners, false, keys, holdsGrantOptions(t.ObjectType, actions))
	if err != nil {
		return err
	}
	before := objs
	if objs, err = readObjects(ctx, tx, t, gOID, sigs); err != nil {
		return err
	}
	if !t.IsPublic() {
		// the grantee's name after the locks: another session (a
		// postgresql_role of this apply) may have renamed it while they
		// were awaited, and the statements name it
		name, err := renamedRole(ctx, tx, gOID)
		if err != nil {
			return err
		}
		if name != "" && name != t.Grantee {
			t.Grantee = name
			spec.Target = t
		}
	}
	if hook, ok := ctx.Value(beforeGrantKey{}).(func()); ok {
		hook()
	}
	gone := false
	apply := func(tx pgx.Tx) error {
		if superuser {
			return applyGrant(ctx, tx, spec, gOID, objs)
		}
		return applyByOwner(ctx, tx, spec, gOID, objs)
	}
	err = withRoles(ctx, tx, ownerNames(join), func() error {
		if !missingOK {
			return apply(tx)
		}
		// a revoke: its grantee (or schema) may be dropped meanwhile by
		// another session, which leaves nothing to revoke (revoke.go)
		var err error
		gone, err = revoking(ctx, tx, grantGone(t), func(tx pgx.Tx) error {
			return ownerSettled(ctx, tx, apply, func() (bool, error) {
				now, err := readObjects(ctx, tx, t, gOID, sigs)
				return ownersChanged(objs, now), err
			})
		})
		if err != nil && undefinedName(err) {
			// or one of its objects, which leaves the others to revoke:
			// the transaction is tried again, and the retry skips it
			if now, rerr := readObjects(ctx, tx, t, gOID, sigs); rerr == nil && len(now) < len(objs) {
				return &pgconn.TransientError{Err: err}
			}
			// or the grantee, renamed by another session since its name
			// was read after the locks (a postgresql_role of this apply):
			// the retry names it as it is now
			if !t.IsPublic() {
				if n, rerr := renamedRole(ctx, tx, gOID); rerr == nil && n != "" && n != t.Grantee {
					return &pgconn.TransientError{Err: err}
				}
			}
		}
		return err
	})
	if err != nil || gone {
		return err
	}
	if err := checkApplied(ctx, tx, spec, gOID, sigs, objs); err != nil {
		// an object that changed owner since it was first read (a
		// postgresql_object_owner of this apply): the grant was made as the
		// owner read then, without the new owner's grant options, and
		// PostgreSQL granted nothing with a mere warning. The transaction is
		// tried again, and the retry acts as the new owner. Found by the
		// long walk, seed 21002 step 1 as the managed admin on PostgreSQL 15
		// (TestAccGrant_regressionOwnerChangedMeanwhile).
		if now, rerr := readObjects(ctx, tx, t, gOID, sigs); rerr == nil && ownersChanged(before, now) {
			return &pgconn.TransientError{Err: err}
		}
		if left != nil {
			*left = err
			return nil
		}
		return err
	}
	return nil
}

// applyByOwner is applyGrant for the objects of each owner in turn, acting
// as that owner where it can (actAsOwner): a grant and its later revoke are
// then made by the same grantor whichever objects change together.
func applyByOwner(ctx context.Context, tx pgx.Tx, spec GrantSpec, gOID uint32, objs []objectRow) error {
	var order []uint32
	byOwner := map[uint32][]objectRow{}
	for _, o := range objs {
		if _, ok := byOwner[o.owner]; !ok {
			order = append(order, o.owner)
		}
		byOwner[o.owner] = append(byOwner[o.owner], o)
	}
	for _, owner := range order {
		group := byOwner[owner]
		back, err := actAsOwner(ctx, tx, map[uint32]grantObject{owner: group[0].grantObject})
		if err != nil {
			return err
		}
		err = applyGrant(ctx, tx, spec, gOID, group)
		back()
		if err != nil {
			return err
		}
	}
	return nil
}

// actAsOwner makes the connected role (not a superuser) act as the owner of
// the objects whose privileges change, when they have one owner, another
// role it may SET ROLE to (a member of it, or borrowing it): PostgreSQL
// records as the grantor of a GRANT the first of the connected role's roles
// that holds the grant options (select_best_grantor), which may be a grantee
// given them WITH GRANT OPTION by another resource. A later revoke of that
// grantee's grant option then fails on the dependent privileges, and
// DROP OWNED BY the grantee leaves them ("role cannot be dropped because
// some objects depend on it"; found by the walk, seed 9507 step 7 as the
// managed admin on PostgreSQL 18). As the owner, the owner is the grantor,
// as when a superuser grants. back acts as the connected role again.
func actAsOwner(ctx context.Context, tx pgx.Tx, owners map[uint32]grantObject) (back func(), err error) {
	back = func() {}
	if len(owners) != 1 {
		return back, nil
	}
	var o grantObject
	for _, x := range owners {
		o = x
	}
	if o.owner == 0 || o.ownerSU || o.ownerName == DatabaseOwnerRole || reservedRole(o.ownerName) {
		return back, nil
	}
	var me, owner string
	var ok bool
	if err := tx.QueryRow(ctx, `SELECT current_user::text, coalesce(pg_get_userbyid($1::oid), ''),
  r.oid <> $1::oid AND NOT r.rolsuper AND EXISTS (SELECT 1 FROM pg_roles WHERE oid = $1::oid)
    AND pg_has_role(current_user, $1::oid, CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END)
FROM pg_roles r WHERE r.rolname = current_user`, o.owner).Scan(&me, &owner, &ok); err != nil || !ok {
		return back, err
	}
	if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+pgconn.QuoteIdent(owner)); err != nil {
		return back, fmt.Errorf("acting as role %q, the owner of %s: %w", owner, o.name, err)
	}
	return func() { _, _ = tx.Exec(ctx, "SET LOCAL ROLE "+pgconn.QuoteIdent(me)) }, nil
}

// grantGone is the goneCheck of a revoke of t: its grantee, or the schema
// of its objects, no longer exists.
func grantGone(t GrantTarget) goneCheck {
	if !usesSchema(t.ObjectType) {
		return granteeGone(t)
	}
	return anyGone(granteeGone(t), schemaGone(t.Schema))
}

// granteeGone is true when no role has t's grantee name, nor, when it is
// known, its OID: a grantee renamed meanwhile is not gone, and the revoke's
// error stands (its privileges are not left behind as if revoked).
func granteeGone(t GrantTarget) goneCheck {
	if t.GranteeOID == 0 || t.IsPublic() {
		return rolesGone(t.Grantee)
	}
	return func(ctx context.Context, q Querier) (bool, error) {
		var gone bool
		err := q.QueryRow(ctx, "SELECT NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1 OR oid = $2)", t.Grantee, t.GranteeOID).Scan(&gone)
		return gone, err
	}
}

func hashName(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// reservedRole reports roles the provider never grants or revokes on its own:
// predefined roles and the admin roles of managed services.
func reservedRole(name string) bool {
	for _, p := range []string{"pg_", "rds", "cloudsql", "azure"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// ownersToJoin lists the owners whose privileges the (non-superuser)
// connected role lacks; it checks they can be joined temporarily. With
// memberOnly, plain membership is enough (ALTER DEFAULT PRIVILEGES FOR ROLE);
// otherwise the privileges must be inherited (GRANT/REVOKE as the owner).
// An owner that cannot be joined is no obstacle when asSelf (nil: none)
// says the connected role holds what the change needs WITH GRANT OPTION: it
// acts as itself on that owner's objects (grant_option.go). The owner
// pg_database_owner is joined as the current database's owner (lender.go):
// the owner returned is that role.
func ownersToJoin(ctx context.Context, tx pgx.Tx, owners map[uint32]grantObject, memberOnly bool, asSelf grantOptionCheck) ([]grantObject, error) {
	var out []grantObject
	var dbo *lender
	for oid, o := range owners {
		viaDBOwner := o.ownerName == DatabaseOwnerRole
		if viaDBOwner {
			if dbo == nil {
				l, err := currentDatabaseOwner(ctx, tx)
				if err != nil {
					return nil, err
				}
				dbo = &l
			}
			o.owner, o.ownerName, o.ownerSU = dbo.oid, dbo.name, dbo.super
		}
		if slices.ContainsFunc(out, func(j grantObject) bool { return j.owner == o.owner }) {
			continue // pg_database_owner and the database's owner: one role to join
		}
		// usage and member: through a membership of the connected role's own
		// (a row of pg_auth_members naming it as the member); what comes
		// only through other roles can be revoked by another session at any
		// time (borrow.go, membership.has), so the owner is borrowed then,
		// unless the connected role cannot grant itself a membership
		var usage, member, viaOthers bool
		if err := tx.QueryRow(ctx, `WITH own AS (SELECT coalesce((to_jsonb(m) ->> 'inherit_option')::bool, true) AS inherit
  FROM pg_auth_members m JOIN pg_roles me ON me.oid = m.member AND me.rolname = current_user WHERE m.roleid = $1::oid)
SELECT pg_has_role(current_user, $1::oid, 'USAGE') AND (EXISTS (SELECT 1 FROM own WHERE inherit) OR $1::oid = (SELECT oid FROM pg_roles WHERE rolname = current_user)),
  pg_has_role(current_user, $1::oid, 'MEMBER') AND (EXISTS (SELECT 1 FROM own) OR $1::oid = (SELECT oid FROM pg_roles WHERE rolname = current_user)),
  pg_has_role(current_user, $1::oid, CASE WHEN $2 THEN 'MEMBER' ELSE 'USAGE' END)`,
			o.owner, memberOnly).Scan(&usage, &member, &viaOthers); err != nil {
			return nil, err
		}
		if usage || (memberOnly && member) {
			continue
		}
		if viaOthers {
			canGrant := !o.ownerSU && !reservedRole(o.ownerName)
			if canGrant {
				var err error
				if canGrant, err = canGrantItself(ctx, tx, o.owner); err != nil {
					return nil, err
				}
			}
			if !canGrant {
				continue // the chain is all there is
			}
		}
		if asSelf != nil {
			// The owners that can be borrowed are (the grants made before
			// were made as them, and only they can revoke those); for the
			// others, the connected role acts as itself if it can.
			joinable := !o.ownerSU && !reservedRole(o.ownerName) && (!member || borrowKeepsMembership(ctx, tx, o.owner))
			var err error
			if joinable {
				if joinable, err = canGrantItself(ctx, tx, o.owner); err != nil {
					return nil, err
				}
			}
			if !joinable {
				self, err := asSelf(ctx, tx, oid) // the objects' owner, as recorded on them
				if err != nil {
					return nil, err
				}
				if self {
					continue
				}
			}
		}
		if member && !borrowKeepsMembership(ctx, tx, o.owner) {
			// Joining and leaving again would end the existing membership.
			return nil, fmt.Errorf("the provider's role is a member of role %q, which owns %q%s, but does not inherit its privileges (NOINHERIT); "+
				"grant the membership WITH INHERIT TRUE or make the provider's role INHERIT", o.ownerName, o.name, throughDBOwner(viaDBOwner))
		}
		if o.ownerSU || reservedRole(o.ownerName) {
			return nil, unborrowableOwnerError(o, viaDBOwner)
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].owner < out[j].owner })
	return out, nil
}

// throughDBOwner says, after "owns <object>", that the ownership is that of
// pg_database_owner, which the current database's owner stands for.
func throughDBOwner(viaDBOwner bool) string {
	if !viaDBOwner {
		return ""
	}
	return " as the owner of the current database (the object belongs to " + DatabaseOwnerRole + ")"
}

// unborrowableOwnerError explains why the connected role cannot take the
// privileges of owner o (a superuser, a predefined role or a managed
// service's role) and what can be done instead. It never suggests granting a
// predefined role: PostgreSQL refuses members for pg_database_owner, and a
// service refuses its own roles.
func unborrowableOwnerError(o grantObject, viaDBOwner bool) error {
	why := fmt.Sprintf("%q is a superuser, whose privileges a role that is not a superuser cannot take", o.ownerName)
	if !o.ownerSU {
		why = fmt.Sprintf("%q is a predefined role or a managed service's role, which the provider never joins", o.ownerName)
	}
	hint := ""
	if o.ownerSU && o.classID == ClassNamespace && o.name == "public" {
		// Before PostgreSQL 15 a new database's public is a copy of its
		// template's: template0's belongs to the bootstrap superuser (the
		// service's, on a managed service), template1's to whoever the service
		// gave it (Cloud SQL: cloudsqlsuperuser; Azure: azure_pg_admin).
		hint = ". Before PostgreSQL 15 schema public belongs to the owner of the template's public: postgresql_database creates databases " +
			"from template0 unless told otherwise, whose public belongs to the bootstrap superuser; on services where template1's public " +
			"belongs to the admin's group (Cloud SQL, Azure), a database created with template = \"template1\" gets a public the admin can grant on"
	}
	return fmt.Errorf("the provider's role needs the privileges of role %q, which owns %q%s, and cannot take them itself (%s). "+
		"Make a role the provider manages the owner, have %q grant the provider's role these privileges WITH GRANT OPTION "+
		"(the provider then grants and revokes them as itself), or apply this change as a superuser%s",
		o.ownerName, o.name, throughDBOwner(viaDBOwner), why, o.ownerName, hint)
}

// ownerNames lists the names of the owners ownersToJoin returned, for borrowRoles.
func ownerNames(owners []grantObject) []string {
	names := make([]string, len(owners))
	for i, o := range owners {
		names[i] = o.ownerName
	}
	return names
}

type grantAction struct {
	revoke, revokeGO, grant []string
	grantWGO                bool
}

func (a grantAction) key() string {
	return strings.Join(a.revoke, ",") + "|" + strings.Join(a.revokeGO, ",") + "|" + strings.Join(a.grant, ",") + fmt.Sprint(a.grantWGO)
}

// grantGroup is one statement's worth of a grant: an action on objects.
type grantGroup struct {
	action grantAction
	objs   []objectRow
}

// exactAction is what makes a grantee who holds held (grantable: those with
// grant option) hold exactly want (the authoritative form).
func exactAction(want []string, withGrantOption bool, held, grantable []string) grantAction {
	var a grantAction
	for _, h := range held {
		if !slices.Contains(want, h) {
			a.revoke = append(a.revoke, h)
		} else if !withGrantOption && slices.Contains(grantable, h) {
			a.revokeGO = append(a.revokeGO, h)
		}
	}
	for _, w := range want {
		if !slices.Contains(held, w) || (withGrantOption && !slices.Contains(grantable, w)) {
			a.grant = append(a.grant, w)
		}
	}
	a.grantWGO = withGrantOption
	return a
}

// additiveAction is what the additive form takes from a grantee who holds
// held (grantable: those with grant option): grant what add lacks (with
// grant option when withGrantOption), revoke what it holds of revoke, and the
// grant option of revokeGO; every other privilege stays as it is.
func additiveAction(add []string, withGrantOption bool, revoke, revokeGO, held, grantable []string) grantAction {
	var a grantAction
	for _, r := range revoke {
		if slices.Contains(held, r) && !slices.Contains(a.revoke, r) {
			a.revoke = append(a.revoke, r)
		}
	}
	for _, r := range revokeGO {
		if slices.Contains(grantable, r) && !slices.Contains(a.revoke, r) && !slices.Contains(a.revokeGO, r) {
			a.revokeGO = append(a.revokeGO, r)
		}
	}
	for _, w := range add {
		if !slices.Contains(held, w) || (withGrantOption && !slices.Contains(grantable, w)) {
			a.grant = append(a.grant, w)
		}
	}
	slices.Sort(a.revoke)
	slices.Sort(a.revokeGO)
	a.grantWGO = withGrantOption
	return a
}

// grantActions lists what applying spec to objs takes: the objects grouped
// by action (in the order first met); none when the grantee holds exactly
// what spec says.
func grantActions(spec GrantSpec, gOID uint32, objs []objectRow) []*grantGroup {
	t := spec.Target
	want := spec.Privileges
	groups := map[string]*grantGroup{}
	var order []*grantGroup
	for _, o := range objs {
		if !t.IsPublic() && o.owner == gOID {
			continue // the owner's privileges come from ownership
		}
		var a grantAction
		if spec.Additive {
			a = additiveAction(spec.Privileges, spec.WithGrantOption, spec.Revoke, spec.RevokeGrantOption, o.held, o.grantable)
		} else {
			a = exactAction(want, spec.WithGrantOption, o.held, o.grantable)
		}
		if len(a.revoke)+len(a.revokeGO)+len(a.grant) == 0 {
			continue
		}
		k := a.key()
		if t.ObjectType == ObjColumn {
			// columns: statements per column
			k += "|" + o.name + "|" + o.column
		}
		if gr, ok := groups[k]; ok {
			gr.objs = append(gr.objs, o)
		} else {
			groups[k] = &grantGroup{action: a, objs: []objectRow{o}}
			order = append(order, groups[k])
		}
	}
	return order
}

func applyGrant(ctx context.Context, tx pgx.Tx, spec GrantSpec, gOID uint32, objs []objectRow) error {
	t := spec.Target
	g := grantee(t)
	for _, gr := range grantActions(spec, gOID, objs) {
		var names []string
		for _, o := range gr.objs {
			names = append(names, o.sql(t.ObjectType, t.Schema))
		}
		if t.ObjectType != ObjTable && t.ObjectType != ObjSequence && t.ObjectType != ObjColumn {
			// one statement per object: the object-type keyword is not repeated in a list
			for _, n := range names {
				if err := execGrant(ctx, tx, gr.action, n, "", g); err != nil {
					return err
				}
			}
			continue
		}
		if t.ObjectType == ObjColumn {
			o := gr.objs[0]
			if err := execGrant(ctx, tx, gr.action, o.sql(ObjTable, t.Schema), pgconn.QuoteIdent(o.column), g); err != nil {
				return err
			}
			continue
		}
		// "TABLE a, TABLE b" is not valid SQL: one keyword, then the list
		kw, _, _ := strings.Cut(names[0], " ")
		bare := make([]string, len(names))
		for i, n := range names {
			_, bare[i], _ = strings.Cut(n, " ")
		}
		target := kw + " " + strings.Join(bare, ", ")
		var restoreCols []columnGrant
		if t.ObjectType == ObjTable && len(gr.action.revoke)+len(gr.action.revokeGO) > 0 {
			// REVOKE on a table also revokes the same privileges on its columns: remember them.
			var err error
			if restoreCols, err = columnGrants(ctx, tx, gr.objs, gOID); err != nil {
				return err
			}
		}
		if err := execGrant(ctx, tx, gr.action, target, "", g); err != nil {
			return err
		}
		for _, cg := range restoreCols {
			stmt := "GRANT " + cg.privilege + " (" + pgconn.QuoteIdent(cg.column) + ") ON " + cg.table + " TO " + g
			if cg.grantable {
				stmt += " WITH GRANT OPTION"
			}
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("restoring column privilege: %w", err)
			}
		}
	}
	return nil
}

func execGrant(ctx context.Context, tx pgx.Tx, a grantAction, target, columns, g string) error {
	privList := func(ps []string) string {
		if columns == "" {
			return strings.Join(ps, ", ")
		}
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p + " (" + columns + ")"
		}
		return strings.Join(out, ", ")
	}
	var stmts []string
	if len(a.revoke) > 0 {
		stmts = append(stmts, "REVOKE "+privList(a.revoke)+" ON "+target+" FROM "+g)
	}
	if len(a.revokeGO) > 0 {
		stmts = append(stmts, "REVOKE GRANT OPTION FOR "+privList(a.revokeGO)+" ON "+target+" FROM "+g)
	}
	if len(a.grant) > 0 {
		s := "GRANT " + privList(a.grant) + " ON " + target + " TO " + g
		if a.grantWGO {
			s += " WITH GRANT OPTION"
		}
		stmts = append(stmts, s)
	}
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", strings.SplitN(s, " TO ", 2)[0], err)
		}
	}
	return nil
}

type columnGrant struct {
	table, column, privilege string
	grantable                bool
}

func columnGrants(ctx context.Context, tx pgx.Tx, objs []objectRow, gOID uint32) ([]columnGrant, error) {
	oids := make([]uint32, len(objs))
	for i, o := range objs {
		oids[i] = o.oid
	}
	rows, err := tx.Query(ctx, `
SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname::text, x.privilege_type, x.is_grantable
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace,
     aclexplode(a.attacl) x
WHERE a.attrelid = ANY($1) AND a.attacl IS NOT NULL AND x.grantee = $2 ORDER BY 1, 2, 3`, oids, gOID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (columnGrant, error) {
		var cg columnGrant
		return cg, row.Scan(&cg.table, &cg.column, &cg.privilege, &cg.grantable)
	})
}

// lockJoining takes the advisory locks of keys and, unless the provider's
// role is a superuser, of the owners it must join to act for them
// (ownersToJoin, asSelf as there), which it returns.
func lockJoining(ctx context.Context, tx pgx.Tx, superuser bool, owners map[uint32]grantObject, memberOnly bool, keys []pgconn.AdvisoryLockKey, asSelf grantOptionCheck) ([]grantObject, error) {
	var join []grantObject
	if !superuser {
		var err error
		if join, err = ownersToJoin(ctx, tx, owners, memberOnly, asSelf); err != nil {
			return nil, err
		}
		for _, o := range join {
			keys = append(keys, pgconn.AdvisoryLockKey{ClassID: ClassAuthID, ObjID: o.owner})
		}
	}
	return join, pgconn.LockObjects(ctx, tx, keys)
}

// GrantObjectNames lists the names a grant of objectType can name in its
// objects: the tables, sequences or routines (their names, without
// arguments) of schema in database db, the foreign data wrappers or servers
// of db, or the configuration parameters; for a column grant, the columns of
// table. Read-only (import resolves cyrilgdn/postgresql's IDs with it).
func (c *Client) GrantObjectNames(ctx context.Context, db, schema, objectType, table string) ([]string, error) {
	var query string
	args := []any{schema}
	switch objectType {
	case ObjTable, ObjSequence:
		kinds := "'r','v','m','f','p'"
		if objectType == ObjSequence {
			kinds = "'S'"
		}
		query = `SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN (` + kinds + `)`
	case ObjFunction, ObjProcedure, ObjRoutine:
		kinds := map[string]string{ObjFunction: "'f','a','w'", ObjProcedure: "'p'", ObjRoutine: "'f','a','w','p'"}[objectType]
		query = `SELECT DISTINCT p.proname::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = $1 AND p.prokind IN (` + kinds + `)`
	case ObjColumn:
		query = `SELECT a.attname::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r','v','m','f','p') AND a.attnum > 0 AND NOT a.attisdropped`
		args = append(args, table)
	case ObjFDW:
		query, args = `SELECT fdwname::text FROM pg_foreign_data_wrapper`, nil
	case ObjServer:
		query, args = `SELECT srvname::text FROM pg_foreign_server`, nil
	case ObjType, ObjDomain:
		kinds := map[string]string{ObjType: "'b','c','d','e','r','m'", ObjDomain: "'d'"}[objectType]
		query = `SELECT t.typname::text FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE n.nspname = $1 AND t.typtype IN (` + kinds + `) AND NOT (t.typcategory = 'A' AND t.typelem <> 0)`
	case ObjLanguage:
		query, args = `SELECT lanname::text FROM pg_language`, nil
	case ObjTablespace:
		query, args, db = `SELECT spcname::text FROM pg_tablespace`, nil, ""
	case ObjLargeObj:
		query, args = `SELECT oid::text FROM pg_largeobject_metadata`, nil
	case ObjParameter:
		caps, err := c.Capabilities(ctx)
		if err != nil {
			return nil, err
		}
		query, args, db = `SELECT name::text FROM pg_settings`, nil, ""
		if caps.AtLeast(15) {
			query += ` UNION SELECT parname::text FROM pg_parameter_acl`
		}
	default:
		return nil, nil
	}
	return c.listNames(ctx, db, query+` ORDER BY 1`, args...)
}

// revokeOwnersSettled runs apply, a revoke's statements, in a savepoint of
// tx. When PostgreSQL refuses it (insufficient privilege) because an object
// changed owner since it was read (a postgresql_role of the same apply
// dropping the owner: REASSIGN OWNED gives its objects to the provider's
// role, and a revoke made as the old owner is refused: "permission denied
// for schema", TestAccGrant_regressionStringNamesCreatedInSameApplyRace,
// managed admin), the transaction is retried, and the retry reads the new
// owner. Any other refusal stands.
// beforeGrantKey is the context key of a test's hook, which setGrant runs
// after its locks and its second read of the objects, before its statements:
// tests change an object's owner there, as another resource of the apply may.
type beforeGrantKey struct{}

// ownersChanged reports whether an object of was has another owner in now.
func ownersChanged(was, now []objectRow) bool {
	owners := map[uint32]uint32{}
	for _, o := range was {
		owners[o.oid] = o.owner
	}
	for _, o := range now {
		if w, ok := owners[o.oid]; ok && w != o.owner {
			return true
		}
	}
	return false
}

// ownerSettled runs apply, a change made with the privileges of the owners
// of its objects as read before (borrowed, borrow.go), in a savepoint of tx.
// When it fails for want of privileges ("must be owner of ...") and changed
// reports that an owner is no longer the one read (given to another role, or
// renamed, by another resource of the apply since the read: borrowing a
// role by a name that is gone borrows nothing), the transaction is retried
// (pgconn.TransientError) and the retry borrows the owners as they are then.
// Grants and revokes (seed 21002 step 1), policies and row-level security
// (asTableOwner, seed 24002 step 1) and owner changes (SetObjectOwner, seed
// 24003 step 23) go through it.
func ownerSettled(ctx context.Context, tx pgx.Tx, apply func(pgx.Tx) error, changed func() (bool, error)) error {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return err
	}
	err = apply(sp)
	if err == nil {
		return sp.Commit(ctx)
	}
	if pgconn.SQLState(err) != pgconn.CodeInsufficientPriv {
		return err
	}
	if rerr := sp.Rollback(ctx); rerr != nil {
		return errors.Join(err, rerr)
	}
	moved, rerr := changed()
	if rerr != nil {
		return errors.Join(err, rerr)
	}
	if moved {
		return &pgconn.TransientError{Err: err}
	}
	return err
}
