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
	builtin := "pg_read_all_data" // a predefined role (PostgreSQL 14+; one of 10+ before)
	if acctest.ServerMajor(t) < 14 {
		builtin = "pg_read_all_stats"
	}
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
  grant_role = "`+builtin+`"
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
	// On PostgreSQL 16+ a membership is one row per grantor: drift made as the
	// superuser names the provider's role as the grantor of what it revokes.
	grantedBy := " GRANTED BY " + acctest.QI(acctest.AdminUser())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, member, group),
		Steps: []resource.TestStep{
			{
				Config: config(false, ""),
				Check:  membership(builtin + "," + group),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(member+"_"+group+"_false")), // cyrilgdn's id
				},
			},
			{
				Config:           config(true, ""),
				ConfigPlanChecks: expectUpdate(addr),
				Check:            membership(builtin + "," + group + "*"),
			},
			{ // admin option removed behind Terraform's back
				PreConfig:        acctest.ExecFunc(t, "", "REVOKE ADMIN OPTION FOR "+acctest.QI(group)+" FROM "+acctest.QI(member)+grantedBy),
				Config:           config(true, ""),
				ConfigPlanChecks: expectUpdate(addr),
				Check:            membership(builtin + "," + group + "*"),
			},
			{ // membership revoked behind Terraform's back: granted again
				PreConfig:        acctest.ExecFunc(t, "", "REVOKE "+acctest.QI(group)+" FROM "+acctest.QI(member)+grantedBy),
				Config:           config(true, ""),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
				Check:            membership(builtin + "," + group + "*"),
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
  grant_role = "`+builtin+`"
}`, acctest.QuoteHCL(member), acctest.QuoteHCL(group)),
				Check: membership(builtin),
			},
		},
	})
}

// PostgreSQL 16+: a membership is one row per grantor, with INHERIT and SET
// options. postgresql_grant_role manages the options of the provider's row,
// puts back options changed behind its back, adopts a membership another role
// granted with the wanted options (no second row), and explains the error
// PostgreSQL gives for granting ADMIN OPTION back to one's own grantor.
func TestAccGrantRole_options16(t *testing.T) {
	acctest.PreCheck(t)
	acctest.SkipBelow(t, 16, "per-membership INHERIT and SET options and per-grantor rows")
	base := acctest.RandName("gro16")
	member, group, adopted := base+"_m", base+"_g", base+"_adopted"
	admin := acctest.AdminUser()
	acctest.OwnerRole(t, adopted)
	// granted by the superuser before Terraform knows of it
	acctest.Exec(t, "", "CREATE ROLE "+acctest.QI(member), "GRANT "+acctest.QI(adopted)+" TO "+acctest.QI(member))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(member)) })
	rows := func(grp string) string {
		return acctest.QueryString(t, "", `SELECT coalesce(string_agg(format('%s:admin=%s,inherit=%s,set=%s', gr.rolname, m.admin_option, m.inherit_option, m.set_option), ';' ORDER BY gr.rolname), '')
FROM pg_auth_members m JOIN pg_roles gr ON gr.oid = m.grantor
WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = $1) AND m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $2)`, member, grp)
	}
	expectRows := func(grp, want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := rows(grp); got != want {
				return fmt.Errorf("memberships of %s in %s: %q, want %q", member, grp, got, want)
			}
			return nil
		}
	}
	config := func(inherit, set bool) string {
		return acctest.Config(`
resource "postgresql_role" "group" { name = %[2]s }
resource "postgresql_grant_role" "group" {
  role           = %[1]s
  grant_role     = postgresql_role.group.name
  inherit_option = %[4]t
  set_option     = %[5]t
}
resource "postgresql_grant_role" "adopted" {
  role       = %[1]s
  grant_role = %[3]s
}
`, acctest.QuoteHCL(member), acctest.QuoteHCL(group), acctest.QuoteHCL(adopted), inherit, set)
	}
	addr := "postgresql_grant_role.group"
	steps := []resource.TestStep{
		{
			Config: config(false, false),
			Check: resource.ComposeAggregateTestCheckFunc(
				expectRows(group, admin+":admin=f,inherit=f,set=f"),
				expectRows(adopted, "postgres:admin=f,inherit=t,set=t"),
			),
		},
		{
			Config:           config(true, false),
			ConfigPlanChecks: expectUpdate(addr),
			Check:            expectRows(group, admin+":admin=f,inherit=t,set=f"),
		},
		{ // options changed behind Terraform's back, on the provider's row
			PreConfig:        acctest.ExecFunc(t, "", "GRANT "+acctest.QI(group)+" TO "+acctest.QI(member)+" WITH INHERIT FALSE, SET TRUE GRANTED BY "+acctest.QI(admin)),
			Config:           config(true, false),
			ConfigPlanChecks: expectUpdate(addr),
			Check:            expectRows(group, admin+":admin=f,inherit=t,set=f"),
		},
		{Config: config(true, false), ResourceName: addr, ImportState: true, ImportStateVerify: true},
		{ // removing the adopted membership revokes the superuser's grant too
			Config: acctest.Config(`
