package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// databaseSettings lists the settings of database db for role ("" = every
// role) as pg_db_role_setting stores them, sorted.
func databaseSettings(t *testing.T, db, role string) string {
	return acctest.QueryString(t, "", `SELECT coalesce(string_agg(c, '; ' ORDER BY c), '')
FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
LEFT JOIN pg_roles r ON r.oid = s.setrole, unnest(s.setconfig) c
WHERE d.datname = $1 AND coalesce(r.rolname, '') = $2`, db, role)
}

func expectDatabaseSettings(t *testing.T, db, role, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := databaseSettings(t, db, role); got != want {
			return fmt.Errorf("settings of database %q for role %q: %q, want %q", db, role, got, want)
		}
		return nil
	}
}

// TestAccDatabaseSetting_lifecycle: a database's settings for every role and
// one role's in it; values changed in place, the server's other spellings of
// the same value kept out of the plan, drift set back, a reset planned for
// creation, import, and replacement on another parameter.
func TestAccDatabaseSetting_lifecycle(t *testing.T) {
	base := acctest.RandName("dbset")
	db, role := base+"_db", base+"_r"
	config := func(workMem, timeout, param string) string {
		return acctest.Config(`
resource "postgresql_database_setting" "mem" {
  database  = %[1]q
  parameter = %[5]q
  value     = %[3]q
}
resource "postgresql_database_setting" "ro" {
  database  = %[1]q
  parameter = "default_transaction_read_only"
  value     = "on"
}
resource "postgresql_database_setting" "path" {
  database  = %[1]q
  parameter = "search_path"
  value     = "app,\"$user\",public"
}
resource "postgresql_database_setting" "timeout" {
  database  = %[1]q
  role      = %[2]q
  parameter = "statement_timeout"
  value     = %[4]q
}
`, db, role, workMem, timeout, param)
	}
	mem, ro, path, timeout := "postgresql_database_setting.mem", "postgresql_database_setting.ro", "postgresql_database_setting.path", "postgresql_database_setting.timeout"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	alterDB := func(stmt string) func() { return acctest.ExecFunc(t, "", "ALTER DATABASE "+acctest.QI(db)+" "+stmt) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, role)
			acctest.Database(t, db, acctest.AdminUser())
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if got := databaseSettings(t, db, "") + databaseSettings(t, db, role); got != "" {
				return fmt.Errorf("settings left after destroy: %q", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: config("64MB", "30s", "work_mem"),
				Check: resource.ComposeTestCheckFunc(
					expectDatabaseSettings(t, db, "", `default_transaction_read_only=on; search_path=app, "$user", public; work_mem=64MB`),
					expectDatabaseSettings(t, db, role, "statement_timeout=30s")),
				ConfigStateChecks: []statecheck.StateCheck{
					str(mem, "id", fmt.Sprintf(`{"database":%q,"parameter":"work_mem"}`, db)),
					str(timeout, "id", fmt.Sprintf(`{"database":%q,"parameter":"statement_timeout","role":%q}`, db, role)),
					str(path, "value", `app,"$user",public`),
					sameID.AddStateValue(mem, tfjsonpath.New("id")),
				},
			},
			{Config: config("64MB", "30s", "work_mem"), PlanOnly: true},
			{ // in place
				Config:            config("128MB", "1min", "work_mem"),
				ConfigPlanChecks:  expectUpdate(mem, timeout),
				Check:             resource.ComposeTestCheckFunc(expectDatabaseSettings(t, db, role, "statement_timeout=1min")),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(mem, tfjsonpath.New("id"))},
			},
			{ // the same values in the server's other spellings: no change, the configuration's spelling stays
				PreConfig: func() {
					alterDB("SET work_mem = '131072kB'")()
					alterDB("SET default_transaction_read_only = 'TRUE'")()
					acctest.Exec(t, "", "ALTER ROLE "+acctest.QI(role)+" IN DATABASE "+acctest.QI(db)+" SET statement_timeout = '60000'")
				},
				Config:   config("128MB", "1min", "work_mem"),
				PlanOnly: true,
			},
			{ // a refresh keeps the configuration's spelling
				RefreshState: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(mem, "value", "128MB"),
					resource.TestCheckResourceAttr(ro, "value", "on"),
					resource.TestCheckResourceAttr(timeout, "value", "1min")),
			},
			{ // changed behind Terraform's back: set back
				PreConfig:        alterDB("SET work_mem = '1MB'"),
				Config:           config("128MB", "1min", "work_mem"),
				ConfigPlanChecks: expectUpdate(mem),
				Check:            expectDatabaseSettings(t, db, "", `default_transaction_read_only=TRUE; search_path=app, "$user", public; work_mem=128MB`),
			},
			{ // reset behind Terraform's back: set again
				PreConfig: alterDB("RESET search_path"),
				Config:    config("128MB", "1min", "work_mem"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(path, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(mem, plancheck.ResourceActionNoop),
				}},
			},
			{Config: config("128MB", "1min", "work_mem"), ResourceName: mem, ImportState: true, ImportStateVerify: true,
				ImportStateId: fmt.Sprintf(`{"database":%q,"parameter":"work_mem"}`, db)},
			{Config: config("128MB", "1min", "work_mem"), ResourceName: timeout, ImportState: true, ImportStateVerify: true,
				// the server stores 60000, set out of band above
				ImportStateVerifyIgnore: []string{"value"}},
			// an import keeps PostgreSQL's spelling of the list
			{Config: config("128MB", "1min", "work_mem"), ResourceName: path, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"value"}},
			{ // another parameter is another setting: replaced, the old one reset
				Config:           config("256MB", "1min", "maintenance_work_mem"),
				ConfigPlanChecks: expectAction(mem, plancheck.ResourceActionReplace),
				Check:            expectDatabaseSettings(t, db, "", `default_transaction_read_only=TRUE; maintenance_work_mem=256MB; search_path=app, "$user", public`),
			},
			{ // the same parameter in another letter case: no replacement
				Config:           config("256MB", "1min", "Maintenance_Work_Mem"),
				ConfigPlanChecks: expectUpdate(mem),
			},
		},
	})
}

