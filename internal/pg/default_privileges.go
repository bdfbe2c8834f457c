package pg

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ClassDefaultACL is the OID of pg_default_acl (advisory-lock class for default privileges).
const ClassDefaultACL = 826

// DefaultPrivilegesObjectTypes lists the object types postgresql_default_privileges accepts.
var DefaultPrivilegesObjectTypes = []string{"table", "sequence", "function", "routine", "type", "schema", "large_object"}

// DefaultPrivilegesMinMajor is the first PostgreSQL major version that has
// default privileges of an object type, for those newer than 12.
var DefaultPrivilegesMinMajor = map[string]int{"large_object": 18}

// UnqualifiedDefaultPrivilegesTypes are the object types whose default
// privileges cannot be limited to a schema (IN SCHEMA).
var UnqualifiedDefaultPrivilegesTypes = []string{"schema", "large_object"}

// DefaultPrivileges returns the privileges ALTER DEFAULT PRIVILEGES knows for an object type.
func DefaultPrivileges(objectType string, major int) []string {
	switch objectType {
	case "table":
		return GrantPrivileges(ObjTable, major)
	case "sequence":
		return GrantPrivileges(ObjSequence, major)
	case "function", "routine":
		return []string{"EXECUTE"}
	case "type":
		return []string{"USAGE"}
	case "schema":
		return []string{"CREATE", "USAGE"}
	case "large_object":
		return []string{"SELECT", "UPDATE"}
	}
	return nil
}

func defaclType(objectType string) (objtype, aclType, plural string) {
	switch objectType {
	case "table":
		return "r", "r", "TABLES"
	case "sequence":
		return "S", "s", "SEQUENCES"
	case "function":
		return "f", "f", "FUNCTIONS"
	case "routine":
		return "f", "f", "ROUTINES"
	case "type":
		return "T", "T", "TYPES"
	case "schema":
		return "n", "n", "SCHEMAS"
	case "large_object":
		return "L", "L", "LARGE OBJECTS"
	}
	return "", "", ""
}

// DefaultPrivilegesTarget names one (owner, schema, object type, grantee) default ACL entry.
type DefaultPrivilegesTarget struct {
	Database   string
	Owner      string
	Schema     string // "" = every schema (global entry)
	ObjectType string
	Grantee    string // role or "public"
	// OwnerOID and GranteeOID are the roles' OIDs when last read (0 when
	// unknown): a role no longer of that name that has that OID was
	// renamed outside Terraform, and is followed under its current name
	// (as GrantTarget.GranteeOID).
	OwnerOID, GranteeOID uint32
}

func (t DefaultPrivilegesTarget) isPublic() bool { return IsPublic(t.Grantee) }

// DefaultPrivilegesState is what the grantee gets on new objects.
type DefaultPrivilegesState struct {
	Exists    bool // database, schema, owner and grantee exist
	Held      []string
	Grantable []string
	// HasEntry reports whether pg_default_acl holds an entry (for global
	// entries, no entry means the built-in defaults apply).
	HasEntry bool
	// OwnerOID and GranteeOID (0 for PUBLIC) are the roles' OIDs, to
	// record as the target's.
	OwnerOID, GranteeOID uint32
}

const defaclQuery = `
SELECT d.oid IS NOT NULL,
  array(SELECT DISTINCT a.privilege_type FROM aclexplode(acl.v) a WHERE a.grantee = $5 ORDER BY 1),
  array(SELECT DISTINCT a.privilege_type FROM aclexplode(acl.v) a WHERE a.grantee = $5 AND a.is_grantable ORDER BY 1)
FROM (SELECT 1) one
LEFT JOIN pg_default_acl d ON d.defaclrole = $1 AND d.defaclnamespace = $2 AND d.defaclobjtype = $3::"char"
CROSS JOIN LATERAL (SELECT CASE WHEN d.oid IS NOT NULL THEN d.defaclacl
                                WHEN $2 = 0 THEN acldefault($4::"char", $1)
                                ELSE NULL::aclitem[] END AS v) acl`

