package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// words matches s with any white space (Terraform wraps long messages) where s has a space.
func words(s string) string {
	f := strings.Fields(s)
	for i := range f {
		f[i] = regexp.QuoteMeta(f[i])
	}
	return strings.Join(f, `\s+`)
}

// onAttribute matches an error attached to the argument attr of the
// configuration (Terraform then quotes the argument's line) that says msg.
func onAttribute(summary, msg, attr, value string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + words(summary) + `.*\d+:\s+` + regexp.QuoteMeta(attr) + `\s+=\s+` + regexp.QuoteMeta(value) + `.*` + words(msg))
}

// errorFixture is a database with a schema "app" holding a table t (a, b),
// and a grantee made by the configuration (postgresql_role.g).
type errorFixture struct{ db, owner, grantee string }

func newErrorFixture(t *testing.T) errorFixture {
	base := acctest.RandName("gre")
	return errorFixture{db: base + "_db", owner: base + "_own", grantee: base + "_g"}
}

func (f errorFixture) setup(t *testing.T) {
	acctest.OwnerRole(t, f.owner)
	acctest.Database(t, f.db, f.owner)
	acctest.Exec(t, f.db, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(f.owner),
		"SET ROLE "+acctest.QI(f.owner), "CREATE TABLE app.t (a int, b int)", "RESET ROLE")
}

// config is the grantee plus blocks.
func (f errorFixture) config(blocks ...string) string {
	return acctest.Config(`resource "postgresql_role" "g" { name = %s }`+"\n", acctest.QuoteHCL(f.grantee)) + strings.Join(blocks, "")
}

// A typo in the most common grant (object_type "table", every table of a
// schema that does not exist) "succeeded", then reported "Created object
// vanished ... dropped by someone else meanwhile" and "Created, but not read
// back ... tainted", leaving a tainted grant in the state; a missing database
// or grantee failed with PostgreSQL's words, and default privileges said
// "owner, grantee or schema does not exist" without saying which. Each is now
// an error on the argument that names the missing object, naming it in full,
// and the state holds nothing.
func TestAccGrant_regressionMissingNameTaintsGrant(t *testing.T) {
	f := newErrorFixture(t)
	db := acctest.QuoteHCL(f.db)
	g := "postgresql_role.g.name"
	qdb := `"` + f.db + `"`
	grant := func(attrs ...string) string {
		return acctest.Resource("postgresql_grant", "x", append([]string{"role", g, "database", db, "privileges", `["SELECT"]`}, attrs...)...)
	}
	dp := func(attrs ...string) string {
		return acctest.Resource("postgresql_default_privileges", "x", append([]string{"database", db, "object_type", `"table"`, "privileges", `["SELECT"]`}, attrs...)...)
	}
	nothingInState := resource.TestStep{Config: f.config(), PlanOnly: true}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config:      f.config(grant("schema", `"ghost"`, "object_type", `"table"`)),
				ExpectError: onAttribute("Schema not found", `schema "ghost" does not exist in database `+qdb, "schema", `"ghost"`),
			},
			nothingInState,
			{
				Config:      f.config(acctest.Resource("postgresql_grant", "x", "role", g, "database", `"`+f.db+`_nodb"`, "object_type", `"database"`, "privileges", `["CONNECT"]`)),
				ExpectError: onAttribute("Database not found", `database "`+f.db+`_nodb" does not exist`, "database", `"`+f.db+`_nodb"`),
			},
			{
				Config: f.config(acctest.Resource("postgresql_grant", "x", "role", acctest.QuoteHCL(f.grantee+"_nobody"), "database", db, "schema", `"app"`,
					"object_type", `"table"`, "privileges", `["SELECT"]`)),
				ExpectError: onAttribute("Role not found", `role "`+f.grantee+`_nobody" does not exist`, "role", `"`+f.grantee+`_nobody"`),
			},
			nothingInState,
			{
				Config:      f.config(dp("role", g, "owner", acctest.QuoteHCL(f.owner+"_nobody"), "schema", `"app"`)),
				ExpectError: onAttribute("Role not found", `role "`+f.owner+`_nobody" does not exist`, "owner", `"`+f.owner+`_nobody"`),
			},
			{
				Config:      f.config(dp("role", g, "owner", acctest.QuoteHCL(f.owner), "schema", `"ghost"`)),
				ExpectError: onAttribute("Schema not found", `schema "ghost" does not exist in database `+qdb, "schema", `"ghost"`),
			},
			{
				Config:      f.config(dp("role", acctest.QuoteHCL(f.grantee+"_nobody"), "owner", acctest.QuoteHCL(f.owner))),
				ExpectError: onAttribute("Role not found", `role "`+f.grantee+`_nobody" does not exist`, "role", `"`+f.grantee+`_nobody"`),
			},
			nothingInState,
		},
	})
}

