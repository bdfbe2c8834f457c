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

func roleExists(t *testing.T, name string) bool {
	return acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", name)
}

func checkRoleGone(t *testing.T, names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, n := range names {
			if roleExists(t, n) {
				return fmt.Errorf("role %q still exists", n)
			}
		}
		return nil
	}
}

func TestAccRole_basic(t *testing.T) {
	name := acctest.RandName("role")
	addr := "postgresql_role.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`resource "postgresql_role" "test" { name = %q }`, name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("login"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("inherit"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(-1)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("valid_until"), knownvalue.StringExact("infinity")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("password"), knownvalue.Null()),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{
				Config: acctest.Config(`
resource "postgresql_role" "group" { name = "%[1]s_grp" }
resource "postgresql_role" "test" {
  name                                = %[1]q
  login                               = true
  create_database                     = true
  create_role                         = true
  inherit                             = false
  connection_limit                    = 7
  password                            = "s3cret-'\"-pass"
  valid_until                         = "2099-12-31T23:59:59Z"
  roles                               = [postgresql_role.group.name]
  search_path                         = ["app", "$user", "Mixed Case"]
  statement_timeout                   = 30000
  idle_in_transaction_session_timeout = 60000
  assume_role                         = postgresql_role.group.name
}`, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("valid_until"), knownvalue.StringExact("2099-12-31T23:59:59Z")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("app"), knownvalue.StringExact("$user"), knownvalue.StringExact("Mixed Case")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(name + "_grp")})),
				},
				Check: func(*terraform.State) error {
					// the password works, and only its SCRAM verifier reached the server
					if got := acctest.QueryString(t, "", "SELECT coalesce(setconfig::text, '') FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname = $1", name); !strings.Contains(got, "statement_timeout=30000") {
						return fmt.Errorf("settings = %s", got)
					}
					return acctest.CheckLogin(t, name, "s3cret-'\"-pass")
				},
			},
			{ // empty plan after apply, from a fresh refresh
				Config:   acctest.Config(`resource "postgresql_role" "group" { name = "%[1]s_grp" }`+"\n"+`resource "postgresql_role" "test" { name = %[1]q }`, name),
				PlanOnly: false,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("statement_timeout"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("assume_role"), knownvalue.StringExact("")),
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password"},
			},
		},
	})
}

var _ = regexp.MustCompile
