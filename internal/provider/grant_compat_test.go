package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The regressions of issue 30 ("drop-in for the estates users really
// have") on grants, default privileges and memberships.

// idCompatFixture is a database owned by the admin with a schema `app` of two
// tables and a sequence, and a grantee and a group role (created by the configuration).
type idCompatFixture struct {
	p, db, grantee, group, owner string
}

func newIDCompatFixture(t *testing.T) idCompatFixture {
	p := acctest.RandName("gid")
	f := idCompatFixture{p: p, db: p + "_db", grantee: p + "_r", group: p + "_g", owner: acctest.AdminUser()}
	return f
}

func (f idCompatFixture) setup(t *testing.T) {
	acctest.Database(t, f.db, f.owner)
	acctest.AdminExec(t, f.db, "CREATE SCHEMA app", "CREATE TABLE app.t1 (id int, name text)", "CREATE TABLE app.t2 (a int)", "CREATE SEQUENCE app.s1")
}

func (f idCompatFixture) config() string {
	return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }
resource "postgresql_role" "g" { name = %[2]q }

resource "postgresql_grant" "tables" {
  role        = postgresql_role.r.name
  database    = %[3]q
  schema      = "app"
  object_type = "table"
  objects     = ["t2", "t1"]
  privileges  = ["SELECT"]
}

resource "postgresql_grant" "cols" {
  role        = postgresql_role.r.name
  database    = %[3]q
  schema      = "app"
  object_type = "column"
  objects     = ["t1"]
  columns     = ["name", "id"]
  privileges  = ["UPDATE"]
}

resource "postgresql_grant" "all_sequences" {
  role        = postgresql_role.r.name
  database    = %[3]q
  schema      = "app"
  object_type = "sequence"
  privileges  = ["SELECT"]
}

resource "postgresql_grant" "db" {
  role        = postgresql_role.r.name
  database    = %[3]q
  object_type = "database"
  privileges  = ["CONNECT"]
}

resource "postgresql_default_privileges" "app_tables" {
  role        = postgresql_role.r.name
  database    = %[3]q
  owner       = %[4]q
  schema      = "app"
  object_type = "table"
  privileges  = ["SELECT"]
}

resource "postgresql_default_privileges" "sequences" {
  role        = postgresql_role.r.name
  database    = %[3]q
  owner       = %[4]q
  object_type = "sequence"
  privileges  = ["SELECT"]
}

resource "postgresql_grant_role" "m" {
  role              = postgresql_role.r.name
  grant_role        = postgresql_role.g.name
  with_admin_option = true
}
`, f.grantee, f.group, f.db, f.owner)
}

// cyrilgdnIDs are the ids cyrilgdn/postgresql computes for the fixture's
// resources (objects and columns in its set order: t1 before t2, name before id).
func (f idCompatFixture) cyrilgdnIDs() map[string]string {
	r, db := f.grantee, f.db
	return map[string]string{
		"postgresql_grant.tables":                  r + "_" + db + "_app_table_t1_t2",
		"postgresql_grant.cols":                    r + "_" + db + "_app_column_t1_name_id",
		"postgresql_grant.all_sequences":           r + "_" + db + "_app_sequence",
		"postgresql_grant.db":                      r + "_" + db + "_database",
		"postgresql_default_privileges.app_tables": r + "_" + db + "_app_" + f.owner + "_table",
		"postgresql_default_privileges.sequences":  r + "_" + db + "_noschema_" + f.owner + "_sequence",
		"postgresql_grant_role.m":                  r + "_" + f.group + "_true",
	}
}

// Before the fix postgresql_grant, postgresql_default_privileges and
// postgresql_grant_role stored a JSON object as their id where cyrilgdn stores
// its underscore-joined string, so whatever referenced `.id` changed after the
// migration, and the JSON flooded plan and apply output. The id must be
// cyrilgdn's; it is also an import ID (here the names, with their
// underscores, still name one object each), and a state written by this
// provider with the JSON id (schema version 1) upgrades to it without a
// change planned.
func TestAccGrant_regressionIDDiffersFromCyrilgdn(t *testing.T) {
	f := newIDCompatFixture(t)
	ids := f.cyrilgdnIDs()
	var checks []statecheck.StateCheck
	steps := []resource.TestStep{{Config: f.config()}}
	for _, addr := range slices.Sorted(maps.Keys(ids)) {
		id := ids[addr]
		checks = append(checks, statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)))
		// the state's id, cyrilgdn's form, is the import ID
		steps = append(steps, resource.TestStep{Config: f.config(), ResourceName: addr, ImportState: true, ImportStateVerify: true})
	}
	checks = append(checks, jsonIDStateCheck{t: t, config: f.config(), ids: ids})
	steps[0].ConfigStateChecks = checks
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps:                    steps,
	})
}

// jsonIDStateCheck seeds a copy of the state in which the grants, default
// privileges and memberships have the JSON id and schema version 1 that this
// provider wrote before, and expects a real `terraform plan` over it to plan
// no change and to hold cyrilgdn's ids (ids, by address) after the upgrade.
type jsonIDStateCheck struct {
	t      *testing.T
	config string
	ids    map[string]string
}

func (c jsonIDStateCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	t := c.t
	versions := map[string]int64{}
	for _, sr := range servedResources(t) {
		versions[sr.typeName] = sr.schema.Version
	}
	var rs []stateResource
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Mode != tfjson.ManagedResourceMode {
			continue
		}
		attrs, ver := map[string]any{}, versions[r.Type]
		for k, v := range r.AttributeValues {
			attrs[k] = v
		}
		str := func(k string) string { s, _ := attrs[k].(string); return s }
		strs := func(k string) []string {
			var out []string
			l, _ := attrs[k].([]any)
			for _, e := range l {
				out = append(out, e.(string))
			}
			return out
		}
		switch r.Type {
		case "postgresql_grant":
			ver, attrs["id"] = 1, canonicalID(map[string]any{"role": str("role"), "database": str("database"), "schema": str("schema"),
				"object_type": str("object_type"), "objects": strs("objects"), "columns": strs("columns")})
		case "postgresql_default_privileges":
			ver, attrs["id"] = 1, canonicalID(map[string]any{"role": str("role"), "database": str("database"), "owner": str("owner"),
				"schema": str("schema"), "object_type": str("object_type")})
		case "postgresql_grant_role":
			ver, attrs["id"] = 1, canonicalID(map[string]any{"role": str("role"), "grant_role": str("grant_role")})
		}
		rs = append(rs, stateResource{Mode: "managed", Type: r.Type, Name: r.Name,
			Provider:  `provider["registry.terraform.io/pgtf/postgresql"]`,
			Instances: []stateInstance{{SchemaVersion: ver, Attributes: attrs, SensitiveAttributes: []any{}}}})
	}
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "00000000-0000-0000-0000-0000000001d5",
		"outputs": map[string]any{}, "resources": rs,
	}, "", "  ")
	if err != nil {
		resp.Error = err
		return
	}
	changed, prior, text, err := acctest.PlanWithPriorState(t, strings.TrimPrefix(c.config, acctest.ProviderBlock), string(b))
	switch {
	case err != nil:
		resp.Error = fmt.Errorf("plan over the version-1 state: %w\n%s", err, text)
		return
	case len(changed) > 0:
		resp.Error = fmt.Errorf("plan over the version-1 state (JSON ids) changes %s:\n%s", strings.Join(changed, ", "), text)
		return
	}
	var errs []string
	for addr, want := range c.ids {
		if got := prior[addr]["id"]; got != want {
			errs = append(errs, fmt.Sprintf("%s: id %v after the upgrade, want %q", addr, got, want))
		}
	}
	if len(errs) > 0 {
		resp.Error = fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
}

// An underscore-joined import ID whose names contain underscores can name
// two memberships (`x_a` in `b_x`, `x` in `a_b_x`): the import says so and
// points at the JSON import ID, which imports either.
func TestAccGrantRole_importAmbiguousUnderscoreID(t *testing.T) {
	x := acctest.RandName("amb")
	xa, bx, ax, abx := x+"_a", "b_"+x, x, "a_b_"+x
	config := acctest.Config(`
resource "postgresql_role" "xa" { name = %[1]q }
resource "postgresql_role" "bx" { name = %[2]q }
resource "postgresql_role" "x" { name = %[3]q }
resource "postgresql_role" "abx" { name = %[4]q }
resource "postgresql_grant_role" "one" {
  role       = postgresql_role.xa.name
  grant_role = postgresql_role.bx.name
}
resource "postgresql_grant_role" "two" {
  role       = postgresql_role.x.name
  grant_role = postgresql_role.abx.name
}
`, xa, bx, ax, abx)
	id := xa + "_" + bx + "_false" // = x_a_b_x_false, also ax + "_" + abx + "_false"
	a, bc := xa, bx
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_grant_role.one", tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue("postgresql_grant_role.two", tfjsonpath.New("id"), knownvalue.StringExact(id)),
				},
			},
			{Config: config, ResourceName: "postgresql_grant_role.one", ImportState: true, ImportStateId: id,
				ExpectError: regexp.MustCompile(`(?s)Ambiguous import ID.*names 2 existing memberships.*JSON import ID`)},
			// the two have one id: the imported state is matched by role
			{Config: config, ResourceName: "postgresql_grant_role.one", ImportState: true, ImportStateVerify: true, ImportStateVerifyIdentifierAttribute: "role",
				ImportStateId: fmt.Sprintf(`{"role":%q,"grant_role":%q}`, a, bc)},
		},
	})
}

// Before the fix a routine named with its argument types in `objects` was
// matched as text against the catalog's spelling of them, so the aliases
// users write (`f(text, char)`, `f(int, varchar)`) were "function object(s)
// not found" at apply, and the plan kept trying. The types are resolved on
// the server; the state keeps the configuration's spelling, and a respelling
// of the same routine revokes nothing.
func TestAccGrant_regressionRoutineSignatureAliases(t *testing.T) {
	f := newIDCompatFixture(t)
	setup := func() {
		f.setup(t)
		acctest.AdminExec(t, f.db,
			"CREATE FUNCTION app.f(text, character) RETURNS int LANGUAGE sql AS 'SELECT 1'",
			"CREATE FUNCTION app.f(integer) RETURNS int LANGUAGE sql AS 'SELECT 2'",
			"CREATE FUNCTION app.g(integer, character varying, timestamp with time zone, integer[]) RETURNS int LANGUAGE sql AS 'SELECT 1'",
			"CREATE FUNCTION app.h(a integer, OUT b text) LANGUAGE sql AS 'SELECT ''x'''",
			"CREATE PROCEDURE app.p(bigint, double precision) LANGUAGE sql AS 'SELECT 1'",
			"REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA app FROM PUBLIC",
			"REVOKE EXECUTE ON ALL PROCEDURES IN SCHEMA app FROM PUBLIC")
	}
	config := func(functions, procedures string) string {
		return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }

resource "postgresql_grant" "functions" {
  role        = postgresql_role.r.name
  database    = %[2]q
  schema      = "app"
  object_type = "function"
  objects     = %[3]s
  privileges  = ["EXECUTE"]
}

resource "postgresql_grant" "procedures" {
  role        = postgresql_role.r.name
  database    = %[2]q
  schema      = "app"
  object_type = "procedure"
  objects     = %[4]s
  privileges  = ["EXECUTE"]
}
`, f.grantee, f.db, functions, procedures)
	}
	functions := `["f(text, char)", "g(int, varchar, timestamptz, int4[])", "h(IN a int, OUT b text)"]`
	procedures := `["p(int8, float8)"]`
	acl := func(sig string) string {
		return acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(a.privilege_type, ','), '')
