package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// adoptListFixture adds to listFixture's objects (roles a and b, database db
// owned by the admin, schema s1 with table items) one or more objects of
// every kind listed since adopting whole clusters, made with SQL as the admin
// of the mode where it can (the superuser makes what only a superuser may:
// the foreign-data wrapper, the event trigger, replication slots, the
// security label; the managed admin lists and adopts them too), and returns
// the cases listing them.
func adoptListFixture(t *testing.T, p, db, a, b, s1 string) []listCase {
	t.Helper()
	str := knownvalue.StringExact
	like := fmt.Sprintf("%q", p+"\\_%")
	dbArg := fmt.Sprintf("    database = %q\n", db)
	items := acctest.QQ(s1, "items")
	admin := acctest.AdminUser()
	// slot names: lower-case letters, digits and underscores
	slot := strings.ReplaceAll(p, "-", "_")

	acctest.AdminExec(t, "", "ALTER ROLE "+acctest.QI(a)+" SET work_mem = '4MB'", "ALTER ROLE "+acctest.QI(a)+" SET search_path = app, public")
	acctest.AdminExec(t, db,
		"ALTER TABLE "+items+" ENABLE ROW LEVEL SECURITY",
		"CREATE POLICY "+acctest.QI(p+"_pol")+" ON "+items+" FOR SELECT TO "+acctest.QI(b)+" USING (id > 0)",
		"COMMENT ON TABLE "+items+" IS 'the items'",
		"COMMENT ON COLUMN "+items+".id IS 'the id'",
		"COMMENT ON SCHEMA "+acctest.QI(s1)+" IS 'schema one'",
		"COMMENT ON ROLE "+acctest.QI(a)+" IS 'role a'",
		// grants: PUBLIC left without its privileges on the database, a
		// group's CONNECT, USAGE on the schema and SELECT on all its tables
		"REVOKE ALL ON DATABASE "+acctest.QI(db)+" FROM PUBLIC",
		"GRANT CONNECT ON DATABASE "+acctest.QI(db)+" TO "+acctest.QI(b),
		"GRANT USAGE ON SCHEMA "+acctest.QI(s1)+" TO "+acctest.QI(b),
		"GRANT SELECT ON ALL TABLES IN SCHEMA "+acctest.QI(s1)+" TO "+acctest.QI(b),
		"GRANT UPDATE (id) ON "+items+" TO "+acctest.QI(a))
	// a foreign-data wrapper only a superuser can make, whose USAGE lets the
	// admin make a server and a user mapping
	acctest.Exec(t, db, "CREATE FOREIGN DATA WRAPPER "+acctest.QI(p+"_fdw"), "GRANT USAGE ON FOREIGN DATA WRAPPER "+acctest.QI(p+"_fdw")+" TO "+acctest.QI(admin))
	acctest.AdminExec(t, db,
		"CREATE SERVER "+acctest.QI(p+"_srv")+" FOREIGN DATA WRAPPER "+acctest.QI(p+"_fdw")+" OPTIONS (host 'example')",
		"CREATE USER MAPPING FOR "+acctest.QI(a)+" SERVER "+acctest.QI(p+"_srv")+" OPTIONS (\"user\" 'remote')")
	labels := strings.Contains(acctest.QueryString(t, "", "SELECT current_setting('shared_preload_libraries')"), "dummy_seclabel")
	if labels {
		acctest.Exec(t, db, "SECURITY LABEL FOR dummy ON TABLE "+items+" IS 'classified'")
	}
	// as the superuser in both modes: the managed admin lists and adopts what
	// it could not make (the event trigger's function keeps PUBLIC's EXECUTE
	// in both)
	acctest.Exec(t, db,
		"CREATE FUNCTION "+acctest.QQ(s1, "on_ddl")+"() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN END$$",
		"GRANT EXECUTE ON FUNCTION "+acctest.QQ(s1, "on_ddl")+"() TO PUBLIC",
		"CREATE EVENT TRIGGER "+acctest.QI(p+"_evt")+" ON ddl_command_end EXECUTE FUNCTION "+acctest.QQ(s1, "on_ddl")+"()",
		"SELECT pg_create_logical_replication_slot('"+slot+"_slot', 'pgoutput')")
	acctest.Exec(t, "", "SELECT pg_create_physical_replication_slot('"+slot+"_phys')")
	t.Cleanup(func() {
		acctest.Exec(t, "", "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('"+slot+"_slot', '"+slot+"_phys')")
	})
	grant := func(role, schema, objectType string, objects, columns []string) map[string]knownvalue.Check {
		set := func(s []string) knownvalue.Check {
			c := make([]knownvalue.Check, len(s))
			for i, v := range s {
				c[i] = str(v)
			}
			return knownvalue.SetExact(c)
		}
		var sc knownvalue.Check = knownvalue.Null()
		if schema != "" {
			sc = str(schema)
		}
		return map[string]knownvalue.Check{"role": str(role), "database": str(db), "schema": sc, "object_type": str(objectType),
			"objects": set(objects), "columns": set(columns)}
	}
	comment := func(objectType, schema, name, column string) map[string]knownvalue.Check {
		s, c := knownvalue.Check(knownvalue.Null()), knownvalue.Check(knownvalue.Null())
		if schema != "" {
			s = str(schema)
		}
		if column != "" {
			c = str(column)
		}
		return map[string]knownvalue.Check{"database": str(db), "object_type": str(objectType), "schema": s, "object_name": str(name), "column_name": c}
	}
	grantsFor := fmt.Sprintf("%s    role = %s\n    cluster_wide = false", dbArg, like)
	return []listCase{
		// search_path is postgresql_role's argument: left out unless asked
		{typ: "postgresql_role_setting", config: "    role = " + like, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"role": str(a), "database": knownvalue.Null(), "parameter": str("work_mem")}}},
		{typ: "postgresql_role_setting", config: "    role = " + like + "\n    include_role_arguments = true", count: 2},
		{typ: "postgresql_policy", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "schema": str(s1), "table": str("items"), "name": str(p + "_pol")}}},
		{typ: "postgresql_policy", config: dbArg + `    table = "other"`, count: 0},
		{typ: "postgresql_table_rls", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "schema": str(s1), "table": str("items")}}},
		// the schema's and the table's; the role's with cluster_wide only
		{typ: "postgresql_comment", config: dbArg, count: 3, adopt: true, ids: []map[string]knownvalue.Check{
			comment("column", s1, "items", "id"), comment("schema", "", s1, ""), comment("table", s1, "items", "")}},
		{typ: "postgresql_comment", config: dbArg + `    object_type = "role"` + "\n    cluster_wide = true", count: -1,
			ids: []map[string]knownvalue.Check{comment("role", "", a, "")}},
		{typ: "postgresql_security_label", config: dbArg, count: 1, adopt: true, skip: !labels,
			ids: []map[string]knownvalue.Check{{"database": str(db), "label_provider": str("dummy"), "object_type": str("table"), "schema": str(s1), "object_name": str("items")}}},
		{typ: "postgresql_server", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "server_name": str(p + "_srv")}}},
		{typ: "postgresql_user_mapping", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "server_name": str(p + "_srv"), "user_name": str(a)}}},
		{typ: "postgresql_user_mapping", config: dbArg + `    user_name = "public"`, count: 0},
		{typ: "postgresql_event_trigger", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "name": str(p + "_evt")}}},
		{typ: "postgresql_replication_slot", config: dbArg, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"database": str(db), "name": str(slot + "_slot")}}},
		{typ: "postgresql_physical_replication_slot", config: fmt.Sprintf("    like_any_patterns = [%q]", slot+"\\_%"), count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"name": str(slot + "_phys")}}},
		// the grants of p's roles and PUBLIC's on the database
		{typ: "postgresql_grant", config: grantsFor, count: 4, adopt: true, ids: []map[string]knownvalue.Check{
			grant(b, "", "database", nil, nil), grant(b, s1, "schema", nil, nil), grant(b, s1, "table", nil, nil),
			grant(a, s1, "column", []string{"items"}, []string{"id"})}},
		// PUBLIC: none left on the database, nor (default privileges) on the
		// admin's functions: one of s1's two (named), s2's only one (all)
		{typ: "postgresql_grant", config: dbArg + "    role = \"public\"", count: 3, adopt: true, ids: []map[string]knownvalue.Check{
			grant("public", "", "database", nil, nil), grant("public", s1, "function", []string{p + "_add(integer, integer)"}, nil),
			grant("public", p+"_s2", "function", nil, nil)}},
		{typ: "postgresql_grant", config: grantsFor + "\n    explicit_objects = true\n    object_type = \"table\"", count: 1,
			ids: []map[string]knownvalue.Check{grant(b, s1, "table", []string{"items"}, nil)}},
	}
}