// Not-found errors ran names together or left out where they were: `schema
// object(s) not found: shopno_such_schema` (database and schema),
// `table object(s) not found: no_such_table` (no schema, no database). They
// now name each object in full, quoted as PostgreSQL prints it, on the
// argument that names it.
func TestAccGrant_regressionNotFoundGarblesNames(t *testing.T) {
	f := newErrorFixture(t)
	db := acctest.QuoteHCL(f.db)
	qdb := `"` + f.db + `"`
	grant := func(attrs ...string) string {
		return f.config(acctest.Resource("postgresql_grant", "x", append([]string{"role", "postgresql_role.g.name", "database", db}, attrs...)...))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config:      grant("schema", `"no_such_schema"`, "object_type", `"schema"`, "privileges", `["USAGE"]`),
				ExpectError: onAttribute("Schema not found", `schema "no_such_schema" does not exist in database `+qdb, "schema", `"no_such_schema"`),
			},
			{
				Config:      grant("schema", `"app"`, "object_type", `"table"`, "objects", `["no_such_table", "t"]`, "privileges", `["SELECT"]`),
				ExpectError: onAttribute("Objects not found", `table "app"."no_such_table" does not exist in database `+qdb, "objects", `["no_such_table", "t"]`),
			},
			{
				Config:      grant("schema", `"app"`, "object_type", `"function"`, "objects", `["nofn(integer)"]`, "privileges", `["EXECUTE"]`),
				ExpectError: onAttribute("Objects not found", `function "app"."nofn"(integer) does not exist in database `+qdb, "objects", `["nofn(integer)"]`),
			},
			{
				Config:      grant("schema", `"app"`, "object_type", `"column"`, "objects", `["t"]`, "columns", `["a", "nope"]`, "privileges", `["SELECT"]`),
				ExpectError: onAttribute("Columns not found", `column "nope" of table "app"."t" does not exist in database `+qdb, "columns", `["a", "nope"]`),
			},
			{Config: f.config(), PlanOnly: true},
			// an update naming a missing object changes nothing: t keeps its privileges
			{Config: grant("schema", `"app"`, "object_type", `"table"`, "objects", `["t"]`, "privileges", `["SELECT"]`)},
			{
				Config:      grant("schema", `"app"`, "object_type", `"table"`, "objects", `["no_such_table"]`, "privileges", `["SELECT"]`),
				ExpectError: onAttribute("Objects not found", `table "app"."no_such_table" does not exist in database `+qdb, "objects", `["no_such_table"]`),
			},
			{Config: grant("schema", `"app"`, "object_type", `"table"`, "objects", `["t"]`, "privileges", `["SELECT"]`), PlanOnly: true},
		},
	})
}

// validationErrors validates a configuration of resource type typ through
// the provider server (the schema's validators and ValidateConfig) and
// returns the error diagnostics.
func validationErrors(t *testing.T, typ string, values map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	s := providerServer(t)
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ty := schemas.ResourceSchemas[typ].ValueType()
	attrs := map[string]tftypes.Value{}
	for name, at := range ty.(tftypes.Object).AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range values {
		attrs[name] = v
	}
	cfg, err := tfprotov6.NewDynamicValue(ty, tftypes.NewValue(ty, attrs))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typ, Config: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	var errs []*tfprotov6.Diagnostic
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	return errs
}

