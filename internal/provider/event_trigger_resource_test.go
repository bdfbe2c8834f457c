package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

func TestAccEventTrigger_basic(t *testing.T) {
	acctest.SkipIfManaged(t, "PostgreSQL lets only superusers create event triggers, and their owner must be a superuser")
	db := acctest.RandName("evtdb")
	name := acctest.RandName("evt")
	renamed := name + ` "Ü.renamed"`
	owner := acctest.RandName("evtown")
	addr := "postgresql_event_trigger.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(name, body string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" {
  name      = %q
  superuser = true
}
resource "postgresql_event_trigger" "test" {
  database = %q
  name     = %s
%s
}`, owner, db, acctest.QuoteHCL(name), body)
	}
	base := `
  event    = "ddl_command_end"
  tags     = ["create table", "ALTER TABLE"]
  function = "log_ddl"
  function_schema = "Audit"`
	// another function and event, no tags
	other := cfg(renamed, `
  event           = "sql_drop"
  function        = "other"
  function_schema = "Audit"
  enabled         = "REPLICA"`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.TempDatabase(t, db,
				`CREATE SCHEMA "Audit"`,
				`CREATE FUNCTION "Audit".log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN END$$`,
				`CREATE FUNCTION "Audit".other() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN END$$`)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, db, "SELECT count(*)::text FROM pg_event_trigger"); n != "0" {
				return fmt.Errorf("%s event triggers left", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(name, base),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(db+"."+name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.StringExact("ORIGIN")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(acctest.AdminUser())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tags"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("create table"), knownvalue.StringExact("ALTER TABLE")})), // configured case kept
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{ // another letter case of the same tags: no change, neither replace nor update
				Config:            cfg(name, strings.Replace(base, `["create table", "ALTER TABLE"]`, `["CREATE TABLE", "alter  table"]`, 1)),
				ConfigPlanChecks:  expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			},
			{ // rename, firing mode and owner in place
				Config: cfg(renamed, base+`
  enabled = "ALWAYS"
  owner   = postgresql_role.owner.name`),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.StringExact("ALWAYS")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(owner)),
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           db + "." + renamed,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"tags"}, // imported in PostgreSQL's upper case
			},
			{ // the same, with the name quoted as in SQL
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           tfkit.ImportID(db, renamed),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"tags"},
			},
			{ // drift made with SQL is repaired in place
				PreConfig: acctest.ExecFunc(t, db, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(renamed)+" DISABLE"),
				Config: cfg(renamed, base+`
  enabled = "ALWAYS"
  owner   = postgresql_role.owner.name`),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			},
			{ // another function, event and no tags: replaced
				Config:           other,
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tags"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.StringExact("REPLICA")),
				},
			},
			{ // dropped behind Terraform's back: created again
				PreConfig:        acctest.ExecFunc(t, db, "DROP EVENT TRIGGER "+pgconn.QuoteIdent(renamed)),
				Config:           other,
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
		},
	})
}

// TestSameTags: tags are the same commands in any letter case or spacing
// (their type's semantic equality, by which the plan keeps the state's).
func TestSameTags(t *testing.T) {
	ctx := context.Background()
	tagsType := eventTriggerSchemaV1().Attributes["tags"].GetType()
	sameTags := func(_ context.Context, a, b types.Set) bool {
		av, err := a.ToTerraformValue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		bv, err := b.ToTerraformValue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return tfkit.SameByType(ctx, tagsType, av, bv)
	}
	for _, c := range []struct {
		a, b types.Set
		want bool
	}{
		{strSet("create table"), strSet("CREATE TABLE"), true},
		{strSet("Create  Table", "ALTER TABLE"), strSet("alter table", "CREATE TABLE"), true},
		{strSet("create table"), strSet("CREATE TABLE", "ALTER TABLE"), false},
		{strSet("create table"), strSet("CREATE TABLES"), false},
		{strSet("create table"), types.SetNull(types.StringType), false},
		{types.SetNull(types.StringType), types.SetNull(types.StringType), false},
		{strSet("create table"), types.SetUnknown(types.StringType), false},
	} {
		if got := sameTags(ctx, c.a, c.b); got != c.want {
			t.Errorf("sameTags(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
