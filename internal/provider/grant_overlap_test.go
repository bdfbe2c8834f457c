package provider

import (
	"strings"
	"testing"
)

// The overlap rule of grant plans (grant_overlap.go): which pairs of plans of
// one provider instance fail (authoritative beside additive on the same
// objects), warn (two authoritative ones fighting, two additive ones sharing a
// privilege) or pass.
func TestGrantPlans_overlap(t *testing.T) {
	g := func(additive bool, objectType string, objects []string, privs ...string) plannedGrant {
		return plannedGrant{additive: additive, database: "db", grantee: "app", objectType: objectType, schema: "s", objects: objects, privileges: privs}
	}
	with := func(p plannedGrant, f func(*plannedGrant)) plannedGrant { f(&p); return p }
	col := func(additive bool, table string, cols ...string) plannedGrant {
		p := g(additive, "column", []string{table}, "UPDATE")
		p.columns = cols
		return p
	}
	for _, c := range []struct {
		name          string
		first, second plannedGrant
		want          string // "error", "warning" or ""
	}{
		{"issue 145, additive", g(true, "table", []string{"bar", "foo"}, "INSERT"), g(true, "table", []string{"baz", "foo"}, "DELETE"), ""},
		{"issue 145, authoritative", g(false, "table", []string{"bar", "foo"}, "INSERT"), g(false, "table", []string{"baz", "foo"}, "DELETE"), "warning"},
		{"authoritative beside additive", g(false, "table", []string{"foo"}, "SELECT"), g(true, "table", []string{"bar", "foo"}, "INSERT"), "error"},
		{"additive beside authoritative", g(true, "table", []string{"foo"}, "INSERT"), g(false, "table", []string{"foo"}, "INSERT", "SELECT"), "error"},
		{"every table", g(false, "table", nil, "SELECT"), g(true, "table", []string{"baz"}, "SELECT"), "error"},
		{"other tables", g(false, "table", []string{"foo"}, "SELECT"), g(true, "table", []string{"bar"}, "SELECT"), ""},
		{"other schema", g(false, "table", nil, "SELECT"), with(g(true, "table", nil, "SELECT"), func(p *plannedGrant) { p.schema = "t" }), ""},
		{"other database", g(false, "database", nil, "CONNECT"), with(g(true, "database", nil, "CONNECT"), func(p *plannedGrant) { p.database = "db2" }), ""},
		{"same database", g(false, "database", nil, "CONNECT"), g(true, "database", nil, "TEMPORARY"), "error"},
		{"tablespaces are cluster-wide", g(false, "tablespace", []string{"ts"}, "CREATE"), with(g(true, "tablespace", []string{"ts"}, "CREATE"), func(p *plannedGrant) { p.database = "db2" }), "error"},
		{"other grantee", g(false, "table", []string{"foo"}, "SELECT"), with(g(true, "table", []string{"foo"}, "SELECT"), func(p *plannedGrant) { p.grantee = "other" }), ""},
		{"PUBLIC in any case", with(g(false, "table", []string{"foo"}), func(p *plannedGrant) { p.grantee = "public" }),
			with(g(true, "table", []string{"foo"}, "SELECT"), func(p *plannedGrant) { p.grantee = "PUBLIC" }), "error"},
		{"table and column privileges are separate", g(false, "table", []string{"foo"}, "SELECT"), col(true, "foo", "b"), ""},
		{"columns that overlap", col(false, "foo", "a", "b"), col(true, "foo", "b"), "error"},
		{"other columns", col(false, "foo", "a"), col(true, "foo", "b"), ""},
		{"routine covers functions", g(false, "routine", []string{"f"}, "EXECUTE"), g(true, "function", []string{"f(integer)"}, "EXECUTE"), "error"},
		{"other overloads", g(false, "function", []string{"f(integer)"}, "EXECUTE"), g(true, "function", []string{"f(text)"}, "EXECUTE"), ""},
		{"the same overload spelt alike", g(false, "function", []string{"f(Integer, text)"}, "EXECUTE"), g(true, "function", []string{"f(integer,text)"}, "EXECUTE"), "error"},
		{"functions and procedures are separate", g(false, "function", nil, "EXECUTE"), g(true, "procedure", nil, "EXECUTE"), ""},
		{"type covers domains", g(false, "type", []string{"d"}, "USAGE"), g(true, "domain", []string{"d"}, "USAGE"), "error"},
		{"two additive grants of the same privilege", g(true, "table", []string{"foo"}, "INSERT", "SELECT"), g(true, "table", nil, "SELECT"), "warning"},
		{"two authoritative grants that agree", g(false, "table", []string{"foo"}, "SELECT"), g(false, "table", nil, "SELECT"), ""},
		{"the same plan twice", g(true, "table", []string{"foo"}, "SELECT"), g(true, "table", []string{"foo"}, "SELECT"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p grantPlans
			if err, warning := p.noteGrant(c.first); err != "" || warning != "" {
				t.Fatalf("first plan: %q %q", err, warning)
			}
			err, warning := p.noteGrant(c.second)
			got := ""
			switch {
			case err != "":
				got = "error"
			case warning != "":
				got = "warning"
			}
			if got != c.want {
				t.Fatalf("got %s (%q %q), want %q", got, err, warning, c.want)
			}
			if err != "" && !strings.Contains(err, "postgresql_grant of") && !strings.Contains(err, "postgresql_grant_additive of") {
				t.Errorf("the error does not name the other grant: %s", err)
			}
		})
	}
	var nilPlans *grantPlans // before Configure: nothing is compared
	if err, warning := nilPlans.noteGrant(g(true, "table", nil, "SELECT")); err != "" || warning != "" {
		t.Errorf("nil plans: %q %q", err, warning)
	}
}

func TestGrantPlans_defaultPrivilegesOverlap(t *testing.T) {
	d := func(additive bool, schema, objectType string, privs ...string) plannedDefacl {
		return plannedDefacl{additive: additive, database: "db", owner: "o", schema: schema, objectType: objectType, grantee: "app", privileges: privs}
	}
	for _, c := range []struct {
		name          string
		first, second plannedDefacl
		want          string
	}{
		{"the same entry", d(false, "s", "table", "SELECT"), d(true, "s", "table", "INSERT"), "error"},
		{"functions and routines are one entry", d(true, "", "function", "EXECUTE"), d(false, "", "routine", "EXECUTE"), "error"},
		{"a global entry and a schema entry", d(false, "", "table", "SELECT"), d(true, "s", "table", "INSERT"), ""},
		{"two additive ones", d(true, "s", "table", "SELECT"), d(true, "s", "table", "INSERT", "UPDATE"), ""},
		{"two additive ones sharing a privilege", d(true, "s", "table", "SELECT"), d(true, "s", "table", "SELECT", "UPDATE"), "warning"},
		{"two authoritative ones that differ", d(false, "s", "table", "SELECT"), d(false, "s", "table", "INSERT"), "warning"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p grantPlans
			p.noteDefacl(c.first)
			err, warning := p.noteDefacl(c.second)
			got := ""
			switch {
			case err != "":
				got = "error"
			case warning != "":
				got = "warning"
			}
			if got != c.want {
				t.Fatalf("got %s (%q %q), want %q", got, err, warning, c.want)
			}
		})
	}
}
