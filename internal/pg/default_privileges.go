package pg

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
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
	ok                     bool
}

func resolveDefacl(ctx context.Context, q Querier, t DefaultPrivilegesTarget) (defaclIDs, error) {
	var ids defaclIDs
	var owner, schema, grantee *uint32
	err := q.QueryRow(ctx, `SELECT (SELECT oid FROM pg_roles WHERE rolname = $1),
  CASE WHEN $2 = '' THEN 0::oid ELSE (SELECT oid FROM pg_namespace WHERE nspname = $2) END,
  CASE WHEN $4 THEN 0::oid ELSE (SELECT oid FROM pg_roles WHERE rolname = $3) END`,
		t.Owner, t.Schema, t.Grantee, t.isPublic()).Scan(&owner, &schema, &grantee)
	if err != nil {
		return ids, err
	}
	if owner == nil || schema == nil || grantee == nil {
		return ids, nil
	}
	return defaclIDs{owner: *owner, schema: *schema, grantee: *grantee, ok: true}, nil
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
		st.Exists = true
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
// of the owner exactly privs (expanded and normalised). Reset (destroy)
// passes the built-in defaults with missingOK, which makes PostgreSQL remove
// the entry when nothing else is left in it.
func (c *Client) SetDefaultPrivileges(ctx context.Context, t DefaultPrivilegesTarget, privs []string, withGrantOption, missingOK bool) error {
	if missingOK {
		var dbOK bool
		err := c.Do(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1 AND datallowconn)", t.Database).Scan(&dbOK)
		})
		if err != nil || !dbOK {
			return err
		}
	}
	superuser, err := c.Superuser(ctx)
	if err != nil {
		return err
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	// PostgreSQL 15 and older accept plain membership in the owner; 16 wants its privileges.
	memberOnly := !caps.AtLeast(16)
	objtype, aclType, plural := defaclType(t.ObjectType)
	return c.Tx(ctx, t.Database, func(ctx context.Context, tx pgx.Tx) error {
		ids, err := resolveDefacl(ctx, tx, t)
		if err != nil {
			return err
		}
		if !ids.ok {
			if missingOK {
				return nil
			}
			return fmt.Errorf("owner %q, grantee %q or schema %q does not exist in database %q", t.Owner, t.Grantee, t.Schema, t.Database)
		}
		keys := []AdvisoryLockKey{{ClassID: ClassDefaultACL, ObjID: ids.owner ^ ids.schema*2654435761 ^ uint32(objtype[0])}}
		var ownerName string
		var ownerSU bool
		if err := tx.QueryRow(ctx, "SELECT rolname, rolsuper FROM pg_roles WHERE oid = $1", ids.owner).Scan(&ownerName, &ownerSU); err != nil {
			return err
		}
		owner := map[uint32]grantObject{ids.owner: {owner: ids.owner, ownerName: ownerName, ownerSU: ownerSU, name: "default privileges of " + ownerName}}
		join, err := lockJoining(ctx, tx, superuser, owner, memberOnly, keys)
		if err != nil {
			return err
		}
		var hasEntry bool
		var held, grantable []string
		if err := tx.QueryRow(ctx, defaclQuery, ids.owner, ids.schema, objtype, aclType, ids.grantee).Scan(&hasEntry, &held, &grantable); err != nil {
			return err
		}
		granted, err := borrowRoles(ctx, tx, ownerNames(join)...)
		if err != nil {
			return err
		}
		var a grantAction
		for _, h := range held {
			if !slices.Contains(privs, h) {
				a.revoke = append(a.revoke, h)
			} else if !withGrantOption && slices.Contains(grantable, h) {
				a.revokeGO = append(a.revokeGO, h)
			}
		}
		for _, w := range privs {
			if !slices.Contains(held, w) || (withGrantOption && !slices.Contains(grantable, w)) {
				a.grant = append(a.grant, w)
			}
		}
		prefix := "ALTER DEFAULT PRIVILEGES FOR ROLE " + QuoteIdent(ownerName)
		if t.Schema != "" {
			prefix += " IN SCHEMA " + QuoteIdent(t.Schema)
		}
		g := "PUBLIC"
		if !t.isPublic() {
			g = QuoteIdent(t.Grantee)
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
			if withGrantOption {
				s += " WITH GRANT OPTION"
			}
			stmts = append(stmts, s)
		}
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("altering default privileges: %w", err)
			}
		}
		return returnRoles(ctx, tx, granted)
	})
}

// ExpandDefaultPrivileges normalises privileges and replaces ALL by the full
// list for the default-privileges object type. Sorted and unique.
func ExpandDefaultPrivileges(objectType string, major int, privs []string) []string {
	return expandAll(privs, DefaultPrivileges(objectType, major))
}
