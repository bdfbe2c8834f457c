package provider

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// grantFixture is a database owned by a role the managed admin is not a
// member of, with a schema of tables, sequences, functions and a procedure.
type grantFixture struct {
	db, owner, schema, grantee string
}

func newGrantFixture() grantFixture {
	base := acctest.RandName("gr")
	return grantFixture{db: base + "_db", owner: base + "_own", schema: base + " Sch\"ü", grantee: base + " \"ü"}
}

func (f grantFixture) setup(t *testing.T) {
	acctest.OwnerRole(t, f.owner)
	acctest.Database(t, f.db, f.owner)
	s := func(n string) string { return acctest.QQ(f.schema, n) }
	acctest.Exec(t, f.db,
		"CREATE SCHEMA "+acctest.QI(f.schema)+" AUTHORIZATION "+acctest.QI(f.owner),
		"SET ROLE "+acctest.QI(f.owner),
		"CREATE TABLE "+s("t1")+" (a int, b text)",
		"CREATE TABLE "+s("t2")+" (a int)",
		"CREATE TABLE "+s("Odd \"Tbl")+" (a int)",
		"CREATE VIEW "+s("v1")+" AS SELECT 1 AS x",
		"CREATE SEQUENCE "+s("s1"),
		"CREATE SEQUENCE "+s("s2"),
		"CREATE FUNCTION "+s("f1")+"(i int) RETURNS int LANGUAGE sql AS 'SELECT i'",
		"CREATE FUNCTION "+s("f2")+"() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"CREATE PROCEDURE "+s("p1")+"() LANGUAGE sql AS 'SELECT 1'",
		"RESET ROLE",
	)
}

// acl returns the privileges the grantee holds directly on an object (its ACL, not ownership or PUBLIC).
func (f grantFixture) acl(t *testing.T, aclExpr, from string) string {
	table, where, _ := strings.Cut(from, " WHERE ")
	return acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END, ',' ORDER BY 1), '')
FROM `+table+`, aclexplode(`+aclExpr+`) a WHERE `+where+` AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`, f.grantee)
}

func (f grantFixture) relACL(t *testing.T, rel string) string {
	return f.acl(t, "c.relacl", fmt.Sprintf("pg_class c WHERE c.oid = %s::regclass AND c.relacl IS NOT NULL", quoteLit(acctest.QQ(f.schema, rel))))
}

func (f grantFixture) colACL(t *testing.T, rel, col string) string {
	return f.acl(t, "x.attacl", fmt.Sprintf("pg_attribute x WHERE x.attrelid = %s::regclass AND x.attname = %s AND x.attacl IS NOT NULL", quoteLit(acctest.QQ(f.schema, rel)), quoteLit(col)))
}

func (f grantFixture) procACL(t *testing.T, name, args string) string {
	return f.acl(t, "p.proacl", fmt.Sprintf("pg_proc p WHERE p.oid = %s::regprocedure AND p.proacl IS NOT NULL", quoteLit(acctest.QQ(f.schema, name)+args)))
}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func expectACL(t *testing.T, what string, got func() string, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if g := got(); g != want {
			return fmt.Errorf("%s: privileges %q, want %q", what, g, want)
		}
		return nil
	}
}

type grantCfg struct {
	tablePrivs, tableObjects, cols, dbPrivs string
	schemaWGO                               bool
}

// grantBlock is one postgresql_grant of a test configuration: HCL
// expressions, rendered by acctest.Resource (empty ones left out).
type grantBlock struct {
	name, role, database, schema, objectType, objects, columns, privileges, withGrantOption string
}

func (g grantBlock) String() string {
	return acctest.Resource("postgresql_grant", g.name, "role", g.role, "database", g.database, "schema", g.schema,
		"object_type", acctest.QuoteHCL(g.objectType), "objects", g.objects, "columns", g.columns, "privileges", g.privileges,
		"with_grant_option", g.withGrantOption)
}

// grantBlocks renders blocks after the configuration prefix.
func grantBlocks(prefix string, blocks ...grantBlock) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, g := range blocks {
		b.WriteString(g.String())
	}
	return b.String()
}

// onFixture places a grant in the fixture's database (through local.db) and, but
// for database grants, its schema (local.schema); the grantee is the test
// role unless one is named.
func (g grantBlock) onFixture() grantBlock {
	if g.role == "" {
		g.role = "postgresql_role.g.name"
	}
	g.database = "local.db"
	if g.objectType != "database" {
		g.schema = "local.schema"
	}
	return g
}

func (f grantFixture) config(c grantCfg) string {
	blocks := []grantBlock{
		{name: "tables", objectType: "table", objects: c.tableObjects, privileges: c.tablePrivs},
		{name: "cols", objectType: "column", objects: `["t1"]`, columns: c.cols, privileges: `["UPDATE"]`},
		{name: "seq_all", objectType: "sequence", privileges: `["ALL"]`},
		{name: "func_all", objectType: "function", privileges: `["EXECUTE"]`, withGrantOption: "true"},
		{name: "proc", objectType: "procedure", objects: `["p1"]`, privileges: `["execute"]`},
		{name: "schema", objectType: "schema", privileges: `["USAGE", "CREATE"]`, withGrantOption: fmt.Sprint(c.schemaWGO)},
		{name: "db", objectType: "database", privileges: c.dbPrivs},
		{name: "public_routines", role: `"public"`, objectType: "routine", objects: `["f1(integer)", "p1"]`, privileges: "[]"},
		{name: "public_view", role: `"public"`, objectType: "table", objects: `["v1"]`, privileges: `["SELECT"]`},
	}
	for i := range blocks {
		blocks[i] = blocks[i].onFixture()
	}
	return grantBlocks(f.roleConfig()+fmt.Sprintf(`