FROM pg_proc p, aclexplode(p.proacl) a WHERE p.oid = $1::regprocedure AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2)`, sig, f.grantee)
	}
	granted := func(want map[string]string) func(*terraform.State) error {
		return func(*terraform.State) error {
			for sig, w := range want {
				if got := acl(sig); got != w {
					return fmt.Errorf("%s: privileges %q, want %q", sig, got, w)
				}
			}
			return nil
		}
	}
	all := map[string]string{
		"app.f(text, character)": "EXECUTE", "app.f(integer)": "",
		"app.g(integer, character varying, timestamp with time zone, integer[])": "EXECUTE",
		"app.h(integer)": "EXECUTE", "app.p(bigint, double precision)": "EXECUTE",
	}
	// the row versions of the routines' catalog rows: a GRANT or REVOKE writes them
	procXmin := func() string {
		return acctest.QueryString(t, f.db, "SELECT string_agg(xmin::text, ',' ORDER BY oid) FROM pg_proc WHERE pronamespace = 'app'::regnamespace")
	}
	var xmin string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); setup() },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: config(functions, procedures),
				Check:  granted(all),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_grant.functions", tfjsonpath.New("objects"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("f(text, char)"), knownvalue.StringExact("g(int, varchar, timestamptz, int4[])"), knownvalue.StringExact("h(IN a int, OUT b text)"),
					})),
					statecheck.ExpectKnownValue("postgresql_grant.procedures", tfjsonpath.New("id"), knownvalue.StringExact(f.grantee+"_"+f.db+"_app_procedure_p(int8, float8)")),
				},
			},
			{Config: config(functions, procedures), PlanOnly: true},
			// drift on a routine named with aliases is seen and repaired
			{
				PreConfig: func() {
					acctest.AdminExec(t, f.db, "REVOKE EXECUTE ON FUNCTION app.f(text, character) FROM "+acctest.QI(f.grantee))
				},
				Config:             config(functions, procedures),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: config(functions, procedures), Check: granted(all)},
			// the same routines spelt the catalog's way: an update that revokes
			// nothing (and grants nothing: no ACL is written)
			{
				PreConfig:        func() { xmin = procXmin() },
				Config:           config(`["f(text, character)", "g(integer, character varying, timestamp with time zone, integer[])", "h(integer)"]`, `["p(bigint, double precision)"]`),
				ConfigPlanChecks: expectUpdate("postgresql_grant.functions", "postgresql_grant.procedures"),
				Check: resource.ComposeAggregateTestCheckFunc(granted(all), func(*terraform.State) error {
					if got := procXmin(); got != xmin {
						return fmt.Errorf("the ACLs were rewritten (xmin %s, was %s): the respelt routines were revoked and granted again", got, xmin)
					}
					return nil
				}),
			},
			// a signature that names no routine is refused at apply, naming it
			{
				Config:      config(`["f(text, char)", "f(text, text)"]`, procedures),
				ExpectError: onAttribute("Objects not found", `function "app"."f"(text, text) does not exist in database "`+f.db+`"`, "objects", `["f(text, char)", "f(text, text)"]`),
			},
		},
	})
}

// Before the fix a schema on a grant whose object type takes none
// (`database`, `foreign_data_wrapper`, `foreign_server`) was refused
// ("object_type \"database\" does not take a schema") where cyrilgdn accepted
// and ignored it, so modules that set one schema on every grant of a for_each
// could not apply, and `schema = ""` (cyrilgdn's "none") was refused as an
// invalid name. Both are accepted, the value is ignored with a warning, and
// changing or removing it is an update that runs no SQL, never a
// replacement (which would revoke and grant again).
func TestAccGrant_regressionSchemaOnDatabaseGrant(t *testing.T) {
	f := newIDCompatFixture(t)
	config := func(schema, publicSchema string) string {
		return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }

resource "postgresql_grant" "db" {
  role        = postgresql_role.r.name
  database    = %[2]q
  object_type = "database"
  privileges  = ["CONNECT", "TEMPORARY"]
  %[3]s
}

resource "postgresql_grant" "db_public" {
  role        = "public"
  database    = %[2]q
  object_type = "database"
  privileges  = ["CONNECT"]
  %[4]s
}
`, f.grantee, f.db, schema, publicSchema)
	}
	acl := func() string {
		return acctest.QueryString(t, "", `SELECT coalesce(string_agg(p, ',' ORDER BY p), '') FROM (
  SELECT CASE WHEN a.grantee = 0 THEN 'public' ELSE 'r' END || ':' || a.privilege_type AS p
  FROM pg_database d, aclexplode(d.datacl) a WHERE d.datname = $1 AND (a.grantee = 0 OR a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2))) x`, f.db, f.grantee)
	}
	want := "public:CONNECT,r:CONNECT,r:TEMPORARY"
	// the database's catalog row version: a GRANT or REVOKE on it writes the row
	xmin := func() string {
		return acctest.QueryString(t, "", "SELECT xmin::text FROM pg_database WHERE datname = $1", f.db)
	}
	var before string
	unchanged := func(*terraform.State) error {
		if got := acl(); got != want {
			return fmt.Errorf("privileges %q, want %q", got, want)
		}
		if got := xmin(); got != before {
			return fmt.Errorf("the database's ACL was rewritten (xmin %s, was %s): an ignored schema must run no SQL", got, before)
		}
		return nil
	}
	withSchema := config(`schema = "public"`, `schema = ""`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			// where the type needs a schema, "" is none: refused as before
			{
				Config: withSchema + fmt.Sprintf(`
resource "postgresql_grant" "tables" {
  role        = postgresql_role.r.name
  database    = %q
  schema      = ""
  object_type = "table"
  privileges  = ["SELECT"]
}
`, f.db),
				ExpectError: regexp.MustCompile(`object_type "table" needs schema`),
			},
			{
				Config: withSchema,
				Check:  expectACL(t, "database", acl, want),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_grant.db", tfjsonpath.New("schema"), knownvalue.StringExact("public")),
					statecheck.ExpectKnownValue("postgresql_grant.db", tfjsonpath.New("id"), knownvalue.StringExact(f.grantee+"_"+f.db+"_database")),
					planWarns{t: t, config: withSchema, want: `(?s)Warning: Argument ignored.*object_type "database" takes no schema: schema = "public" has no effect`},
				},
			},
			{Config: withSchema, PlanOnly: true},
			{
				PreConfig:        func() { before = xmin() },
				Config:           config("", ""),
				ConfigPlanChecks: expectUpdate("postgresql_grant.db", "postgresql_grant.db_public"),
				Check:            unchanged,
			},
			{
				PreConfig:        func() { before = xmin() },
				Config:           config(`schema = "app"`, `schema = "public"`),
				ConfigPlanChecks: expectUpdate("postgresql_grant.db", "postgresql_grant.db_public"),
				Check:            unchanged,
			},
		},
	})
}

