package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// roleSettings lists a role's settings in database db ("" = every database)
// as pg_db_role_setting stores them, sorted.
func roleSettings(t *testing.T, role, db string) string {
	return acctest.QueryString(t, "", `SELECT coalesce(string_agg(c, '; ' ORDER BY c), '')
FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
LEFT JOIN pg_database d ON d.oid = s.setdatabase, unnest(s.setconfig) c
WHERE r.rolname = $1 AND coalesce(d.datname, '') = $2`, role, db)
}

func expectRoleSettings(t *testing.T, role, db, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := roleSettings(t, role, db); got != want {
			return fmt.Errorf("settings of role %q in database %q: %q, want %q", role, db, got, want)
		}
		return nil
	}
}

func TestAccRoleSetting_basic(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("rset")
	role, db := base+" \"r", base+"_db"
	acctest.Database(t, db, acctest.AdminUser())
	config := func(param, value string) string {
		return acctest.Config(`
resource "postgresql_role" "r" { name = %[1]s }
resource "postgresql_role_setting" "all" {
  role      = postgresql_role.r.name
  parameter = %[3]q
  value     = %[4]q
}
resource "postgresql_role_setting" "db" {
  role      = postgresql_role.r.name
  database  = %[2]q
  parameter = "search_path"
  value     = "app,\"$user\",public"
}
`, acctest.QuoteHCL(role), db, param, value)
	}
	all, inDB := "postgresql_role_setting.all", "postgresql_role_setting.db"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []tfresource.TestStep{
			{
				Config: config("work_mem", "64MB"),
				Check: tfresource.ComposeTestCheckFunc(
					expectRoleSettings(t, role, "", "work_mem=64MB"),
					expectRoleSettings(t, role, db, `search_path=app, "$user", public`)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(all, tfjsonpath.New("id"), knownvalue.StringExact(fmt.Sprintf(`{"parameter":"work_mem","role":%q}`, role))),
					statecheck.ExpectKnownValue(inDB, tfjsonpath.New("id"), knownvalue.StringExact(fmt.Sprintf(`{"database":%q,"parameter":"search_path","role":%q}`, db, role))),
					// PostgreSQL prints the list as `app, "$user", public`: the configuration's spelling stays
					statecheck.ExpectKnownValue(inDB, tfjsonpath.New("value"), knownvalue.StringExact(`app,"$user",public`)),
					sameID.AddStateValue(all, tfjsonpath.New("id")),
				},
			},
			{Config: config("work_mem", "64MB"), PlanOnly: true},
			{ // a new value changes the setting in place
				Config:            config("work_mem", "128MB"),
				ConfigPlanChecks:  expectUpdate(all),
				Check:             expectRoleSettings(t, role, "", "work_mem=128MB"),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(all, tfjsonpath.New("id"))},
			},
			{ // changed behind Terraform's back: set back
				PreConfig:        acctest.ExecFunc(t, "", "ALTER ROLE "+acctest.QI(role)+" SET work_mem = '1MB'"),
				Config:           config("work_mem", "128MB"),
				ConfigPlanChecks: expectUpdate(all),
				Check:            expectRoleSettings(t, role, "", "work_mem=128MB"),
			},
			{ // reset behind Terraform's back: set again
				PreConfig: acctest.ExecFunc(t, "", "ALTER ROLE "+acctest.QI(role)+" IN DATABASE "+acctest.QI(db)+" RESET search_path"),
				Config:    config("work_mem", "128MB"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inDB, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(all, plancheck.ResourceActionNoop),
				}},
				Check: expectRoleSettings(t, role, db, `search_path=app, "$user", public`),
			},
			{Config: config("work_mem", "128MB"), ResourceName: all, ImportState: true, ImportStateVerify: true,
				ImportStateId: fmt.Sprintf(`{"role":%q,"parameter":"work_mem"}`, role)},
			// an import keeps PostgreSQL's spelling of the list
			{Config: config("work_mem", "128MB"), ResourceName: inDB, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"value"}},
			{ // another parameter is another setting: replaced, the old one reset
				Config:           config("maintenance_work_mem", "256MB"),
				ConfigPlanChecks: expectAction(all, plancheck.ResourceActionReplace),
				Check:            expectRoleSettings(t, role, "", "maintenance_work_mem=256MB"),
			},
			{ // PostgreSQL checks the value when it is set
				Config:      config("maintenance_work_mem", "lots"),
				ExpectError: regexp.MustCompile(`(?s)Could not change role setting.*maintenance_work_mem`),
			},
			{
				Config:      config("Work_Mem", "1MB"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)parameter.*lower case`),
			},
			// the failed change left the state as it was (and the destroy needs a valid configuration)
			{Config: config("maintenance_work_mem", "256MB"), PlanOnly: true},
		},
	})
}

// A setting's role or database dropped out of band: the setting went with it,
// and Terraform plans to create it again (or, with the role gone too, both).
func TestAccRoleSetting_goneWithDatabase(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("rsetg")
	role, db := base+"_r", base+"_db"
	acctest.Database(t, db, acctest.AdminUser())
	acctest.OwnerRole(t, role)
	config := acctest.Config(`
resource "postgresql_role_setting" "s" {
  role      = %[1]q
  database  = %[2]q
  parameter = "work_mem"
  value     = "8MB"
}
`, role, db)
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: config, Check: expectRoleSettings(t, role, db, "work_mem=8MB")},
			{
				PreConfig: acctest.ExecFunc(t, "", "DROP DATABASE "+acctest.QI(db)),
				Config:    config,
				PlanOnly:  true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_role_setting.s", plancheck.ResourceActionCreate),
				}},
			},
			{ // destroying it once the database is gone is no error
				Config: acctest.Config(`resource "postgresql_role" "other" { name = %q }`, base+"_other"),
			},
		},
	})
}

func TestRoleSettingWarnsOnParametersOfPostgresqlRole(t *testing.T) {
	ctx := context.Background()
	r := NewRoleSettingResource().(*roleSettingResource)
	s := roleSettingSchemaV1()
	typ := s.Type().TerraformType(ctx)
	for _, c := range []struct {
		param, db string
		warns     bool
	}{
		{"statement_timeout", "", true},
		{"search_path", "", true},
		{"role", "", true},
		{"statement_timeout", "app", false},
		{"work_mem", "", false},
	} {
		db := tftypes.NewValue(tftypes.String, nil)
		if c.db != "" {
			db = tftypes.NewValue(tftypes.String, c.db)
		}
		raw := tftypes.NewValue(typ, map[string]tftypes.Value{
			"id":        tftypes.NewValue(tftypes.String, nil),
			"role":      tftypes.NewValue(tftypes.String, "app"),
			"database":  db,
			"parameter": tftypes.NewValue(tftypes.String, c.param),
			"value":     tftypes.NewValue(tftypes.String, "1"),
		})
		var resp resource.ValidateConfigResponse
		r.ValidateConfig(ctx, resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: s, Raw: raw}}, &resp)
		got := resp.Diagnostics.WarningsCount() > 0 && strings.Contains(resp.Diagnostics.Warnings()[0].Detail(), c.param)
		if got != c.warns || resp.Diagnostics.HasError() {
			t.Errorf("parameter %s, database %q: warning %v, want %v (%v)", c.param, c.db, got, c.warns, resp.Diagnostics)
		}
	}
}

// TestAccRoleSetting_regressionCanonicalParameterName: PostgreSQL stores a
// setting under the parameter's own spelling (`TimeZone`, `DateStyle`), so a
// read that matched the configured `timezone` exactly never found the setting
// it had just made ("Created object vanished"), and every plan created it again.
func TestAccRoleSetting_regressionCanonicalParameterName(t *testing.T) {
	role := acctest.RandName("rsetc")
	addr := "postgresql_role_setting.tz"
	config := acctest.Config(`
resource "postgresql_role" "r" { name = %q }
resource "postgresql_role_setting" "tz" {
  role      = postgresql_role.r.name
  parameter = "timezone"
  value     = "Europe/Paris"
}
`, role)
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []tfresource.TestStep{
			{
				Config: config,
				Check:  expectRoleSettings(t, role, "", "TimeZone=Europe/Paris"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("parameter"), knownvalue.StringExact("timezone")),
				},
			},
			{Config: config, PlanOnly: true},
			{Config: config, ResourceName: addr, ImportState: true, ImportStateVerify: true,
				ImportStateId: fmt.Sprintf(`{"role":%q,"parameter":"timezone"}`, role)},
		},
	})
}