locals {
  db     = %s
  schema = %s
}
`, acctest.QuoteHCL(f.db), acctest.QuoteHCL(f.schema)), blocks...)
}

// roleConfig is the grantee, postgresql_role.g (with the provider block).
func (f grantFixture) roleConfig() string {
	return acctest.Config(`resource "postgresql_role" "g" { name = %s }`+"\n", acctest.QuoteHCL(f.grantee))
}

func TestAccGrant_basic(t *testing.T) {
	f := newGrantFixture()
	first := grantCfg{tablePrivs: `["select", "UPDATE"]`, tableObjects: `["t1", "Odd \"Tbl"]`, cols: `["a"]`, dbPrivs: `["CONNECT", "TEMPORARY"]`}
	second := grantCfg{tablePrivs: `["SELECT", "INSERT"]`, tableObjects: `["t1", "t2"]`, cols: `["a", "b"]`, dbPrivs: `["CONNECT"]`, schemaWGO: true}
	imp := func(name string, ignore ...string) resource.TestStep {
		return resource.TestStep{
			Config: f.config(second), ResourceName: "postgresql_grant." + name, ImportState: true, ImportStateVerify: true,
			ImportStateVerifyIgnore: ignore,
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: f.config(first),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_grant.tables", tfjsonpath.New("privileges"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("select"), knownvalue.StringExact("UPDATE")})),
					statecheck.ExpectKnownValue("postgresql_grant.seq_all", tfjsonpath.New("privileges"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("ALL")})),
					statecheck.ExpectKnownValue("postgresql_grant.tables", tfjsonpath.New("id"), knownvalue.StringExact(
						// cyrilgdn's id: the objects in the order its sets list them
						f.grantee+"_"+f.db+"_"+f.schema+`_table_t1_Odd "Tbl`)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectACL(t, "t1", func() string { return f.relACL(t, "t1") }, "SELECT,UPDATE"),
					expectACL(t, "Odd", func() string { return f.relACL(t, "Odd \"Tbl") }, "SELECT,UPDATE"),
					expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, ""),
					expectACL(t, "t1.a", func() string { return f.colACL(t, "t1", "a") }, "UPDATE"),
					expectACL(t, "s1", func() string { return f.relACL(t, "s1") }, "SELECT,UPDATE,USAGE"),
					expectACL(t, "f1", func() string { return f.procACL(t, "f1", "(int)") }, "EXECUTE*"),
					expectACL(t, "f2", func() string { return f.procACL(t, "f2", "()") }, "EXECUTE*"),
					// "all functions" never includes procedures; the procedure grant does
					expectACL(t, "p1", func() string { return f.procACL(t, "p1", "()") }, "EXECUTE"),
					func(*terraform.State) error { // PUBLIC lost its built-in EXECUTE on f1 and p1, not on f2
						got := acctest.QueryString(t, f.db, `SELECT string_agg(p.proname || '=' || has_function_privilege('public', p.oid, 'EXECUTE')::text, ',' ORDER BY 1)
FROM pg_proc p WHERE p.pronamespace = $1::regnamespace AND p.proname IN ('f1', 'f2', 'p1')`, acctest.QI(f.schema))
						if got != "f1=false,f2=true,p1=false" {
							return fmt.Errorf("PUBLIC EXECUTE: %s", got)
						}
						return nil
					},
				),
			},
			{
				Config:           f.config(second),
				ConfigPlanChecks: expectUpdate("postgresql_grant.tables", "postgresql_grant.cols", "postgresql_grant.schema", "postgresql_grant.db"),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectACL(t, "t1", func() string { return f.relACL(t, "t1") }, "INSERT,SELECT"),
					expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, "INSERT,SELECT"),
					expectACL(t, "Odd (removed from objects)", func() string { return f.relACL(t, "Odd \"Tbl") }, ""),
					// revoking table-level UPDATE left the column grant alone
					expectACL(t, "t1.a", func() string { return f.colACL(t, "t1", "a") }, "UPDATE"),
					expectACL(t, "t1.b", func() string { return f.colACL(t, "t1", "b") }, "UPDATE"),
				),
			},
			{ // spelling only: no diff
				Config:   strings.Replace(f.config(second), `privileges  = ["ALL"]`, `privileges  = ["all privileges"]`, 1),
				PlanOnly: true,
			},
			{ // drift made by SQL, a new function in the schema: repaired in place
				PreConfig: func() {
					s := func(n string) string { return acctest.QQ(f.schema, n) }
					g := acctest.QI(f.grantee)
					acctest.Exec(t, f.db,
						"REVOKE SELECT ON "+s("t2")+" FROM "+g,
						"GRANT TRUNCATE ON "+s("t1")+" TO "+g,
						"REVOKE UPDATE (b) ON "+s("t1")+" FROM "+g,
						"REVOKE USAGE ON SEQUENCE "+s("s2")+" FROM "+g,
						"REVOKE GRANT OPTION FOR EXECUTE ON FUNCTION "+s("f1")+"(int) FROM "+g,
						"REVOKE CONNECT ON DATABASE "+acctest.QI(f.db)+" FROM "+g,
						"GRANT CREATE ON DATABASE "+acctest.QI(f.db)+" TO "+g,
						"SET ROLE "+acctest.QI(f.owner),
						"CREATE FUNCTION "+s("f3")+"() RETURNS int LANGUAGE sql AS 'SELECT 3'",
						"RESET ROLE",
					)
				},
				Config:           f.config(second),
				ConfigPlanChecks: expectUpdate("postgresql_grant.tables", "postgresql_grant.cols", "postgresql_grant.seq_all", "postgresql_grant.func_all", "postgresql_grant.db"),
				Check: resource.ComposeAggregateTestCheckFunc(
					expectACL(t, "t1", func() string { return f.relACL(t, "t1") }, "INSERT,SELECT"),
					expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, "INSERT,SELECT"),
					expectACL(t, "t1.b", func() string { return f.colACL(t, "t1", "b") }, "UPDATE"),
					expectACL(t, "s2", func() string { return f.relACL(t, "s2") }, "SELECT,UPDATE,USAGE"),
					expectACL(t, "f1", func() string { return f.procACL(t, "f1", "(int)") }, "EXECUTE*"),
					expectACL(t, "f3", func() string { return f.procACL(t, "f3", "()") }, "EXECUTE*"),
				),
			},
			imp("tables"), imp("cols"), imp("func_all"), imp("proc", "privileges"), imp("schema"), imp("db"), imp("public_view"), imp("public_routines"),
			imp("seq_all", "privileges"), // ALL reads back as the explicit list
			{
				Config:      strings.Replace(f.config(second), `["SELECT", "INSERT"]`, `["SELECT", "EXECUTE"]`, 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`valid\s+privileges\s+are:\s+DELETE,\s+INSERT`),
			},
			{
				Config:      strings.Replace(f.config(second), `schema      = local.schema`+"\n"+`  object_type = "table"`, `object_type = "table"`, 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`needs\s+schema`),
			},
			{
				Config:      f.config(second) + grantBlock{name: "x", role: fmt.Sprintf("%q", strings.Repeat("r", 64)), database: `"postgres"`, objectType: "database", privileges: "[]"}.String(),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`64\s+bytes`),
			},
			{ // managed mode: an object owned by a superuser cannot be granted on; the error says why and what works
				// instead (the owner's grant WITH GRANT OPTION), never a membership in a superuser, which no
				// managed service's admin can get
				SkipFunc:  func() (bool, error) { return !acctest.Managed(), nil },
				PreConfig: acctest.ExecFunc(t, f.db, "CREATE TABLE "+acctest.QQ(f.schema, "su_owned")+" (a int)"),
				Config:    f.config(second) + grantBlock{name: "su_owned", objectType: "table", objects: `["su_owned"]`, privileges: `["SELECT"]`}.onFixture().String(),
				ExpectError: regexp.MustCompile(`needs\s+the\s+privileges\s+of\s+role\s+"postgres"[\s\S]*"postgres"\s+is\s+a\s+superuser` +
					`[\s\S]*have\s+"postgres"\s+grant\s+the\s+provider's\s+role\s+these\s+privileges\s+WITH\s+GRANT\s+OPTION`),
			},
			{ // objects dropped behind Terraform's back, then the grants destroyed: succeeds and revokes everything
				PreConfig: acctest.ExecFunc(t, f.db, "DROP PROCEDURE "+acctest.QQ(f.schema, "p1")+"()", "DROP TABLE "+acctest.QQ(f.schema, "t2")),
				Config:    f.roleConfig(),
				Check: func(*terraform.State) error {
					n := acctest.QueryString(t, f.db, `SELECT count(*)::text FROM (
  SELECT 1 FROM pg_class c, aclexplode(c.relacl) a WHERE c.relacl IS NOT NULL AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL SELECT 1 FROM pg_attribute x, aclexplode(x.attacl) a WHERE x.attacl IS NOT NULL AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL SELECT 1 FROM pg_proc p, aclexplode(p.proacl) a WHERE p.proacl IS NOT NULL AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL SELECT 1 FROM pg_namespace p, aclexplode(p.nspacl) a WHERE p.nspacl IS NOT NULL AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL SELECT 1 FROM pg_database p, aclexplode(p.datacl) a WHERE p.datacl IS NOT NULL AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)) x`, f.grantee)
					if n != "0" {
						return fmt.Errorf("%s privileges of the grantee survived destroy", n)
					}
					if got := acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(a.privilege_type, ','), '') FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = $1::regclass AND a.grantee = 0`, acctest.QQ(f.schema, "v1")); got != "" {
						return fmt.Errorf("PUBLIC still holds %s on v1", got)
					}
					return nil
				},
			},
		},
	})
}

func TestAccGrant_foreignAndParameter(t *testing.T) {
	acctest.SkipBelow(t, 15, "grants on parameters (the FDW and server grants of this test are configured with them)")
	f := newGrantFixture()
	srv := f.db + "_srv"
	setup := func() {
		acctest.OwnerRole(t, f.owner)
		acctest.Database(t, f.db, f.owner)
		acctest.Exec(t, f.db,
			"CREATE EXTENSION postgres_fdw",
			"GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO "+acctest.QI(f.owner),
			"CREATE SERVER "+acctest.QI(srv)+" FOREIGN DATA WRAPPER postgres_fdw",
			"ALTER SERVER "+acctest.QI(srv)+" OWNER TO "+acctest.QI(f.owner))
	}
	// The wrapper belongs to the bootstrap superuser and parameters to the
	// system: only a superuser can grant on them.
	super := !acctest.Managed()
	config := func(wgo bool, paramPrivs string) string {
		db, role, server := acctest.QuoteHCL(f.db), "postgresql_role.g.name", "["+acctest.QuoteHCL(srv)+"]"
		blocks := []grantBlock{
			{name: "server", role: role, database: db, objectType: "foreign_server", objects: server, privileges: `["USAGE"]`, withGrantOption: fmt.Sprint(wgo)},
			{name: "public_server", role: `"PUBLIC"`, database: db, objectType: "foreign_server", objects: server, privileges: `["usage"]`},
		}
		if super {
			blocks = append(blocks,
				grantBlock{name: "fdw", role: role, database: db, objectType: "foreign_data_wrapper", objects: `["postgres_fdw"]`, privileges: `["USAGE"]`},
				grantBlock{name: "param", role: role, database: db, objectType: "parameter", objects: `["work_mem", "log_min_duration_statement"]`, privileges: paramPrivs})
		}
		return grantBlocks(f.roleConfig(), blocks...)
	}
	updates := []plancheck.PlanCheck{plancheck.ExpectResourceAction("postgresql_grant.server", plancheck.ResourceActionUpdate)}
	if super {
		updates = append(updates, plancheck.ExpectResourceAction("postgresql_grant.param", plancheck.ResourceActionUpdate))
	}
	srvACL := func() string {
		return f.acl(t, "s.srvacl", "pg_foreign_server s WHERE s.srvname = "+quoteLit(srv)+" AND s.srvacl IS NOT NULL")
	}
	steps := []resource.TestStep{
		{
			Config: config(true, `["SET", "ALTER SYSTEM"]`),
			Check:  expectACL(t, "server", srvACL, "USAGE*"),
		},
		{
			Config:           config(false, `["ALL"]`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: updates[:1]},
			Check:            expectACL(t, "server", srvACL, "USAGE"),
		},
		{
			Config:           config(false, `["set"]`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: updates[1:]},
		},
		{
			PreConfig:        acctest.ExecFunc(t, f.db, "REVOKE USAGE ON FOREIGN SERVER "+acctest.QI(srv)+" FROM "+acctest.QI(f.grantee)),
			Config:           config(false, `["set"]`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: updates[:1]},
			Check:            expectACL(t, "server", srvACL, "USAGE"),
		},
		{Config: config(false, `["set"]`), ResourceName: "postgresql_grant.server", ImportState: true, ImportStateVerify: true},
		{Config: config(false, `["set"]`), ResourceName: "postgresql_grant.public_server", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}},
	}
	if super {
		steps = append(steps,
			resource.TestStep{Config: config(false, `["set"]`), ResourceName: "postgresql_grant.fdw", ImportState: true, ImportStateVerify: true},
			resource.TestStep{Config: config(false, `["set"]`), ResourceName: "postgresql_grant.param", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}},
		)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); setup() },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps:                    steps,
	})
}

// emptyCollectionsConfig is one table grant on every table of the fixture's
// schema, with objects and columns spelled as given ("" leaves them out).
func (f grantFixture) emptyCollectionsConfig(objects, columns string) string {
	return grantBlocks(f.roleConfig(), grantBlock{
		name: "all_tables", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), schema: acctest.QuoteHCL(f.schema),
		objectType: "table", objects: objects, columns: columns, privileges: `["SELECT"]`,
	})
}

// Unset objects/columns and `[]` mean the same ("every table", "no column"):
// a grant created (or imported) without them must plan no change when the
// configuration switches to `[]` (the spelling cyrilgdn users write), and back.
// Before the fix ModifyPlan planned the state's null for a configured `[]`:
// "Provider produced invalid plan ... planned value null does not match config value []".
func TestAccGrant_regressionEmptyObjectsWithNullState(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	f := newGrantFixture()
	unset := f.emptyCollectionsConfig("", "")
	empty := f.emptyCollectionsConfig("[]", "[]")
	forget := f.roleConfig() + `
removed {
  from = postgresql_grant.all_tables
  lifecycle { destroy = false }
}`
	id := canonicalID(map[string]any{"role": f.grantee, "database": f.db, "schema": f.schema, "object_type": "table", "objects": []string{}, "columns": []string{}})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: unset,
				Check:  expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, "SELECT"),
			},
			{Config: empty, PlanOnly: true},
			{Config: unset, PlanOnly: true},
			{Config: empty, PlanOnly: true},
			// an imported grant, then `[]`: no change either (forget it first, so it can be imported)
			{Config: forget},
			{Config: unset, ResourceName: "postgresql_grant.all_tables", ImportState: true, ImportStateId: id, ImportStatePersist: true},
			{Config: empty, PlanOnly: true},
			{Config: forget},
			{Config: unset, ResourceName: "postgresql_grant.all_tables", ImportState: true, ImportStateId: id, ImportStatePersist: true},
			// an apply, not a plan: it records the imported grant's dependency on the role in
			// the state, which the final destroy needs to revoke before it drops the role
			{Config: unset, ConfigPlanChecks: expectEmpty()},
		},
	})
}

// The reverse of TestAccGrant_regressionEmptyObjectsWithNullState: a grant
// created with `objects = []` and `columns = []` must plan no change when they
// are removed from the configuration (before the fix: "planned value [] does
// not match config value null").
func TestAccGrant_regressionEmptyObjectsWithEmptyState(t *testing.T) {
	f := newGrantFixture()
	unset := f.emptyCollectionsConfig("", "")
	empty := f.emptyCollectionsConfig("[]", "[]")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: empty,
				Check:  expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, "SELECT"),
			},
			{Config: unset, PlanOnly: true},
			{Config: empty, PlanOnly: true},
			// naming objects and going back to "every table" stays an in-place update
			{
				Config:           f.emptyCollectionsConfig(`["t1"]`, "[]"),
				ConfigPlanChecks: expectUpdate("postgresql_grant.all_tables"),
				Check:            expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, ""),
			},
			{
				Config:           unset,
				ConfigPlanChecks: expectUpdate("postgresql_grant.all_tables"),
				Check:            expectACL(t, "t2", func() string { return f.relACL(t, "t2") }, "SELECT"),
			},
			{Config: empty, PlanOnly: true},
		},
	})
}

// On PostgreSQL 16+ a CREATEROLE admin manages only the roles it holds ADMIN
// OPTION on. A grant on objects owned by a role a superuser created fails with
// an error that names the missing grant and the statement that fixes it; after
// that statement the same configuration applies, and the admin holds in the
// owner what the fix gave it and the lasting membership it then took
// (pg.withRoles), as for the roles it created.
func TestAccGrant_managedOwnerNotManageable(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("concerns the managed (non-superuser) admin only: a superuser needs no membership")
	}
	acctest.SkipBelow(t, 16, "CREATEROLE manages only the roles it created")
	f := newGrantFixture()
	acctest.ForeignOwnerRole(t, f.owner)
	acctest.Database(t, f.db, f.owner)
	acctest.Exec(t, f.db,
		"CREATE SCHEMA "+acctest.QI(f.schema)+" AUTHORIZATION "+acctest.QI(f.owner),
		"SET ROLE "+acctest.QI(f.owner),
		"CREATE TABLE "+acctest.QQ(f.schema, "t1")+" (a int)",
		"RESET ROLE")
	admin := acctest.AdminUser()
	memberships := func() string {
		return acctest.QueryString(t, "", `SELECT coalesce(string_agg(format('admin=%s inherit=%s set=%s grantor=%s', m.admin_option, m.inherit_option, m.set_option, g.rolname), '; ' ORDER BY g.rolname), 'none')
FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.grantor
WHERE m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $1) AND m.member = (SELECT oid FROM pg_roles WHERE rolname = $2)`, f.owner, admin)
	}
	config := grantBlocks(f.roleConfig(), grantBlock{
		name: "t", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), schema: acctest.QuoteHCL(f.schema),
		objectType: "table", objects: `["t1"]`, privileges: `["SELECT"]`,
	})
	fix := fmt.Sprintf("GRANT %s TO %s WITH ADMIN OPTION, INHERIT FALSE, SET FALSE", acctest.QI(f.owner), acctest.QI(admin))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)cannot\s+grant\s+them\s+to\s+itself.*` + strings.Join(strings.Fields(regexp.QuoteMeta(fix)), `\s+`)),
			},
			{
				PreConfig: func() {
					if got := memberships(); got != "none" {
						t.Fatalf("after the failed grant the admin holds %s in the owner, want none", got)
					}
					acctest.Exec(t, "", fix)
				},
				Config: config,
				Check: func(*terraform.State) error {
					if got := f.relACL(t, "t1"); got != "SELECT" {
						return fmt.Errorf("t1: privileges %q, want SELECT", got)
					}
					rows := []string{"admin=t inherit=f set=f grantor=postgres", "admin=f inherit=t set=t grantor=" + admin}
					if admin < "postgres" {
						rows[0], rows[1] = rows[1], rows[0] // by grantor name
					}
					want := strings.Join(rows, "; ")
					if got := memberships(); got != want {
						return fmt.Errorf("after the grant the admin holds %q in the owner, want what the fix gave and its own lasting membership: %q", got, want)
					}
					return nil
				},
			},
		},
	})
}