func providerServer(t *testing.T) tfprotov6.ProviderServer {
	t.Helper()
	s, err := testAccProtoV6ProviderFactories["postgresql"]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tfStr(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func tfStrSet(v ...string) tftypes.Value {
	elems := make([]tftypes.Value, len(v))
	for i, s := range v {
		elems[i] = tfStr(s)
	}
	return tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, elems)
}

// A typo'd object_type ("tabel") gave the right error plus two wrong ones:
// "does not take a schema" and "valid privileges are: , or ALL." Checks that
// depend on object_type now stay silent when it is itself invalid.
func TestGrant_regressionTypoObjectTypeExtraErrors(t *testing.T) {
	for _, c := range []struct {
		typ    string
		values map[string]tftypes.Value
	}{
		{"postgresql_grant", map[string]tftypes.Value{
			"role": tfStr("app"), "database": tfStr("db"), "schema": tfStr("public"), "object_type": tfStr("tabel"), "privileges": tfStrSet("SELECT"),
		}},
		{"postgresql_default_privileges", map[string]tftypes.Value{
			"role": tfStr("app"), "database": tfStr("db"), "owner": tfStr("own"), "schema": tfStr("public"), "object_type": tfStr("tabel"), "privileges": tfStrSet("SELECT"),
		}},
	} {
		errs := validationErrors(t, c.typ, c.values)
		var got []string
		for _, d := range errs {
			got = append(got, d.Summary+": "+d.Detail)
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Detail, "tabel") || errs[0].Attribute == nil || errs[0].Attribute.String() != `AttributeName("object_type")` {
			t.Errorf("%s: want one error, on object_type; got %d:\n%s", c.typ, len(errs), strings.Join(got, "\n"))
		}
		// the same type spelt right validates
		c.values["object_type"] = tfStr("table")
		if errs := validationErrors(t, c.typ, c.values); len(errs) != 0 {
			t.Errorf("%s: object_type \"table\": %v", c.typ, errs)
		}
	}
}

// A plan warns, on the argument, of a database, schema or role that a grant
// or default privileges name when it exists neither in the catalog nor in
// the plans of this configuration's roles, databases and schemas (the apply
// refuses it if it still does not exist then); what the configuration
// creates is not warned about.
func TestAccGrant_missingNamesWarnAtPlan(t *testing.T) {
	acctest.PreCheck(t)
	f := newErrorFixture(t)
	f.setup(t)
	db := acctest.QuoteHCL(f.db)
	newDB, newRole := f.db+"_new", f.grantee+"_new"
	body := `resource "postgresql_role" "g" { name = ` + acctest.QuoteHCL(f.grantee) + " }\n" +
		`resource "postgresql_role" "new" { name = ` + acctest.QuoteHCL(newRole) + " }\n" +
		`resource "postgresql_database" "new" { name = ` + acctest.QuoteHCL(newDB) + " }\n" +
		`resource "postgresql_schema" "new" {
  database = ` + db + `
  name     = "fresh"
}
` +
		acctest.Resource("postgresql_grant", "typo", "role", "postgresql_role.g.name", "database", db, "schema", `"ghost"`, "object_type", `"table"`, "privileges", `["SELECT"]`) +
		acctest.Resource("postgresql_default_privileges", "typo", "role", "postgresql_role.g.name", "database", db, "owner", acctest.QuoteHCL(f.owner+"_nobody"),
			"object_type", `"table"`, "privileges", `["SELECT"]`) +
		// all created by this configuration: no warning
		acctest.Resource("postgresql_grant", "new_schema", "role", "postgresql_role.new.name", "database", "postgresql_schema.new.database", "schema", "postgresql_schema.new.name",
			"object_type", `"table"`, "privileges", `["SELECT"]`) +
		acctest.Resource("postgresql_grant", "new_db", "role", "postgresql_role.new.name", "database", "postgresql_database.new.name", "schema", `"public"`,
			"object_type", `"table"`, "privileges", `["SELECT"]`)
	_, out, err := acctest.PlanChanges(t, body, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		`Warning: Schema not found`, `schema "ghost" does not exist in database "` + f.db + `"`, `schema      = "ghost"`,
		`Warning: Role not found`, `role "` + f.owner + `_nobody" does not exist`, `owner       = "` + f.owner + `_nobody"`,
	} {
		if !regexp.MustCompile(words(want)).MatchString(out) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "not found"); n != 2 {
		t.Errorf("the plan warns %d times of something not found, want 2 (what the configuration creates is no warning):\n%s", n, out)
	}
}