// TestAccDatabaseSetting_refusedAtPlan: an unknown parameter, one that needs
// a restart or a reload, one reserved to superusers (managed admin) and a
// value the parameter does not take are errors of the plan, on the attribute.
func TestAccDatabaseSetting_refusedAtPlan(t *testing.T) {
	db := acctest.RandName("dbsetp")
	config := func(param, value string) string {
		return acctest.Config(`
resource "postgresql_database_setting" "s" {
  database  = %q
  parameter = %q
  value     = %q
}`, db, param, value)
	}
	steps := []resource.TestStep{
		{Config: config("work_memory", "64MB"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Unknown configuration parameter.*with postgresql_database_setting.s.*parameter`)},
		{Config: config("shared_buffers", "1GB"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)cannot be set per role or database.*postmaster.*restart`)},
		{Config: config("log_checkpoints", "on"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)cannot be set per role or database.*sighup.*reload`)},
		{Config: config("default_transaction_read_only", "maybe"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid value for default_transaction_read_only.*is not a boolean`)},
		{Config: config("statement_timeout", "-5"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid value for statement_timeout.*out of range`)},
		{Config: config("IntervalStyle", "sideways"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid value for IntervalStyle.*is not one of`)},
	}
	if acctest.Managed() {
		steps = append(steps,
			resource.TestStep{Config: config("log_lock_waits", "on"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Parameter reserved to superusers.*log_lock_waits`)},
			// PostgreSQL lets only superusers set a parameter it does not know per database
			resource.TestStep{Config: config("app.tenant", "acme"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Parameter reserved to superusers.*app.tenant.*custom\s+variable`)})
	} else {
		// a custom variable is any qualified name
		steps = append(steps, resource.TestStep{Config: config("app.tenant", "acme"), Check: expectDatabaseSettings(t, db, "", "app.tenant=acme")})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// TestAccDatabaseSetting_borrowsOwner: a database owned by an application
// role: the managed admin borrows the owner's privileges for ALTER DATABASE.
func TestAccDatabaseSetting_borrowsOwner(t *testing.T) {
	base := acctest.RandName("dbsetb")
	db, owner := base+"_db", base+"_owner"
	addr := "postgresql_database_setting.s"
	config := func(v string) string {
		return acctest.Config(`
resource "postgresql_database_setting" "s" {
  database  = %q
  parameter = "idle_in_transaction_session_timeout"
  value     = %q
}`, db, v)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, owner)
			acctest.Database(t, db, owner)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectDatabaseSettings(t, db, "", ""),
		Steps: []resource.TestStep{
			{Config: config("10min"), Check: expectDatabaseSettings(t, db, "", "idle_in_transaction_session_timeout=10min")},
			{Config: config("600s"), ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("value"), knownvalue.StringExact("600s"))}},
		},
	})
}
