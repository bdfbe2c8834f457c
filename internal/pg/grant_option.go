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

// A non-superuser admin acts on the privileges of objects it does not own in
// one of two ways: as the owner, whose privileges it borrows (borrow.go), or
// as itself, where it holds every privilege the change needs WITH GRANT
// OPTION. The second is the only way for objects of a superuser or of a
// managed service's reserved role (a wrapper the service installed and
// granted its admin USAGE WITH GRANT OPTION on), and the way cyrilgdn/postgresql
// takes for them. Where the owner can be borrowed the provider keeps doing
// so: the grants it made before are recorded under the owner, and only the
// owner can revoke them. PostgreSQL records a grant made as itself under the
// admin (or the role it inherits the grant option from), and a REVOKE takes
// back only the grants of that grantor: checkApplied reports a privilege
// another grantor gave, which the REVOKE left in place.

// grantOptionCheck reports whether the connected role holds, WITH GRANT
// OPTION, every privilege a change needs on the objects of owner.
type grantOptionCheck func(ctx context.Context, q Querier, owner uint32) (bool, error)

// holdsGrantOptions is the grantOptionCheck of the change actions (grantActions)
// on objects of type objectType: the privileges it grants, revokes or revokes
// the grant option of (a REVOKE by a role other than the owner needs the
// grant option too).
func holdsGrantOptions(objectType string, actions []*grantGroup) grantOptionCheck {
	return func(ctx context.Context, q Querier, owner uint32) (bool, error) {
		var oids []uint32
		var privs, names []string
		for _, gr := range actions {
			need := slices.Concat(gr.action.revoke, gr.action.revokeGO, gr.action.grant)
			for _, o := range gr.objs {
				if o.owner != owner {
					continue
				}
				name := ""
				switch objectType {
				case ObjColumn:
					name = o.column
				case ObjParameter:
					name = o.name
				}
				for _, p := range need {
					oids, privs, names = append(oids, o.oid), append(privs, p), append(names, name)
				}
			}
		}
		if len(oids) == 0 {
			return true, nil
		}
		query := grantOptionQuery(objectType)
		if query == "" {
			return false, nil
		}
		var ok bool
		if err := q.QueryRow(ctx, query, oids, privs, names).Scan(&ok); err != nil {
			return false, fmt.Errorf("checking the provider's grant options on %s: %w", objectType, err)
		}
		return ok, nil
	}
}

// grantOptionQuery is the query of holdsGrantOptions: whether the connected
// role holds each privilege $2[i] on object $1[i] (column or parameter
// $3[i]) WITH GRANT OPTION, itself or through the roles whose privileges it
// inherits, as GRANT and REVOKE see it.
func grantOptionQuery(objectType string) string {
	var check string
	switch objectType {
	case ObjDatabase:
		check = "has_database_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjSchema:
		check = "has_schema_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjTable:
		check = "has_table_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjSequence:
		check = "has_sequence_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjFunction, ObjProcedure, ObjRoutine:
		check = "has_function_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjFDW:
		check = "has_foreign_data_wrapper_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjServer:
		check = "has_server_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjType, ObjDomain:
		check = "has_type_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjLanguage:
		check = "has_language_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjTablespace:
		check = "has_tablespace_privilege(u.o, u.p || ' WITH GRANT OPTION')"
	case ObjColumn:
		check = "has_column_privilege(u.o, u.n, u.p || ' WITH GRANT OPTION')"
	case ObjParameter:
		check = "has_parameter_privilege(u.n, u.p || ' WITH GRANT OPTION')"
	case ObjLargeObj:
		// has_largeobject_privilege is PostgreSQL 17+: the ACL itself
		check = `EXISTS (SELECT 1 FROM pg_largeobject_metadata m, aclexplode(coalesce(m.lomacl, acldefault('L', m.lomowner))) a
  WHERE m.oid = u.o AND a.privilege_type = u.p AND a.is_grantable AND a.grantee <> 0 AND pg_has_role(a.grantee, 'USAGE'))`
	default:
		return ""
	}
	return `SELECT coalesce(bool_and(` + check + `), true) FROM unnest($1::oid[], $2::text[], $3::text[]) AS u(o, p, n)`
}

