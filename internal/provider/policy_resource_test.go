package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// TestAccPolicy_basic covers postgresql_policy and postgresql_table_rls together.
func TestAccPolicy_basic(t *testing.T) {
	db := acctest.RandName("poldb")
	schemaName, table := "App Schema", `Items "ü"`
	qt := pg.QuoteQualified(schemaName, table)
	name := acctest.RandName("pol")
	renamed := name + ` "renamed"`
	r1, r2 := acctest.RandName("polr1"), acctest.RandName("polr2")
	addr, rls := "postgresql_policy.test", "postgresql_table_rls.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(rlsBody, policyBody string) string {
		return acctest.Config(`
resource "postgresql_role" "r1" { name = %[4]q }
resource "postgresql_role" "r2" { name = %[5]q }
resource "postgresql_table_rls" "test" {
  database = %[1]q
  schema   = %[2]s
  table    = %[3]s
%[6]s
}
resource "postgresql_policy" "test" {
  database = %[1]q
  schema   = %[2]s
  table    = %[3]s
%[7]s
}`, db, acctest.QuoteHCL(schemaName), acctest.QuoteHCL(table), r1, r2, rlsBody, policyBody)
	}
	step1 := fmt.Sprintf(`
  name    = %q
  command = "SELECT"
  roles   = [postgresql_role.r1.name]
  using   = "owner=current_user"`, name)
	step2 := fmt.Sprintf(`
  name    = %s
  command = "SELECT"
  roles   = [postgresql_role.r1.name, postgresql_role.r2.name]
  using   = "(tenant = 1)"`, acctest.QuoteHCL(renamed))
	step5 := fmt.Sprintf(`
  name       = %s
  command    = "UPDATE"
  permissive = false
  using      = "tenant > 0"
  with_check = "tenant < 100 AND owner IS NOT NULL"`, acctest.QuoteHCL(renamed))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			admin := pg.QuoteIdent(acctest.AdminUser())
			acctest.TempDatabase(t, db,
				"CREATE SCHEMA "+pg.QuoteIdent(schemaName)+" AUTHORIZATION "+admin,
				"CREATE TABLE "+qt+" (id int, owner text, tenant int)",
				"ALTER TABLE "+qt+" OWNER TO "+admin)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if acctest.QueryBool(t, db, "SELECT relrowsecurity OR relforcerowsecurity OR exists(SELECT 1 FROM pg_policy WHERE polrelid = $1::regclass) FROM pg_class WHERE oid = $1::regclass", qt) {
				return fmt.Errorf("row-level security or a policy is left on %s", qt)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:      cfg("", `name = "x"`+"\n"+`command = "INSERT"`+"\n"+`using = "true"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`USING not allowed for INSERT`),
			},
			{
				Config:      cfg("", `name = "`+strings.Repeat("p", 64)+`"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`at most 63 bytes`),
			},
			{
				Config: cfg("", step1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(db+"."+schemaName+"."+table+"."+name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("using"), knownvalue.StringExact("owner=current_user")), // configured spelling kept
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("with_check"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissive"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(rls, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(rls, tfjsonpath.New("force"), knownvalue.Bool(false)),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, db, "SELECT pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polname = $1", name); got != "(owner = CURRENT_USER)" {
						return fmt.Errorf("USING on the server = %q", got)
					}
					return nil
				},
			},
			{ // rename, roles and expression in place; force on
				Config: cfg("force = true", step2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(rls, plancheck.ResourceActionUpdate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(r1), knownvalue.StringExact(r2)})),
					statecheck.ExpectKnownValue(rls, tfjsonpath.New("force"), knownvalue.Bool(true)),
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     db + "." + schemaName + "." + table + "." + renamed,
				ImportStateVerify: true,
			},
			{
				ResourceName:      rls,
				ImportState:       true,
				ImportStateId:     db + "." + schemaName + "." + table,
				ImportStateVerify: true,
			},
			{ // drift made with SQL is repaired in place
				PreConfig: acctest.ExecFunc(t, db,
					"ALTER POLICY "+pg.QuoteIdent(renamed)+" ON "+qt+" TO PUBLIC USING (tenant = 2)",
					"ALTER TABLE "+qt+" NO FORCE ROW LEVEL SECURITY"),
				Config: cfg("force = true", step2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(rls, plancheck.ResourceActionUpdate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			},
			{ // command and permissiveness replace the policy; RLS disabled in place
				Config: cfg("enabled = false", step5),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction(rls, plancheck.ResourceActionUpdate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("public")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("with_check"), knownvalue.StringExact("tenant < 100 AND owner IS NOT NULL")),
					statecheck.ExpectKnownValue(rls, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
				},
			},
			{ // dropped behind Terraform's back: created again
				PreConfig: acctest.ExecFunc(t, db, "DROP POLICY "+pg.QuoteIdent(renamed)+" ON "+qt),
				Config:    cfg("enabled = false", step5),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{ // removing an expression replaces the policy (ALTER POLICY cannot drop it)
				Config: cfg("enabled = false", strings.Replace(step5, `using      = "tenant > 0"`, "", 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("using"), knownvalue.Null()),
				},
			},
		},
	})
}