resource "postgresql_role" "group" { name = %[2]s }
resource "postgresql_grant_role" "group" {
  role           = %[1]s
  grant_role     = postgresql_role.group.name
  inherit_option = true
  set_option     = false
}
`, acctest.QuoteHCL(member), acctest.QuoteHCL(group)),
			Check: expectRows(adopted, ""),
			SkipFunc: func() (bool, error) {
				return acctest.Managed(), nil // a managed admin cannot revoke a grant the superuser made
			},
		},
	}
	if acctest.Managed() {
		// The superuser gives the member ADMIN OPTION on a role and has it
		// grant that to the provider's role: the member is then the grantor of
		// the admin's ADMIN OPTION, which the admin cannot grant back to it.
		grantor := base + "_grantor"
		steps = append(steps, resource.TestStep{
			PreConfig: acctest.ExecFunc(t, "",
				"CREATE ROLE "+acctest.QI(grantor),
				"GRANT "+acctest.QI(grantor)+" TO "+acctest.QI(member)+" WITH ADMIN OPTION, INHERIT TRUE",
				"SET ROLE "+acctest.QI(member),
				"GRANT "+acctest.QI(grantor)+" TO "+acctest.QI(admin)+" WITH ADMIN OPTION, INHERIT FALSE, SET FALSE",
				"RESET ROLE"),
			Config: config(true, false) + fmt.Sprintf(`
resource "postgresql_grant_role" "back" {
  role              = %[1]s
  grant_role        = %[2]s
  with_admin_option = true
  inherit_option    = false
}
`, acctest.QuoteHCL(member), acctest.QuoteHCL(grantor)),
			ExpectError: regexp.MustCompile(`(?s)does\s+not\s+let\s+a\s+role\s+grant\s+ADMIN\s+OPTION\s+back\s+to\s+its\s+own\s+grantor`),
		})
		t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(grantor)) })
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// A membership whose member was renamed outside Terraform, then given to
// another role in the configuration: the update follows the old member by
// its OID (recorded at the last read) and moves the membership from the
// role under its new name. Looked up by the old name, which no role has any
// more, the renamed role kept the membership beside the new member's.
func TestAccGrantRole_regressionMemberRenamedOutsideThenChanged(t *testing.T) {
	base := acctest.RandName("gro_ren")
	old, renamed, next, group := base+"_old", base+"_renamed", base+"_next", base+"_grp"
	// made by the provider's role: a managed admin manages them (ADMIN OPTION on 16+)
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(old), "CREATE ROLE "+acctest.QI(next), "CREATE ROLE "+acctest.QI(group))
	t.Cleanup(func() {
		for _, r := range []string{old, renamed, next, group} {
			acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(r))
		}
	})
	config := func(member string) string {
		return acctest.Config(`
resource "postgresql_grant_role" "m" {
  role       = %[1]s
  grant_role = %[2]s
}`, acctest.QuoteHCL(member), acctest.QuoteHCL(group))
	}
	members := func(want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			got := acctest.QueryString(t, "", `SELECT coalesce(string_agg(r.rolname, ',' ORDER BY r.rolname), '')
FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
WHERE m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $1) AND r.rolname <> $2`, group, acctest.AdminUser()) // the admin that made it (16+)
			if got != want {
				return fmt.Errorf("members of %q: %q, want %q", group, got, want)
			}
			return nil
		}
	}
	addr := "postgresql_grant_role.m"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(old), Check: members(old)},
			{
				PreConfig:        acctest.ExecFunc(t, "", "ALTER ROLE "+acctest.QI(old)+" RENAME TO "+acctest.QI(renamed)),
				Config:           config(next),
				ConfigPlanChecks: expectUpdate(addr),
				Check:            members(next),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact(next)),
				},
			},
			{Config: config(next), ResourceName: addr, ImportState: true, ImportStateVerify: true},
		},
	})
}