type defaclIDs struct {
	owner, schema, grantee uint32
	granteeName            string // the grantee's current name (followed by OID), "" for PUBLIC
	ok                     bool
	missing                []*NotFoundError // what does not exist, when !ok
}

// resolveDefacl finds the OIDs of t's owner, schema and grantee, following
// an owner or grantee renamed outside Terraform by its OID (t.OwnerOID,
// t.GranteeOID) when no role has its name.
func resolveDefacl(ctx context.Context, q Querier, t DefaultPrivilegesTarget) (defaclIDs, error) {
	var ids defaclIDs
	var owner, schema, grantee *uint32
	var granteeName *string
	err := q.QueryRow(ctx, `SELECT coalesce((SELECT oid FROM pg_roles WHERE rolname = $1), (SELECT oid FROM pg_roles WHERE oid = $5::oid AND $5::oid <> 0)),
  CASE WHEN $2 = '' THEN 0::oid ELSE (SELECT oid FROM pg_namespace WHERE nspname = $2) END,
  g.oid, g.rolname
FROM (SELECT 1) one LEFT JOIN LATERAL (
  SELECT oid, rolname FROM pg_roles WHERE NOT $4 AND (rolname = $3 OR (oid = $6::oid AND $6::oid <> 0))
  ORDER BY rolname = $3 DESC LIMIT 1) g ON true`,
		t.Owner, t.Schema, t.Grantee, t.isPublic(), t.OwnerOID, t.GranteeOID).Scan(&owner, &schema, &grantee, &granteeName)
	if err != nil {
		return ids, err
	}
	if t.isPublic() {
		zero := uint32(0)
		grantee = &zero
	}
	if owner == nil {
		ids.missing = append(ids.missing, roleNotFound(MissingOwner, t.Owner))
	}
	if grantee == nil {
		ids.missing = append(ids.missing, roleNotFound(MissingGrantee, t.Grantee))
	}
	if schema == nil {
		ids.missing = append(ids.missing, schemaNotFound(t.Database, t.Schema))
	}
	if len(ids.missing) > 0 {
		return ids, nil
	}
	ids = defaclIDs{owner: *owner, schema: *schema, grantee: *grantee, ok: true}
	if granteeName != nil {
		ids.granteeName = *granteeName
	}
	return ids, nil
}

// ReadDefaultPrivileges reads pg_default_acl for the target.
func (c *Client) ReadDefaultPrivileges(ctx context.Context, t DefaultPrivilegesTarget) (*DefaultPrivilegesState, error) {
	st := &DefaultPrivilegesState{}
	var dbOK bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1 AND datallowconn)", t.Database).Scan(&dbOK)
	})
	if err != nil || !dbOK {
		return st, err
	}
	objtype, aclType, _ := defaclType(t.ObjectType)
	err = c.Read(ctx, t.Database, func(ctx context.Context, q Querier) error {
		ids, err := resolveDefacl(ctx, q, t)
		if err != nil || !ids.ok {
			return err
		}
		st.Exists, st.OwnerOID, st.GranteeOID = true, ids.owner, ids.grantee
		return q.QueryRow(ctx, defaclQuery, ids.owner, ids.schema, objtype, aclType, ids.grantee).Scan(&st.HasEntry, &st.Held, &st.Grantable)
	})
	return st, err
}

// BuiltinDefaultPrivileges is what the grantee gets on new objects of the
// owner when no default privileges were ever altered (global entries only;
// PUBLIC gets EXECUTE on functions and USAGE on types).
func BuiltinDefaultPrivileges(t DefaultPrivilegesTarget) []string {
	if t.Schema != "" || !t.isPublic() {
		return nil
	}
	switch t.ObjectType {
	case "function", "routine":
		return []string{"EXECUTE"}
	case "type":
		return []string{"USAGE"}
	}
	return nil
}