// A grant on all the functions of a schema, and a function created in that
// schema by another resource of the apply while the grant runs (the two with
// no dependency between them): the grant covered the functions there when it
// ran, and its read back found the new one without the privileges,
// "Provider produced inconsistent result after apply" (the long walk, seed
// 23507 step 1 on PostgreSQL 18: postgresql_function beside a grant of
// PUBLIC on all the functions of its schema). The read back now covers the
// objects the write covered; the next plan grants on the new function, as
// the grant's page says.
func TestAccGrant_regressionFunctionCreatedDuringGrant(t *testing.T) {
	testFunctionCreatedDuringGrant(t, "postgresql_grant")
}

// The same for postgresql_grant_additive.
func TestAccGrantAdditive_regressionFunctionCreatedDuringGrant(t *testing.T) {
	testFunctionCreatedDuringGrant(t, "postgresql_grant_additive")
}

func testFunctionCreatedDuringGrant(t *testing.T, typ string) {
	base := acctest.RandName("fnmid")
	schema, role := base+"_s", base+"_r"
	db := acctest.DefaultDatabase()
	// without PUBLIC's EXECUTE, so that the role's is the grant's
	acctest.AdminExec(t, db, "CREATE SCHEMA "+acctest.QI(schema),
		"CREATE FUNCTION "+acctest.QI(schema)+".f1() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"REVOKE EXECUTE ON FUNCTION "+acctest.QI(schema)+".f1() FROM PUBLIC")
	t.Cleanup(func() { acctest.Exec(t, db, "DROP SCHEMA IF EXISTS "+acctest.QI(schema)+" CASCADE") })
	var once sync.Once
	created := false
	fault := func(what string) error {
		if strings.Contains(what, schema) {
			once.Do(func() {
				acctest.AdminExec(t, db, "CREATE FUNCTION "+acctest.QI(schema)+".f2() RETURNS int LANGUAGE sql AS 'SELECT 2'",
					"REVOKE EXECUTE ON FUNCTION "+acctest.QI(schema)+".f2() FROM PUBLIC")
				created = true
			})
		}
		return nil
	}
	config := fmt.Sprintf(`
resource "postgresql_role" "r" { name = %[1]q }
resource %[4]q "g" {
  database    = %[2]q
  role        = postgresql_role.r.name
  schema      = %[3]q
  object_type = "function"
  privileges  = ["EXECUTE"]
}
`, role, db, schema, typ)
	execute := func(fn string, want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if !created {
				return fmt.Errorf("no function was created during the grant: the test is not about what it says")
			}
			if got := acctest.QueryBool(t, db, "SELECT has_function_privilege($1, $2, 'EXECUTE')", role, acctest.QI(schema)+"."+fn+"()"); got != want {
				return fmt.Errorf("%s holds EXECUTE on %s: %v, want %v", role, fn, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testFactories(WithReadBackFault(fault)),
		Steps: []resource.TestStep{
			{ // the apply goes through; the next plan covers the new function
				Config:             config,
				Check:              resource.ComposeTestCheckFunc(execute("f1", true), execute("f2", false)),
				ExpectNonEmptyPlan: true,
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(typ+".g", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(execute("f1", true), execute("f2", true)),
			},
		},
	})
}
