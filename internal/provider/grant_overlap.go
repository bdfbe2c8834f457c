package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Authoritative and additive grants of one grantee on the same objects fight:
// the authoritative postgresql_grant revokes every privilege it does not list,
// the additive postgresql_grant_additive grants its own back, and every plan
// of either shows a change, for ever (and destroying an additive grant revokes
// what an authoritative one lists). The provider sees one resource per call,
// but every plan of one provider configuration in one Terraform command goes
// to one provider instance: the plans note what they manage here
// (grantPlans, one per configured instance, in providerData), and the plan that
// comes second of two that overlap fails, naming the other. Grants planned by
// other provider configurations (aliases: other processes) or other
// configurations (other states) are not seen: the resource pages say what
// happens then.
//
// Two authoritative grants that name the same objects with different
// privileges fight the same way (community issue #145): that is a warning, as
// configurations written for cyrilgdn/postgresql do it, and it names the
// additive form. Two additive grants that give the same privilege on the same
// object do not fight, but destroying either revokes it from both (PostgreSQL
// records one privilege per grantor): a warning too.

// grantPlans is what the plans of one provider instance manage.
type grantPlans struct {
	mu      sync.Mutex
	grants  []plannedGrant
	defacls []plannedDefacl
}

// plannedGrant is what one postgresql_grant or postgresql_grant_additive plan
// manages: the grantee's privileges of one object type on some objects.
type plannedGrant struct {
	additive                              bool
	database, grantee, objectType, schema string
	objects, columns                      []string // objects nil: every object of the type in the schema
	privileges                            []string // expanded
	withGrantOption                       bool
}

// plannedDefacl is what one postgresql_default_privileges or
// postgresql_default_privileges_additive plan manages: an entry of
// pg_default_acl for one grantee.
type plannedDefacl struct {
	additive                                     bool
	database, owner, schema, objectType, grantee string
	privileges                                   []string // expanded
	withGrantOption                              bool
}

// resourceType names the resource of a plan in messages.
func (g plannedGrant) resourceType() string {
	if g.additive {
		return "postgresql_grant_additive"
	}
	return "postgresql_grant"
}

func (d plannedDefacl) resourceType() string {
	if d.additive {
		return "postgresql_default_privileges_additive"
	}
	return "postgresql_default_privileges"
}

// describe names what g manages, as a message shows it.
func (g plannedGrant) describe() string {
	var what string
	switch {
	case g.objectType == pg.ObjDatabase:
		what = fmt.Sprintf("database %q", g.database)
	case g.objectType == pg.ObjSchema:
		what = fmt.Sprintf("schema %q in database %q", g.schema, g.database)
	case g.objects == nil:
		what = fmt.Sprintf("every %s of schema %q in database %q", g.objectType, g.schema, g.database)
	default:
		what = fmt.Sprintf("%s %s", g.objectType, quotedList(g.objects))
		if g.objectType == pg.ObjColumn {
			what = fmt.Sprintf("columns %s of table %s", quotedList(g.columns), quotedList(g.objects))
		}
		if slices.Contains(grantSchemaTypes, g.objectType) {
			what += fmt.Sprintf(" in schema %q", g.schema)
		}
		if g.objectType != pg.ObjParameter && g.objectType != pg.ObjTablespace {
			what += fmt.Sprintf(" in database %q", g.database)
		}
	}
	return fmt.Sprintf("%s of %s to %q on %s", g.resourceType(), privilegeList(g.privileges), g.grantee, what)
}

func (d plannedDefacl) describe() string {
	where := "every schema"
	if d.schema != "" {
		where = fmt.Sprintf("schema %q", d.schema)
	}
	return fmt.Sprintf("%s of %s to %q on %ss that %q creates in %s of database %q",
		d.resourceType(), privilegeList(d.privileges), d.grantee, d.objectType, d.owner, where, d.database)
}

func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func privilegeList(privs []string) string {
	if len(privs) == 0 {
		return "no privileges"
	}
	return strings.Join(privs, ", ")
}

// sameGrantee reports whether two grantees are the same role (PUBLIC in any case).
func sameGrantee(a, b string) bool {
	return a == b || (pg.IsPublic(a) && pg.IsPublic(b))
}

// overlappingTypes reports whether grants of object types a and b can name
// the same object: the same type, routines and functions or procedures,
// types and domains. Table and column privileges are separate ACLs.
func overlappingTypes(a, b string) bool {
	if a == b {
		return true
	}
	pair := func(x, y string) bool { return (a == x && b == y) || (a == y && b == x) }
	return pair(pg.ObjRoutine, pg.ObjFunction) || pair(pg.ObjRoutine, pg.ObjProcedure) || pair(pg.ObjType, pg.ObjDomain)
}

