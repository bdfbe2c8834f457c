package pg

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// groupGrants writes grants as people write them: the all-objects form when
// a grantee holds the same on every object of a type in a schema (those it
// owns aside), named objects grouped by privileges and grant option
// otherwise, PUBLIC's revoked built-in privileges as what it keeps, and
// nothing for what objects had when they were made.
func TestGroupGrants(t *testing.T) {
	f := func(held string, grantable ...string) aclFact {
		var h []string
		if held != "" {
			h = splitComma(held)
		}
		return aclFact{held: h, grantable: grantable}
	}
	obj := func(ot, schema, name, owner string, now map[string]aclFact) aclListedObject {
		initial := map[string]aclFact{owner: f("DELETE,INSERT,REFERENCES,SELECT,TRIGGER,TRUNCATE,UPDATE")}
		switch ot {
		case ObjFunction, ObjProcedure:
			initial = map[string]aclFact{owner: f("EXECUTE"), PublicGrantee: f("EXECUTE")}
		case ObjType:
			initial = map[string]aclFact{owner: f("USAGE"), PublicGrantee: f("USAGE")}
		case ObjColumn:
			initial = map[string]aclFact{}
		}
		all := map[string]aclFact{}
		for g, x := range initial {
			all[g] = x
		}
		for g, x := range now {
			all[g] = x
		}
		o := aclListedObject{objectType: ot, schema: schema, name: name, owner: owner, now: all, initial: initial}
		if ot == ObjColumn {
			o.name, o.column = splitComma(name)[0], splitComma(name)[1]
		}
		return o
	}
	objs := []aclListedObject{
		// readers: SELECT on every table of app but the one it owns; writers on two
		obj(ObjTable, "app", "a", "owner", map[string]aclFact{"readers": f("SELECT"), "writers": f("INSERT,SELECT")}),
		obj(ObjTable, "app", "b", "owner", map[string]aclFact{"readers": f("SELECT"), "writers": f("INSERT,SELECT")}),
		obj(ObjTable, "app", "c", "readers", nil),
		obj(ObjTable, "app", "d", "owner", map[string]aclFact{"readers": f("SELECT"), "writers": f("SELECT", "SELECT")}),
		// PUBLIC: EXECUTE taken from one function of two; EXECUTE given to app on both
		obj(ObjFunction, "app", "f(integer)", "owner", map[string]aclFact{PublicGrantee: f(""), "app": f("EXECUTE")}),
		obj(ObjFunction, "app", "g()", "owner", map[string]aclFact{"app": f("EXECUTE")}),
		// nothing changed on a type; a column grant
		obj(ObjType, "app", "status", "owner", nil),
		obj(ObjColumn, "app", "a,email", "owner", map[string]aclFact{"analyst": f("SELECT,UPDATE")}),
		obj(ObjColumn, "app", "a,id", "owner", map[string]aclFact{"analyst": f("SELECT")}),
		obj(ObjColumn, "app", "a,name", "owner", map[string]aclFact{"analyst": f("SELECT,UPDATE")}),
	}
	got := groupGrants("db", objs, nil, true)
	g := func(grantee, ot string, objects, columns []string, held []string, grantable ...string) ListedGrant {
		return ListedGrant{Grantee: grantee, Database: "db", Schema: "app", ObjectType: ot, Objects: objects, Columns: columns, Privileges: held, Grantable: grantable}
	}
	want := []ListedGrant{
		g("readers", ObjTable, []string{}, nil, []string{"SELECT"}),
		g("writers", ObjTable, []string{"a", "b"}, []string{}, []string{"INSERT", "SELECT"}),
		g("writers", ObjTable, []string{"d"}, []string{}, []string{"SELECT"}, "SELECT"),
		g("app", ObjFunction, []string{}, nil, []string{"EXECUTE"}),
		g(PublicGrantee, ObjFunction, []string{"f(integer)"}, []string{}, []string{}),
		g("analyst", ObjColumn, []string{"a"}, []string{"email", "name"}, []string{"SELECT", "UPDATE"}),
		g("analyst", ObjColumn, []string{"a"}, []string{"id"}, []string{"SELECT"}),
	}
	opts := cmp.AllowUnexported(ListedGrant{})
	if d := cmp.Diff(want, got, opts); d != "" {
		t.Errorf("groupGrants (-want +got):\n%s", d)
	}
	// explicit objects only
	got = groupGrants("db", objs[:4], func(g string) bool { return g == "readers" }, false)
	want = []ListedGrant{g("readers", ObjTable, []string{"a", "b", "d"}, []string{}, []string{"SELECT"})}
	if d := cmp.Diff(want, got, opts); d != "" {
		t.Errorf("groupGrants, explicit objects (-want +got):\n%s", d)
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