// SetDefaultPrivileges makes the grantee's default privileges on new objects
// of the owner exactly privs (expanded and normalised); when they are already
// that, it only reads. Reset (destroy) passes the built-in defaults with
// missingOK, which makes PostgreSQL remove the entry when nothing else is
// left in it. A missing database, owner, grantee or schema is a
// NotFoundError, found before any statement; with missingOK it is no error
// and nothing is done.
func (c *Client) SetDefaultPrivileges(ctx context.Context, t DefaultPrivilegesTarget, privs []string, withGrantOption, missingOK bool) error {
	if missingOK {
		var dbOK bool
		err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1 AND datallowconn)", t.Database).Scan(&dbOK)
		})
		if err != nil || !dbOK {
			return err
		}
	} else if err := c.checkDatabase(ctx, t.Database); err != nil {
		return err
	}
	superuser, memberOnly, err := c.defaclMode(ctx)
	if err != nil {
		return err
	}
	err = c.Tx(ctx, t.Database, func(ctx context.Context, tx pgx.Tx) error {
		return setDefaultPrivileges(ctx, tx, superuser, memberOnly, t, exactDefacl(privs, withGrantOption), missingOK)
	})
	if missingOK && err != nil && c.defaclGone(ctx, t, err) {
		return nil
	}
	return err
}

// defaclGone reports whether err, from a reset (missingOK) of t's default
// privileges, came from a schema, role or database that t names being
// dropped while the reset ran (a destroy that drops it in parallel: a module
// naming it by a string gives Terraform no order), and it is gone now: what
// the reset wanted.
func (c *Client) defaclGone(ctx context.Context, t DefaultPrivilegesTarget, err error) bool {
	switch pgconn.SQLState(err) {
	case pgconn.CodeInvalidSchemaName, pgconn.CodeUndefinedObject, pgconn.CodeInvalidCatalogName:
	default:
		return false
	}
	var gone bool
	rerr := c.Read(ctx, t.Database, func(ctx context.Context, q Querier) error {
		ids, err := resolveDefacl(ctx, q, t)
		gone = !ids.ok
		return err
	})
	return IsMissingDatabase(rerr) || (rerr == nil && gone)
}

// MoveDefaultPrivileges makes the default privileges of t exactly privs and
// resets those of from (what the resource named before: another owner,
// grantee, schema or database that still exists under that name) to the
// built-in ones, in one transaction when both are in the same database;
// otherwise t is set first and from reset afterwards.
func (c *Client) MoveDefaultPrivileges(ctx context.Context, from, t DefaultPrivilegesTarget, privs []string, withGrantOption bool) error {
	if from.Database != t.Database {
		if err := c.SetDefaultPrivileges(ctx, t, privs, withGrantOption, false); err != nil {
			return err
		}
		return c.SetDefaultPrivileges(ctx, from, BuiltinDefaultPrivileges(from), false, true)
	}
	if err := c.checkDatabase(ctx, t.Database); err != nil {
		return err
	}
	superuser, memberOnly, err := c.defaclMode(ctx)
	if err != nil {
		return err
	}
	return c.Tx(ctx, t.Database, func(ctx context.Context, tx pgx.Tx) error {
		if err := setDefaultPrivileges(ctx, tx, superuser, memberOnly, from, exactDefacl(BuiltinDefaultPrivileges(from), false), true); err != nil {
			return err
		}
		return setDefaultPrivileges(ctx, tx, superuser, memberOnly, t, exactDefacl(privs, withGrantOption), false)
	})
}

