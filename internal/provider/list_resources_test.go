package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// listCase is one list block over the objects of listFixture: its type, its
// config body, its limit (0: none), how many results it finds (-1: not
// checked, for cluster-wide objects other tests make too) and identities
// among them. adopt: the block is also part of the generate-config round
// trip. skip: the objects it lists could not be made in this mode.
type listCase struct {
	typ    string
	config string
	limit  int
	count  int
	ids    []map[string]knownvalue.Check
	adopt  bool
	skip   bool
}

func (c listCase) block(label string) string {
	limit := ""
	if c.limit > 0 {
		limit = fmt.Sprintf("  limit    = %d\n", c.limit)
	}
	return fmt.Sprintf("list %q %q {\n  provider = postgresql\n%s  config {\n%s\n  }\n}\n", c.typ, label, limit, c.config)
}

// listFixture makes with SQL, as the admin of the mode (a cluster Terraform
// does not manage yet), one or more objects of every kind with a list
// resource, named after p, and returns the cases listing them. Cleanups run
// in reverse: the subscription, the database, then the roles.
func listFixture(t *testing.T, p string) []listCase {
	t.Helper()
	db, admin := p+"_db", acctest.AdminUser()
	a, b, s1, s2 := p+"_a", p+"_b", p+"_s1", p+"_s2"
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(a)+" LOGIN CONNECTION LIMIT 5", "CREATE ROLE "+acctest.QI(b), "GRANT "+acctest.QI(b)+" TO "+acctest.QI(a))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(a), "DROP ROLE IF EXISTS "+acctest.QI(b))
	})
	acctest.Database(t, db, admin)
	acctest.AdminExec(t, "", "ALTER DATABASE "+acctest.QI(db)+" SET work_mem = '8MB'",
		"ALTER ROLE "+acctest.QI(a)+" IN DATABASE "+acctest.QI(db)+" SET statement_timeout = '1min'")
	acctest.AdminExec(t, db,
		"CREATE SCHEMA "+acctest.QI(s1), "CREATE SCHEMA "+acctest.QI(s2), "CREATE EXTENSION IF NOT EXISTS pgcrypto",
		"ALTER DEFAULT PRIVILEGES IN SCHEMA "+acctest.QI(s1)+" GRANT SELECT ON TABLES TO "+acctest.QI(b),
		"ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC",
		"CREATE FUNCTION "+acctest.QQ(s1, p+"_add")+"(a integer, b integer) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT a + b'",
		"CREATE FUNCTION "+acctest.QQ(s2, p+"_hello")+"() RETURNS text LANGUAGE plpgsql AS $$BEGIN RETURN 'hello'; END$$",
		"CREATE TABLE "+acctest.QQ(s1, "items")+" (id int PRIMARY KEY)",
		"CREATE PUBLICATION "+acctest.QI(p+"_pub")+" FOR TABLE "+acctest.QQ(s1, "items"))
	// a subscription that never connects (no slot): CREATE SUBSCRIPTION needs
	// superuser, or pg_create_subscription from PostgreSQL 16 (managed)
	noSub := acctest.Managed() && acctest.ServerMajor(t) < 16
	if !noSub {
		acctest.AdminExec(t, db, fmt.Sprintf("CREATE SUBSCRIPTION %s CONNECTION '%s' PUBLICATION %s WITH (connect = false, slot_name = NONE)",
			acctest.QI(p+"_sub"), acctest.Conninfo(db), acctest.QI(p+"_pub")))
		t.Cleanup(func() { acctest.AdminExec(t, db, "DROP SUBSCRIPTION IF EXISTS "+acctest.QI(p+"_sub")) })
	}
	implicit := 1 // memberships in p's roles with include_system
	if acctest.Managed() && acctest.ServerMajor(t) >= 16 {
		implicit = 3 // the admin's in a and b
	}
	str := knownvalue.StringExact
	like := fmt.Sprintf("%q", p+"\\_%")
	dbArg := fmt.Sprintf("    database = %q\n", db)
	dbName := func(name string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{"database": str(db), "name": str(name)}
	}
	defaultPrivileges := func(role, schema, objectType string) map[string]knownvalue.Check {
		var s knownvalue.Check = knownvalue.Null()
		if schema != "" {
			s = str(schema)
		}
		return map[string]knownvalue.Check{"role": str(role), "database": str(db), "owner": str(admin), "schema": s, "object_type": str(objectType)}
	}
	cases := []listCase{
		{typ: "postgresql_role", config: "    like_any_patterns = [" + like + "]", count: 2, adopt: true,
			ids: []map[string]knownvalue.Check{{"name": str(a)}, {"name": str(b)}}},
		{typ: "postgresql_role", config: "    like_any_patterns = [" + like + "]", limit: 1, count: 1},
		{typ: "postgresql_database", config: fmt.Sprintf("    regex_pattern = %q", "^"+db+"$"), count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"name": str(db)}}},
		{typ: "postgresql_schema", config: dbArg + "    like_any_patterns = [" + like + "]", count: 2, adopt: true,
			ids: []map[string]knownvalue.Check{dbName(s1), dbName(s2)}},
		{typ: "postgresql_extension", config: dbArg, count: 1, adopt: true, ids: []map[string]knownvalue.Check{dbName("pgcrypto")}},
		// memberships: the admin's own (PostgreSQL 16+) are left out by the pattern
		{typ: "postgresql_grant_role", config: "    role = " + like, count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{{"role": str(a), "grant_role": str(b)}}},
		{typ: "postgresql_grant_role", config: fmt.Sprintf("    grant_role_regex = %q", "^"+b+"$"), count: 1},
		// the memberships in p's roles: with include_system, also those a
		// managed admin received in the roles it created (PostgreSQL 16+)
		{typ: "postgresql_grant_role", config: "    grant_role = " + like, count: 1},
		{typ: "postgresql_grant_role", config: "    grant_role = " + like + "\n    include_system = true", count: implicit},
		// predefined roles' own memberships only with include_system
		{typ: "postgresql_grant_role", config: `    role = "pg_monitor"`, count: 0},
		{typ: "postgresql_grant_role", config: "    role = \"pg_monitor\"\n    include_system = true", count: 3},
		// a global entry (PUBLIC left without EXECUTE) and a per-schema one; the
		// admin's own built-in privileges are not listed
		{typ: "postgresql_default_privileges", config: dbArg + fmt.Sprintf("    owner = %q", admin), count: 2, adopt: true,
			ids: []map[string]knownvalue.Check{defaultPrivileges("public", "", "function"), defaultPrivileges(b, s1, "table")}},
		{typ: "postgresql_default_privileges", config: dbArg + `    object_type = "table"`, count: 1},
		{typ: "postgresql_default_privileges", config: dbArg + fmt.Sprintf("    schema = %q", s2), count: 0},
		// pgcrypto's functions are extension members: left out by default
		{typ: "postgresql_function", config: dbArg + "    like_any_patterns = [" + like + "]", count: 2, adopt: true,
			ids: []map[string]knownvalue.Check{{"id": str(db + "." + s1 + "." + p + "_add(integer,integer)")}, {"id": str(db + "." + s2 + "." + p + "_hello()")}}},
		{typ: "postgresql_function", config: dbArg + fmt.Sprintf("    schema = %q", s2), count: 1},
		{typ: "postgresql_function", config: dbArg, limit: 1, count: 1},
		{typ: "postgresql_function", config: dbArg + "    include_system = true\n    schema = \"public\"\n    like_any_patterns = [\"digest\"]", count: 2},
		{typ: "postgresql_database_setting", config: dbArg, count: 2, adopt: true, ids: []map[string]knownvalue.Check{
			{"database": str(db), "role": knownvalue.Null(), "parameter": str("work_mem")},
			{"database": str(db), "role": str(a), "parameter": str("statement_timeout")}}},
		{typ: "postgresql_database_setting", config: dbArg + fmt.Sprintf("    role = %q", a), count: 1},
		{typ: "postgresql_publication", config: dbArg + "    like_any_patterns = [" + like + "]", count: 1, adopt: true,
			ids: []map[string]knownvalue.Check{dbName(p + "_pub")}},
		// in managed mode the import cannot read conninfo (superuser only): listed, not adopted
		{typ: "postgresql_subscription", config: dbArg + "    like_any_patterns = [" + like + "]", count: 1, adopt: !acctest.Managed(), skip: noSub,
			ids: []map[string]knownvalue.Check{dbName(p + "_sub")}},
	}
	return append(cases, adoptListFixture(t, p, db, a, b, s1)...)
}

