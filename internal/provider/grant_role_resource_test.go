package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

func TestAccGrantRole_basic(t *testing.T) {
	base := acctest.RandName("gro")
	member, group := base+" \"m", base+"_grp ü"
	// postgresql_role "member" does not set roles: memberships are left to
	// postgresql_grant_role, and neither resource ever shows a diff.
	config := func(admin bool, extra string) string {
		return acctest.Config(`
resource "postgresql_role" "member" { name = %[1]s }
resource "postgresql_role" "group" { name = %[2]s }
resource "postgresql_grant_role" "group" {
  role              = postgresql_role.member.name
  grant_role        = postgresql_role.group.name
  with_admin_option = %[3]t
}
resource "postgresql_grant_role" "builtin" {
  role       = postgresql_role.member.name
  grant_role = "pg_read_all_data"
%[4]s
}
`, acctest.QuoteHCL(member), acctest.QuoteHCL(group), admin, extra)
	}
	membership := func(want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			got := acctest.QueryString(t, "", `SELECT coalesce(string_agg(g.rolname || CASE WHEN m.admin_option THEN '*' ELSE '' END, ',' ORDER BY g.rolname), '')
FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = $1)`, member)
			if got != want {
				return fmt.Errorf("memberships %q, want %q", got, want)
			}
			return nil
		}
	}
	addr := "postgresql_grant_role.group"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, member, group),
		Steps: []resource.TestStep{
			{
				Config: config(false, ""),
				Check:  membership("pg_read_all_data," + group),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(fmt.Sprintf(`{"grant_role":%q,"role":%q}`, group, member))),
				},
			},
			{
				Config:           config(true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:            membership("pg_read_all_data," + group + "*"),
			},
			{ // admin option removed behind Terraform's back
				PreConfig:        acctest.ExecFunc(t, "", "REVOKE ADMIN OPTION FOR "+acctest.QI(group)+" FROM "+acctest.QI(member)),
				Config:           config(true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:            membership("pg_read_all_data," + group + "*"),
			},
			{ // membership revoked behind Terraform's back: granted again
				PreConfig:        acctest.ExecFunc(t, "", "REVOKE "+acctest.QI(group)+" FROM "+acctest.QI(member)),
				Config:           config(true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)}},
				Check:            membership("pg_read_all_data," + group + "*"),
			},
			{Config: config(true, ""), ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{Config: config(true, ""), ResourceName: "postgresql_grant_role.builtin", ImportState: true, ImportStateVerify: true},
			{
				Config:      config(true, "  inherit_option = false"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`inherit_option[\s\S]*PostgreSQL\s+16`),
				SkipFunc: func() (bool, error) {
					return acctest.QueryBool(t, "", "SELECT current_setting('server_version_num')::int >= 160000"), nil
				},
			},
			{ // removing one membership leaves the other alone
				Config: acctest.Config(`
resource "postgresql_role" "member" { name = %[1]s }
resource "postgresql_role" "group" { name = %[2]s }
resource "postgresql_grant_role" "builtin" {
  role       = postgresql_role.member.name
  grant_role = "pg_read_all_data"
}`, acctest.QuoteHCL(member), acctest.QuoteHCL(group)),
				Check: membership("pg_read_all_data"),
			},
		},
	})
}