// DefaultPrivilegesFrom is the entry that from (what a resource named
// before) names now that the resource names t instead: its database, owner,
// grantee and schema, each taken as renamed to t's when it no longer exists
// under its old name (pg_default_acl is keyed by OIDs: the entry followed
// the rename). When the result is t, the entry is already where it belongs.
// An owner or grantee with a recorded OID (OwnerOID, GranteeOID) is followed
// by it, as GrantFrom follows a grantee: renamed outside Terraform (and
// perhaps being renamed back by this apply), the role still holds the entry
// under its other name, and the entry is moved from there (the long walk,
// seed 25007 step 17 as the managed admin on PostgreSQL 15: the entry stayed
// with the renamed grantee).
func (c *Client) DefaultPrivilegesFrom(ctx context.Context, from, t DefaultPrivilegesTarget) (DefaultPrivilegesTarget, error) {
	out := from
	var dbOK, ownerOK, granteeOK bool
	var ownerNow, granteeNow string
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		err := q.QueryRow(ctx, `SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1), exists(SELECT 1 FROM pg_roles WHERE rolname = $2),
  $4 OR exists(SELECT 1 FROM pg_roles WHERE rolname = $3)`, from.Database, from.Owner, from.Grantee, from.isPublic()).Scan(&dbOK, &ownerOK, &granteeOK)
		if err != nil {
			return err
		}
		if !ownerOK && from.OwnerOID != 0 {
			if ownerNow, err = renamedRole(ctx, q, from.OwnerOID); err != nil {
				return err
			}
		}
		if !granteeOK && from.GranteeOID != 0 && !from.isPublic() {
			granteeNow, err = renamedRole(ctx, q, from.GranteeOID)
		}
		return err
	})
	if err != nil {
		return out, err
	}
	if from.Database != t.Database && !dbOK {
		out.Database = t.Database
	}
	if from.Owner != t.Owner && !ownerOK {
		out.Owner = cmp.Or(ownerNow, t.Owner)
	}
	if from.Grantee != t.Grantee && (!from.isPublic() || !t.isPublic()) && !granteeOK {
		out.Grantee = cmp.Or(granteeNow, t.Grantee)
	}
	if from.Schema != t.Schema && from.Schema != "" && t.Schema != "" {
		var ok bool
		err := c.Read(ctx, out.Database, func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", from.Schema).Scan(&ok)
		})
		if err != nil && !IsMissingDatabase(err) {
			return out, err
		}
		if !ok {
			out.Schema = t.Schema
		}
	}
	return out, nil
}

// SameDefaultPrivileges reports whether a and b name the same entry.
func SameDefaultPrivileges(a, b DefaultPrivilegesTarget) bool {
	return a.Database == b.Database && a.Owner == b.Owner && a.Schema == b.Schema && a.ObjectType == b.ObjectType &&
		(a.Grantee == b.Grantee || (a.isPublic() && b.isPublic()))
}

// defaclMode is whether the provider's role is a superuser, and whether plain
// membership in an owner lets it alter the owner's default privileges
// (PostgreSQL 15 and older; 16 wants the owner's privileges).
func (c *Client) defaclMode(ctx context.Context) (superuser, memberOnly bool, err error) {
	if superuser, err = c.Superuser(ctx); err != nil {
		return false, false, err
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return false, false, err
	}
	return superuser, !caps.AtLeast(16), nil
}

// defaclChange is what to do to a grantee's default privileges, from those
// it holds (grantable: with grant option): exactAction for the authoritative
// form, additiveAction for the additive one.
type defaclChange func(held, grantable []string) grantAction

// exactDefacl makes the grantee hold exactly privs.
func exactDefacl(privs []string, withGrantOption bool) defaclChange {
	return func(held, grantable []string) grantAction {
		return exactAction(privs, withGrantOption, held, grantable)
	}
}

