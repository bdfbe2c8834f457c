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
)

func TestAccDatabase_lifecycle(t *testing.T) {
	name := acctest.RandName("db")
	renamed := name + ` "ü ß`
	owner := acctest.RandName("dbowner")
	addr := "postgresql_database.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	ownerHCL := `resource "postgresql_role" "owner" { name = "` + owner + `" }` + "\n"
	cfgRenamed := func(extra string) string {
		return acctest.Config(ownerHCL+`
resource "postgresql_database" "test" {
  name                   = %s
  owner                  = postgresql_role.owner.name
  encoding               = "utf8"
  connection_limit       = 5
  alter_object_ownership = true
  force_drop             = true
%s
}`, acctest.QuoteHCL(renamed), extra)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name, renamed) },
		Steps: []resource.TestStep{
			{ // too long a name is refused at plan time
				Config:      acctest.Config(`resource "postgresql_database" "test" { name = %q }`, strings.Repeat("d", 64)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Invalid PostgreSQL name`),
			},
			{
				Config: acctest.Config(ownerHCL+`resource "postgresql_database" "test" { name = %q }`, name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(acctest.AdminUser())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("template"), knownvalue.StringExact("template0")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_collate"), knownvalue.StringExact("C.UTF-8")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tablespace_name"), knownvalue.StringExact("pg_default")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(-1)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_connections"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_template"), knownvalue.Bool(false)),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{ // rename + owner + limit in place; "utf8" means UTF8: no replacement
				PreConfig: acctest.ExecFunc(t, name, `CREATE SCHEMA old_owner_s`, `CREATE TABLE old_owner_s.t (id int)`,
					`ALTER SCHEMA old_owner_s OWNER TO `+acctest.QI(acctest.AdminUser()),
					`ALTER TABLE old_owner_s.t OWNER TO `+acctest.QI(acctest.AdminUser())),
				Config: cfgRenamed(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(renamed)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
				},
				Check: func(*terraform.State) error { // alter_object_ownership gave the objects inside to the new owner
					got := acctest.QueryString(t, renamed, `SELECT pg_get_userbyid(n.nspowner) || ' ' || pg_get_userbyid(c.relowner)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'old_owner_s' AND c.relname = 't'`)
					if got != owner+" "+owner {
						return fmt.Errorf("owners of the schema and table inside: %q, want %q", got, owner)
					}
					return nil
				},
			},
			{
				Config:                  cfgRenamed(""),
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           renamed,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"template", "alter_object_ownership", "force_drop"},
			},
			{ // import block: the plan after import is empty
				Config: acctest.Config(ownerHCL+`resource "postgresql_database" "test" {
  name             = %s
  owner            = postgresql_role.owner.name
  encoding         = "utf8"
  connection_limit = 5
}`, acctest.QuoteHCL(renamed)),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateId:   renamed,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{ // drift made with SQL is repaired
				PreConfig: acctest.ExecFunc(t, "", `ALTER DATABASE `+acctest.QI(renamed)+` WITH CONNECTION LIMIT 1 ALLOW_CONNECTIONS false`),
				Config:    cfgRenamed(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_connections"), knownvalue.Bool(true)),
				},
			},
			{ // a different collation must replace; force_drop disconnects a session still connected
				PreConfig: acctest.HoldConnectionFunc(t, renamed),
				Config:    cfgRenamed(`  lc_collate = "C"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_collate"), knownvalue.StringExact("C")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_ctype"), knownvalue.StringExact("C.UTF-8")),
				},
			},
			{ // dropped out of band: planned for creation again
				PreConfig: acctest.DropDatabaseFunc(t, renamed),
				Config: cfgRenamed(`  lc_collate = "C"
  is_template = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_template"), knownvalue.Bool(true)),
				},
			},
			{ // the provider's own database cannot be dropped by a plan
				Config:             acctest.Config(`resource "postgresql_database" "own" { name = "postgres" }`),
				ResourceName:       "postgresql_database.own",
				ImportState:        true,
				ImportStateId:      "postgres",
				ImportStatePersist: true,
			},
			{
				Config:      acctest.Config("%s", ownerHCL),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Cannot drop the provider's own database`),
			},
			{ // gone already: forgetting it from the state is enough
				PreConfig: acctest.DropDatabaseFunc(t, renamed),
				Config: acctest.Config("%s", ownerHCL+`removed {
  from = postgresql_database.own
  lifecycle { destroy = false }
}`),
			},
		},
	})
}

// In managed mode the admin cannot make a superuser own a database: the error
// names the missing grant, and nothing is left behind.
func TestAccDatabase_managedOwnerNotGrantable(t *testing.T) {
	if !acctest.Managed() {
		t.Skip("only meaningful when the provider's role is not a superuser")
	}
	name := acctest.RandName("dbsu")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps: []resource.TestStep{{
			Config: acctest.Config(`resource "postgresql_database" "test" {
  name  = %q
  owner = "postgres"
}`, name),
			ExpectError: regexp.MustCompile(`(?s)could not grant itself.*membership in it`),
		}},
	})
}