// canGrantItself reports whether the connected role may grant itself
// membership in role (by OID): on PostgreSQL 16+ a CREATEROLE role may only
// for the roles it holds ADMIN OPTION on.
func canGrantItself(ctx context.Context, q Querier, role uint32) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, `SELECT current_setting('server_version_num')::int < 160000 OR pg_has_role(current_user, $1::oid, 'MEMBER WITH ADMIN OPTION')`, role).Scan(&ok)
	return ok, err
}

// aclEntry is one entry of an object's ACL for the grantee: a privilege, its
// grant option and who granted it.
type aclEntry struct {
	oid       uint32
	column    string
	privilege string
	grantable bool
	grantor   string
}

// readGrantors lists the ACL entries of the grantee on the target's objects.
func readGrantors(ctx context.Context, q Querier, t GrantTarget, granteeOID uint32, sigs map[string]string) ([]aclEntry, error) {
	query, _, args, err := objectsQuery(t, granteeOID, sigs)
	if err != nil {
		return nil, err
	}
	rows, err := q.Query(ctx, `SELECT o.oid, o.col, a.privilege_type, a.is_grantable, coalesce(r.rolname, a.grantor::text)
FROM (`+query+`) o CROSS JOIN LATERAL aclexplode(o.acl) a LEFT JOIN pg_roles r ON r.oid = a.grantor
WHERE a.grantee = $5 ORDER BY 1, 2, 3, 5`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading %s privileges: %w", t.ObjectType, err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (aclEntry, error) {
		var e aclEntry
		return e, row.Scan(&e.oid, &e.column, &e.privilege, &e.grantable, &e.grantor)
	})
}

// checkApplied reads again the objects applyGrant changed (before: what it
// read) and fails, naming why, when the grantee does not hold exactly what
// spec says: a REVOKE takes back only the grants of the role it acts as,
// and a GRANT gives only what that role holds WITH GRANT OPTION (PostgreSQL
// only warns about both). The read-back would otherwise show privileges
// that the apply was to change.
func checkApplied(ctx context.Context, tx pgx.Tx, spec GrantSpec, gOID uint32, sigs map[string]string, before []objectRow) error {
	t := spec.Target
	changed := map[string]bool{}
	key := func(oid uint32, column string) string { return fmt.Sprint(oid) + "\x00" + column }
	for _, gr := range grantActions(spec, gOID, before) {
		for _, o := range gr.objs {
			changed[key(o.oid, o.column)] = true
		}
	}
	after, err := readObjects(ctx, tx, t, gOID, sigs)
	if err != nil {
		return err
	}
	// only the objects it changed: others may have appeared meanwhile
	after = slices.DeleteFunc(after, func(o objectRow) bool { return !changed[key(o.oid, o.column)] })
	left := grantActions(spec, gOID, after)
	if spec.Additive {
		// a privilege the additive form revoked that another grantor gave
		// too is theirs, not the resource's: only a grant left undone fails
		left = slices.DeleteFunc(left, func(gr *grantGroup) bool { return len(gr.action.grant) == 0 })
		for _, gr := range left {
			gr.action.revoke, gr.action.revokeGO = nil, nil
		}
	}
	if len(left) == 0 {
		return nil
	}
	entries, err := readGrantors(ctx, tx, t, gOID, sigs)
	if err != nil {
		return err
	}
	var me string
	if err := tx.QueryRow(ctx, "SELECT current_user").Scan(&me); err != nil {
		return err
	}
	var errs []error
	for _, gr := range left {
		for _, o := range gr.objs {
			errs = append(errs, notAppliedErrors(t, o, gr.action, entries, me)...)
		}
	}
	return errors.Join(errs...)
}