// setDefaultPrivileges is SetDefaultPrivileges in transaction tx (in t's
// database), making the change change asks for.
func setDefaultPrivileges(ctx context.Context, tx pgx.Tx, superuser, memberOnly bool, t DefaultPrivilegesTarget, change defaclChange, missingOK bool) error {
	objtype, aclType, plural := defaclType(t.ObjectType)
	ids, err := resolveDefacl(ctx, tx, t)
	if err != nil {
		return err
	}
	if !ids.ok {
		if missingOK {
			return nil
		}
		return errorsOf(ids.missing)
	}
	keys := []pgconn.AdvisoryLockKey{{ClassID: ClassDefaultACL, ObjID: ids.owner ^ ids.schema*2654435761 ^ uint32(objtype[0])}}
	var ownerName string
	var ownerSU bool
	if err := tx.QueryRow(ctx, "SELECT rolname, rolsuper FROM pg_roles WHERE oid = $1", ids.owner).Scan(&ownerName, &ownerSU); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			// the owner was dropped since resolveDefacl (a destroy dropping it
			// in parallel, its DROP OWNED taking the entry along)
			if missingOK {
				return nil
			}
			return fmt.Errorf("role %s, the owner, was dropped meanwhile", pgconn.QuoteIdent(t.Owner))
		}
		return err
	}
	owner := map[uint32]grantObject{ids.owner: {owner: ids.owner, ownerName: ownerName, ownerSU: ownerSU, name: "default privileges of " + ownerName}}
	read := func() (grantAction, error) {
		var hasEntry bool
		var held, grantable []string
		if err := tx.QueryRow(ctx, defaclQuery, ids.owner, ids.schema, objtype, aclType, ids.grantee).Scan(&hasEntry, &held, &grantable); err != nil {
			return grantAction{}, err
		}
		return change(held, grantable), nil
	}
	a, err := read()
	if err != nil || len(a.revoke)+len(a.revokeGO)+len(a.grant) == 0 {
		return err // nothing to change: no locks, no statements
	}
	join, err := lockJoining(ctx, tx, superuser, owner, memberOnly, keys, nil)
	if err != nil {
		return err
	}
	if a, err = read(); err != nil {
		return err
	}
	// the roles' names after the locks: a postgresql_role of this apply may
	// have renamed one while they were awaited, and the statements name them
	if n, err := renamedRole(ctx, tx, ids.owner); err != nil {
		return err
	} else if n != "" {
		ownerName = n
	}
	if !t.isPublic() {
		if n, err := renamedRole(ctx, tx, ids.grantee); err != nil {
			return err
		} else if n != "" {
			ids.granteeName = n
		}
	}
	granted, err := borrowRoles(ctx, tx, ownerNames(join)...)
	if err != nil {
		return err
	}
	prefix := "ALTER DEFAULT PRIVILEGES FOR ROLE " + pgconn.QuoteIdent(ownerName)
	if t.Schema != "" {
		prefix += " IN SCHEMA " + pgconn.QuoteIdent(t.Schema)
	}
	g := "PUBLIC"
	if !t.isPublic() {
		g = pgconn.QuoteIdent(ids.granteeName)
	}
	var stmts []string
	if len(a.revoke) > 0 {
		stmts = append(stmts, prefix+" REVOKE "+strings.Join(a.revoke, ", ")+" ON "+plural+" FROM "+g)
	}
	if len(a.revokeGO) > 0 {
		stmts = append(stmts, prefix+" REVOKE GRANT OPTION FOR "+strings.Join(a.revokeGO, ", ")+" ON "+plural+" FROM "+g)
	}
	if len(a.grant) > 0 {
		s := prefix + " GRANT " + strings.Join(a.grant, ", ") + " ON " + plural + " TO " + g
		if a.grantWGO {
			s += " WITH GRANT OPTION"
		}
		stmts = append(stmts, s)
	}
	apply := func(tx pgx.Tx) error {
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("altering default privileges: %w", err)
			}
		}
		return nil
	}
	if missingOK {
		// a reset: its owner, grantee or schema may be dropped meanwhile by
		// another session, which leaves nothing to reset (revoke.go); a
		// role renamed meanwhile is not gone (its OID stays)
		_, err = revoking(ctx, tx, anyGone(roleOIDsGone(ids.owner, ids.grantee), schemaGone(t.Schema)), apply)
	} else {
		err = apply(tx)
	}
	if err != nil {
		return err
	}
	return returnRoles(ctx, tx, granted)
}

// ExpandDefaultPrivileges normalises privileges and replaces ALL by the full
// list for the default-privileges object type. Sorted and unique.
func ExpandDefaultPrivileges(objectType string, major int, privs []string) []string {
	return expandAll(privs, DefaultPrivileges(objectType, major))
}