// Objects made with SQL are found by `terraform query` with the list
// resources' filters and limits, with their identities, in both admin modes.
// Terraform 1.14 and later.
func TestAccListResources_query(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	var query strings.Builder
	var checks []querycheck.QueryResultCheck
	for i, c := range listFixture(t, acctest.RandName("lst")) {
		if c.skip {
			continue
		}
		label := fmt.Sprintf("c%d", i)
		query.WriteString(c.block(label))
		addr := c.typ + "." + label
		if c.count >= 0 {
			checks = append(checks, querycheck.ExpectLength(addr, c.count))
		}
		for _, id := range c.ids {
			checks = append(checks, querycheck.ExpectIdentity(addr, id))
		}
	}
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: acctest.ProviderBlock + `resource "terraform_data" "x" {}`},
			{Query: true, Config: query.String(), QueryResultChecks: checks},
		},
	})
}

// The brownfield adoption path end to end: objects of every kind made with
// SQL, listed by `terraform query -generate-config-out`, whose generated
// configuration (import blocks and resources) then plans the imports and no
// change.
func TestAccListResources_generateConfigRoundTrip(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	var query strings.Builder
	imports := 0
	p := acctest.RandName("gen")
	for i, c := range listFixture(t, p) {
		if c.adopt && !c.skip {
			query.WriteString(c.block(fmt.Sprintf("c%d", i)))
			imports += c.count
		}
	}
	generated, err := acctest.GenerateConfig(t, query.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated configuration:\n%s", generated)
	// Terraform writes no sensitive value: the subscription's conninfo is
	// filled in by hand, as the guide says
	generated = regexp.MustCompile(`conninfo\s*= null # sensitive`).ReplaceAllLiteralString(generated, fmt.Sprintf("conninfo = %q", acctest.Conninfo(p+"_db")))
	// and the user mapping's options
	generated = regexp.MustCompile(`options\s*= null # sensitive`).ReplaceAllLiteralString(generated, `options = { user = "remote" }`)
	r, err := acctest.PlanDetails(t, generated, "")
	changed, planText := r.Changed, r.Text
	if err != nil {
		t.Fatalf("%v\n%s", err, planText)
	}
	if err := checkOneOwner(r.Configured, acctest.DefaultDatabase()); err != nil {
		t.Error(err)
	}
	if len(changed) > 0 {
		t.Fatalf("the generated configuration plans changes beyond its imports: %v\n%s", changed, planText)
	}
	if want := fmt.Sprintf("%d to import", imports); !strings.Contains(planText, want) {
		t.Errorf("expected %q:\n%s", want, planText)
	}
}