// Every resource type has a list resource, or a reason in notListable (which
// the adoption guide gives too).
func TestListResources_coverage(t *testing.T) {
	ctx := context.Background()
	p := &pgProvider{}
	var listed []string
	for _, f := range p.ListResources(ctx) {
		var resp resource.MetadataResponse
		f().(list.ListResourceWithConfigure).Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		if slices.Contains(listed, resp.TypeName) {
			t.Errorf("two list resources for %s", resp.TypeName)
		}
		listed = append(listed, resp.TypeName)
	}
	guide := readGuide(t)
	for _, f := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		name := resp.TypeName
		_, skip := notListable[name]
		switch {
		case slices.Contains(listed, name) && skip:
			t.Errorf("%s has a list resource and a reason in notListable", name)
		case !slices.Contains(listed, name) && !skip:
			t.Errorf("%s has no list resource: add one (list_objects.go) or say why in notListable", name)
		case skip && !strings.Contains(guide, "`"+name+"`"):
			t.Errorf("the adoption guide does not say why %s is not listed", name)
		}
	}
}

// readGuide is the adoption guide's template.
func readGuide(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../templates/guides/adopting-existing-clusters.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 38: the generated postgresql_role blocks carried `roles = [...]`
// while the generated postgresql_grant_role blocks held the same
// memberships, two resources owning one fact. The role list now leaves
// `roles` unset unless include_roles asks for it there (and then the query
// must not list postgresql_grant_role).
func TestAccListResources_regressionMembershipOwnedTwice(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	p := acctest.RandName("own")
	member, group := p+"_member", p+"_group"
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(group), "CREATE ROLE "+acctest.QI(member)+" IN ROLE "+acctest.QI(group))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(member), "DROP ROLE IF EXISTS "+acctest.QI(group))
	})
	like := fmt.Sprintf("%q", p+"\\_%")
	roles := func(extra string) string {
		return "list \"postgresql_role\" \"r\" {\n  provider = postgresql\n  config {\n    like_any_patterns = [" + like + "]\n" + extra + "  }\n}\n"
	}
	memberships := "list \"postgresql_grant_role\" \"m\" {\n  provider = postgresql\n  config {\n    role = " + like + "\n  }\n}\n"
	roleBlock := regexp.MustCompile(`(?s)resource "postgresql_role" "[^"]*" \{.*?\n\}`)
	for _, c := range []struct {
		query     string
		withRoles bool
	}{
		{roles("") + memberships, false},
		{roles("    include_roles = true\n"), true},
	} {
		generated, err := acctest.GenerateConfig(t, c.query)
		if err != nil {
			t.Fatal(err)
		}
		blocks := roleBlock.FindAllString(generated, -1)
		if len(blocks) != 2 {
			t.Fatalf("expected 2 generated roles:\n%s", generated)
		}
		for _, b := range blocks {
			// with include_roles every role says its memberships, none included (roles = [])
			if hasRoles := regexp.MustCompile(`(?m)^\s*roles\s*=`).MatchString(b); hasRoles != c.withRoles {
				t.Errorf("include_roles %v: roles set = %v in\n%s", c.withRoles, hasRoles, b)
			}
		}
		r, err := acctest.PlanDetails(t, generated, "")
		if err != nil {
			t.Fatalf("%v\n%s", err, r.Text)
		}
		if len(r.Changed) > 0 {
			t.Errorf("changes beyond the imports: %v\n%s", r.Changed, r.Text)
		}
		if err := checkOneOwner(r.Configured, acctest.DefaultDatabase()); err != nil {
			t.Error(err)
		}
	}
}