// planWarns runs a real `terraform plan` of config (with no state) and
// expects its output to match want: the warnings a configuration gets.
type planWarns struct {
	t            *testing.T
	config, want string
}

func (c planWarns) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	_, text, err := acctest.PlanChanges(c.t, strings.TrimPrefix(c.config, acctest.ProviderBlock), "")
	if err != nil {
		resp.Error = fmt.Errorf("plan: %w\n%s", err, text)
		return
	}
	if !regexp.MustCompile(c.want).MatchString(text) {
		resp.Error = fmt.Errorf("the plan does not warn %s:\n%s", c.want, text)
	}
}

// Before the fix `schema = ""` on default privileges (cyrilgdn's spelling of
// "every schema": it read an empty schema as unset, `noschema` in its id) was
// refused as an invalid name. It is a global entry; switching between "" and
// unset changes nothing on the server and never replaces the entry.
func TestAccDefaultPrivileges_regressionEmptySchema(t *testing.T) {
	f := newIDCompatFixture(t)
	config := func(schema string) string {
		return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }

resource "postgresql_default_privileges" "tables" {
  role        = postgresql_role.r.name
  database    = %[2]q
  owner       = %[3]q
  object_type = "table"
  privileges  = ["SELECT"]
  %[4]s
}

resource "postgresql_default_privileges" "schemas" {
  role        = postgresql_role.r.name
  database    = %[2]q
  owner       = %[3]q
  object_type = "schema"
  privileges  = ["USAGE"]
  %[4]s
}
`, f.grantee, f.db, f.owner, schema)
	}
	entries := func() string {
		return acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(p, ',' ORDER BY p), '') FROM (
  SELECT d.defaclobjtype::text || ':' || d.defaclnamespace::text || ':' || a.privilege_type AS p
  FROM pg_default_acl d, aclexplode(d.defaclacl) a WHERE a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)) x`, f.grantee)
	}
	want := "n:0:USAGE,r:0:SELECT"
	xmin := func() string {
		return acctest.QueryString(t, f.db, "SELECT coalesce(string_agg(xmin::text, ',' ORDER BY oid), '') FROM pg_default_acl")
	}
	var before string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: config(`schema = ""`),
				Check:  expectACL(t, "default privileges", entries, want),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_default_privileges.tables", tfjsonpath.New("id"),
						knownvalue.StringExact(f.grantee+"_"+f.db+"_noschema_"+f.owner+"_table")),
				},
			},
			{Config: config(`schema = ""`), PlanOnly: true},
			{
				PreConfig:        func() { before = xmin() },
				Config:           config(""),
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges.tables", "postgresql_default_privileges.schemas"),
				Check: resource.ComposeAggregateTestCheckFunc(expectACL(t, "default privileges", entries, want), func(*terraform.State) error {
					if got := xmin(); got != before {
						return fmt.Errorf("pg_default_acl was rewritten (xmin %s, was %s)", got, before)
					}
					return nil
				}),
			},
			{Config: config(`schema = ""`), ConfigPlanChecks: expectUpdate("postgresql_default_privileges.tables", "postgresql_default_privileges.schemas")},
			{Config: config(`schema = ""`), ResourceName: "postgresql_default_privileges.tables", ImportState: true, ImportStateVerify: true,
				ImportStateId: fmt.Sprintf(`{"role":%q,"database":%q,"owner":%q,"schema":"","object_type":"table"}`, f.grantee, f.db, f.owner)},
		},
	})
}