// sameObject reports whether two names in objects may name the same object:
// equal, or for routines the same routine name where either names every
// overload (`f`), or the same arguments as written.
func sameObject(objectType, a, b string) bool {
	if a == b {
		return true
	}
	if !isRoutineType(objectType) {
		return false
	}
	an, aArgs, aSig := strings.Cut(a, "(")
	bn, bArgs, bSig := strings.Cut(b, "(")
	if strings.TrimSpace(an) != strings.TrimSpace(bn) {
		return false
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return !aSig || !bSig || norm(aArgs) == norm(bArgs)
}

// intersects reports whether two lists of names share one (nil: every name).
func intersects(a, b []string, same func(x, y string) bool) bool {
	if a == nil || b == nil {
		return true
	}
	for _, x := range a {
		if slices.ContainsFunc(b, func(y string) bool { return same(x, y) }) {
			return true
		}
	}
	return false
}

// overlaps reports whether g and o manage privileges of one grantee on one
// object (or column).
func (g plannedGrant) overlaps(o plannedGrant) bool {
	if !sameGrantee(g.grantee, o.grantee) || !overlappingTypes(g.objectType, o.objectType) {
		return false
	}
	if g.objectType != pg.ObjParameter && g.objectType != pg.ObjTablespace && g.database != o.database {
		return false
	}
	if slices.Contains(grantSchemaTypes, g.objectType) && g.schema != o.schema {
		return false
	}
	t := g.objectType
	if isRoutineType(o.objectType) {
		t = o.objectType
	}
	if !intersects(g.objects, o.objects, func(x, y string) bool { return sameObject(t, x, y) }) {
		return false
	}
	if g.objectType == pg.ObjColumn {
		return intersects(g.columns, o.columns, func(x, y string) bool { return x == y })
	}
	return true
}

// equal reports whether g and o are the same plan (Terraform plans a resource
// once per command; two identical plans are not two resources to compare).
func (g plannedGrant) equal(o plannedGrant) bool {
	return g.additive == o.additive && g.database == o.database && g.grantee == o.grantee && g.objectType == o.objectType &&
		g.schema == o.schema && slices.Equal(g.objects, o.objects) && slices.Equal(g.columns, o.columns) && slices.Equal(g.privileges, o.privileges) &&
		g.withGrantOption == o.withGrantOption
}

func (d plannedDefacl) equal(o plannedDefacl) bool {
	return d.additive == o.additive && d.database == o.database && d.owner == o.owner && d.schema == o.schema && d.objectType == o.objectType &&
		d.grantee == o.grantee && slices.Equal(d.privileges, o.privileges) && d.withGrantOption == o.withGrantOption
}

func (d plannedDefacl) overlaps(o plannedDefacl) bool {
	ft := func(t string) string {
		if t == "routine" {
			return "function" // one entry of pg_default_acl
		}
		return t
	}
	return d.database == o.database && d.owner == o.owner && d.schema == o.schema && ft(d.objectType) == ft(o.objectType) && sameGrantee(d.grantee, o.grantee)
}

// noteGrant records what plan g manages and returns an error when an earlier
// plan of the other form overlaps it, or a warning when an earlier plan of
// the same form fights it (authoritative) or gives some of the same
// privileges on the same objects (additive).
func (p *grantPlans) noteGrant(g plannedGrant) (err, warning string) {
	if p == nil {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range p.grants {
		if o.equal(g) || !o.overlaps(g) {
			continue
		}
		switch {
		case o.additive != g.additive:
			return fmt.Sprintf("This %s and the %s in the same configuration manage the privileges of %q on the same objects. "+
				"The authoritative postgresql_grant revokes every privilege of its object type it does not list, and the additive postgresql_grant_additive grants its own back: "+
				"every apply would undo the other, and destroying the additive grant would revoke what the authoritative one lists. "+
				"Manage these privileges in one place: list them all in the postgresql_grant, or replace it by postgresql_grant_additive resources.",
				g.describe(), o.describe(), g.grantee), ""
		case warning != "":
		case !g.additive && (!slices.Equal(g.privileges, o.privileges) || g.withGrantOption != o.withGrantOption):
			warning = fmt.Sprintf("This %s and the %s in the same configuration name the same objects with different privileges. "+
				"Each is authoritative: it revokes what it does not list, so every apply undoes the other and every plan shows a change. "+
				"Use postgresql_grant_additive for privileges that several resources give the same role on the same objects, or list them in one postgresql_grant.",
				g.describe(), o.describe())
		case g.additive:
			if common := commonPrivileges(g.privileges, o.privileges); len(common) > 0 {
				warning = fmt.Sprintf("This %s and the %s in the same configuration both give %s on the same objects. "+
					"PostgreSQL records the privilege once for the role that grants it: destroying either resource (or removing the privilege from it) revokes it from both, "+
					"and the other plans to grant it again. Give each privilege on each object in one resource.",
					g.describe(), o.describe(), strings.Join(common, ", "))
			}
		}
	}
	p.grants = append(p.grants, g)
	return "", warning
}

// noteDefacl is noteGrant for default privileges: plans overlap when they
// name the same entry of pg_default_acl.
func (p *grantPlans) noteDefacl(d plannedDefacl) (err, warning string) {
	if p == nil {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range p.defacls {
		if o.equal(d) || !o.overlaps(d) {
			continue
		}
		switch {
		case o.additive != d.additive:
			return fmt.Sprintf("This %s and the %s in the same configuration manage the same default privileges of %q. "+
				"The authoritative postgresql_default_privileges revokes every privilege of the entry it does not list, and the additive postgresql_default_privileges_additive grants its own back: "+
				"every apply would undo the other. Manage these default privileges in one place: list them all in the postgresql_default_privileges, "+
				"or replace it by postgresql_default_privileges_additive resources.",
				d.describe(), o.describe(), d.grantee), ""
		case warning != "":
		case !d.additive && (!slices.Equal(d.privileges, o.privileges) || d.withGrantOption != o.withGrantOption):
			warning = fmt.Sprintf("This %s and the %s in the same configuration manage the same entry with different privileges: "+
				"each revokes what the other grants, on every apply. Use postgresql_default_privileges_additive for privileges several resources give, or list them in one resource.",
				d.describe(), o.describe())
		case d.additive:
			if common := commonPrivileges(d.privileges, o.privileges); len(common) > 0 {
				warning = fmt.Sprintf("This %s and the %s in the same configuration both give %s. "+
					"Destroying either resource (or removing the privilege from it) revokes it from both, and the other plans to grant it again. Give each privilege in one resource.",
					d.describe(), o.describe(), strings.Join(common, ", "))
			}
		}
	}
	p.defacls = append(p.defacls, d)
	return "", warning
}

func commonPrivileges(a, b []string) []string {
	var out []string
	for _, p := range a {
		if slices.Contains(b, p) {
			out = append(out, p)
		}
	}
	return out
}

// fullyKnown reports whether s and each of its elements are known.
func fullyKnown(s types.Set) bool {
	if s.IsUnknown() {
		return false
	}
	for _, e := range s.Elements() {
		if e.IsUnknown() {
			return false
		}
	}
	return true
}

// sortedOrNil is the sorted list of s's strings, nil when it has none.
func sortedOrNil(ctx context.Context, s types.Set) []string {
	l := tfkit.SetStrings(ctx, s)
	if len(l) == 0 {
		return nil
	}
	slices.Sort(l)
	return l
}

// noteGrantPlan records the plan m of a grant (additive or not) among the
// provider instance's plans and reports an overlap with an earlier one
// (grantPlans.noteGrant). Plans with unknown values are not compared.
func noteGrantPlan(ctx context.Context, plans *grantPlans, m *grantModel, additive bool, major int, diags *diag.Diagnostics) {
	if plans == nil || !isKnown(m.Role) || !isKnown(m.Database) || m.Schema.IsUnknown() || !isKnown(m.ObjectType) ||
		!fullyKnown(m.Objects) || !fullyKnown(m.Columns) || !fullyKnown(m.Privileges) || m.WithGrantOption.IsUnknown() {
		return
	}
	ot := m.ObjectType.ValueString()
	g := plannedGrant{
		additive: additive, database: m.Database.ValueString(), grantee: m.Role.ValueString(), objectType: ot,
		objects: sortedOrNil(ctx, m.Objects), columns: sortedOrNil(ctx, m.Columns),
		privileges:      pg.ExpandPrivileges(ot, major, tfkit.SetStrings(ctx, m.Privileges)),
		withGrantOption: m.WithGrantOption.ValueBool(),
	}
	if slices.Contains(grantSchemaTypes, ot) {
		g.schema = m.Schema.ValueString()
	}
	if ot == pg.ObjDatabase || ot == pg.ObjSchema {
		g.objects = nil
	}
	err, warning := plans.noteGrant(g)
	if err != "" {
		diags.AddAttributeError(path.Root("objects"), "Authoritative and additive grants overlap", err)
	}
	if warning != "" {
		diags.AddAttributeWarning(path.Root("privileges"), "Grants overlap", warning)
	}
}

// noteDefaultPrivilegesPlan is noteGrantPlan for default privileges.
func noteDefaultPrivilegesPlan(ctx context.Context, plans *grantPlans, m *defaultPrivilegesModel, additive bool, major int, diags *diag.Diagnostics) {
	if plans == nil || !isKnown(m.Role) || !isKnown(m.Database) || !isKnown(m.Owner) || m.Schema.IsUnknown() || !isKnown(m.ObjectType) ||
		!fullyKnown(m.Privileges) || m.WithGrantOption.IsUnknown() {
		return
	}
	ot := m.ObjectType.ValueString()
	err, warning := plans.noteDefacl(plannedDefacl{
		additive: additive, database: m.Database.ValueString(), owner: m.Owner.ValueString(), schema: m.Schema.ValueString(),
		objectType: ot, grantee: m.Role.ValueString(),
		privileges:      pg.ExpandDefaultPrivileges(ot, major, tfkit.SetStrings(ctx, m.Privileges)),
		withGrantOption: m.WithGrantOption.ValueBool(),
	})
	if err != "" {
		diags.AddAttributeError(path.Root("role"), "Authoritative and additive default privileges overlap", err)
	}
	if warning != "" {
		diags.AddAttributeWarning(path.Root("privileges"), "Default privileges overlap", warning)
	}
}