// notAppliedErrors explains what action left undone on object o.
func notAppliedErrors(t GrantTarget, o objectRow, a grantAction, entries []aclEntry, me string) []error {
	what := grantObjectDisplay(t, o)
	g := grantee(t)
	target, privList := o.sql(t.ObjectType, t.Schema), func(ps []string) string { return strings.Join(ps, ", ") }
	if t.ObjectType == ObjColumn {
		target = o.sql(ObjTable, t.Schema)
		privList = func(ps []string) string {
			out := make([]string, len(ps))
			for i, p := range ps {
				out[i] = p + " (" + pgconn.QuoteIdent(o.column) + ")"
			}
			return strings.Join(out, ", ")
		}
	}
	// the privileges left, by grantor
	byGrantor := map[string][]string{}
	var grantors []string
	add := func(p string, grantOption bool) {
		for _, e := range entries {
			if e.oid != o.oid || e.column != o.column || e.privilege != p || (grantOption && !e.grantable) {
				continue
			}
			if _, ok := byGrantor[e.grantor]; !ok {
				grantors = append(grantors, e.grantor)
			}
			if !slices.Contains(byGrantor[e.grantor], p) {
				byGrantor[e.grantor] = append(byGrantor[e.grantor], p)
			}
		}
	}
	for _, p := range a.revoke {
		add(p, false)
	}
	for _, p := range a.revokeGO {
		add(p, true)
	}
	var errs []error
	for _, r := range grantors {
		privs := byGrantor[r]
		stmt, held := "REVOKE "+privList(privs), privList(privs)
		if !slices.ContainsFunc(privs, func(p string) bool { return slices.Contains(a.revoke, p) }) {
			stmt, held = "REVOKE GRANT OPTION FOR "+privList(privs), "the grant option of "+privList(privs)
		}
		stmt += " ON " + target + " FROM " + g
		errs = append(errs, fmt.Errorf("cannot revoke %s on %s from %s: it was granted by role %s, and a REVOKE takes back only "+
			"the grants of the role that revokes (the provider's role %s, or the owner whose privileges it uses). "+
			"Revoke it as %s (%s), or as a role with the privileges of %s: %s GRANTED BY %s; then apply again",
			held, what, granteeDisplay(t), pgconn.QuoteIdent(r), pgconn.QuoteIdent(me), pgconn.QuoteIdent(r), stmt, pgconn.QuoteIdent(r), stmt, pgconn.QuoteIdent(r)))
	}
	if len(a.grant) > 0 {
		p := privList(a.grant)
		if a.grantWGO {
			p += " WITH GRANT OPTION"
		}
		errs = append(errs, fmt.Errorf("GRANT %s ON %s TO %s did not give %s those privileges on %s: PostgreSQL grants only what the granting role "+
			"(the provider's role %s, or the owner whose privileges it uses) holds WITH GRANT OPTION", p, target, g, granteeDisplay(t), what, pgconn.QuoteIdent(me)))
	}
	if len(errs) == 0 {
		// a revoke left in place whose grantor the read did not find
		errs = append(errs, fmt.Errorf("%s still holds privileges on %s that the provider revoked (%s): another role granted them; revoke them as that role",
			granteeDisplay(t), what, privList(slices.Concat(a.revoke, a.revokeGO))))
	}
	return errs
}

// grantObjectDisplay names object o of a grant in full: with its schema,
// the arguments of a routine, and the database unless it is cluster-wide.
func grantObjectDisplay(t GrantTarget, o objectRow) string {
	name := o.name
	if isRoutine(t.ObjectType) {
		name += "(" + o.args + ")"
	}
	s := objectDisplay(t.ObjectType, t.Schema, name)
	if t.ObjectType == ObjColumn {
		s = "column " + pgconn.QuoteIdent(o.column) + " of " + s
	}
	switch t.ObjectType {
	case ObjDatabase, ObjParameter, ObjTablespace:
		return s
	}
	return s + " in database " + pgconn.QuoteIdent(t.Database)
}

// granteeDisplay names the grantee: role "x", or PUBLIC.
func granteeDisplay(t GrantTarget) string {
	if t.IsPublic() {
		return "PUBLIC"
	}
	return "role " + pgconn.QuoteIdent(t.Grantee)
}
