package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Issue 42, part 2, end to end: one apply removes two roles together with
// what refers to them, in every resource that revokes something from a role
// (a schema's policy blocks, grants, default privileges, memberships granted
// with postgresql_grant_role and with a role's roles, role and database
// settings, user mappings, comments and security labels on roles). Role a is
// named by reference, so Terraform destroys it before it updates what moves
// away from it (the stored dependency orders it); role b is named by its name
// only, so its destroy runs at the same time as the destroys and updates of
// what named it (Terraform's default parallelism, 10, runs them all at once).
// The apply must never fail, and leave nothing to do. The revokes that run
// after the role was dropped are covered deterministically, each, by
// TestAccRevoke_regressionGranteeDroppedMeanwhile (package pg) and
// TestAccSchema_regressionAddPolicyRoleDroppedSameApply.
func TestAccRevoke_regressionRolesDroppedSameApply(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("rvsame")
	db, owner := base+"_db", base+"_owner"
	a, b, c, d, m := base+"_a", base+"_b", base+"_c", base+"_d", base+"_m"
	acctest.OwnerRole(t, owner)
	acctest.Database(t, db, owner)
	o := acctest.QI(owner)
	acctest.Exec(t, db, append([]string{
		"CREATE SCHEMA s AUTHORIZATION " + o,
		"CREATE TABLE s.t (a int)",
		"ALTER TABLE s.t OWNER TO " + o,
	}, acctest.FDWSetup...)...)
	acctest.Exec(t, db, "CREATE SERVER srv FOREIGN DATA WRAPPER postgres_fdw", "ALTER SERVER srv OWNER TO "+o)
	labels := strings.Contains(acctest.QueryString(t, "", "SELECT current_setting('shared_preload_libraries')"), "dummy_seclabel")
	roles := func(dropped bool) string {
		out := fmt.Sprintf(`resource "postgresql_role" "c" { name = %q }
resource "postgresql_role" "d" { name = %q }
`, c, d)
		if !dropped {
			out += fmt.Sprintf(`resource "postgresql_role" "a" { name = %q }
resource "postgresql_role" "b" { name = %q }
`, a, b)
		}
		return out
	}
	// before: what refers to a (by reference) and b (by name)
	before := fmt.Sprintf(`
resource "postgresql_schema" "pol" {
  database = %[1]q
  name     = "pol"
  owner    = %[2]q
  policy {
    role  = postgresql_role.a.name
    usage = true
  }
  policy {
    role   = %[4]q
    usage  = true
    create = true
  }
  policy {
    role  = postgresql_role.c.name
    usage = true
  }
}
resource "postgresql_grant" "moved" {
  database    = %[1]q
  role        = postgresql_role.a.name
  schema      = "s"
  object_type = "table"
  objects     = ["t"]
  privileges  = ["SELECT"]
}
resource "postgresql_grant" "lit" {
  database    = %[1]q
  role        = %[4]q
  schema      = "s"
  object_type = "table"
  objects     = ["t"]
  privileges  = ["INSERT", "SELECT"]
}
resource "postgresql_default_privileges" "moved" {
  database    = %[1]q
  owner       = %[2]q
  role        = postgresql_role.a.name
  schema      = "s"
  object_type = "table"
  privileges  = ["SELECT"]
}
resource "postgresql_default_privileges" "lit" {
  database    = %[1]q
  owner       = %[2]q
  role        = %[4]q
  schema      = "s"
  object_type = "sequence"
  privileges  = ["USAGE"]
}
resource "postgresql_grant_role" "moved" {
  role       = postgresql_role.c.name
  grant_role = postgresql_role.a.name
}
resource "postgresql_grant_role" "lit" {
  role       = postgresql_role.d.name
  grant_role = %[4]q
}
resource "postgresql_role" "m" {
  name  = %[3]q
  roles = [postgresql_role.a.name, %[4]q]
}
resource "postgresql_role_setting" "lit" {
  role      = %[4]q
  parameter = "work_mem"
  value     = "8MB"
}
resource "postgresql_database_setting" "lit" {
  database  = %[1]q
  role      = %[4]q
  parameter = "statement_timeout"
  value     = "5s"
}
resource "postgresql_user_mapping" "moved" {
  database    = %[1]q
  server_name = "srv"
  user_name   = postgresql_role.a.name
}
resource "postgresql_user_mapping" "lit" {
  database    = %[1]q
  server_name = "srv"
  user_name   = %[4]q
}
resource "postgresql_comment" "lit" {
  object_type = "role"
  object_name = %[4]q
  comment     = "dropped with its role"
}
`, db, owner, m, b)
	// after: the roles gone, what named a moved to c or d, what named b gone
	after := fmt.Sprintf(`
resource "postgresql_schema" "pol" {
  database = %[1]q
  name     = "pol"
  owner    = %[2]q
  policy {
    role  = postgresql_role.c.name
    usage = true
  }
}
resource "postgresql_grant" "moved" {
  database    = %[1]q
  role        = postgresql_role.c.name
  schema      = "s"
  object_type = "table"
  objects     = ["t"]
  privileges  = ["SELECT"]
}
resource "postgresql_default_privileges" "moved" {
  database    = %[1]q
  owner       = %[2]q
  role        = postgresql_role.c.name
  schema      = "s"
  object_type = "table"
  privileges  = ["SELECT"]
}
resource "postgresql_grant_role" "moved" {
  role       = postgresql_role.c.name
  grant_role = postgresql_role.d.name
}
resource "postgresql_role" "m" {
  name  = %[3]q
  roles = []
}
resource "postgresql_user_mapping" "moved" {
  database    = %[1]q
  server_name = "srv"
  user_name   = postgresql_role.c.name
}
`, db, owner, m)
	label := fmt.Sprintf(`
resource "postgresql_security_label" "lit" {
  label_provider = "dummy"
  object_type    = "role"
  object_name    = %q
  label          = "classified"
}
`, b)
	cfg := func(body string, dropped bool) string {
		if labels && body != "" && !dropped {
			body += label
		}
		return acctest.Config("%s%s", roles(dropped), body)
	}
	step1, step2, step3 := cfg("", false), cfg(before, false), cfg(after, true)
	gone := checkRoleGone(t, a, b)
	role := func(name string) string { return "(SELECT oid FROM pg_roles WHERE rolname = " + sqlString(name) + ")" }
	held := func(*terraform.State) error {
		q := acctest.QI
		for _, check := range []struct{ what, query string }{
			{c + " holds SELECT on s.t", "SELECT has_table_privilege(" + sqlString(c) + ", 's.t', 'SELECT')"},
			{c + " is a member of " + d, "SELECT pg_has_role(" + sqlString(c) + ", " + sqlString(d) + ", 'MEMBER')"},
			{m + " is a member of no role", "SELECT NOT exists(SELECT 1 FROM pg_auth_members WHERE member = " + role(m) + ")"},
			{"c's default privileges on tables", "SELECT exists(SELECT 1 FROM pg_default_acl d, aclexplode(d.defaclacl) x WHERE x.grantee = " + role(c) + " AND d.defaclobjtype = 'r')"},
			{"the user mapping of " + c, "SELECT exists(SELECT 1 FROM pg_user_mappings WHERE usename = " + sqlString(c) + " AND srvname = 'srv')"},
			{"schema pol is used by " + c + " only", "SELECT has_schema_privilege(" + sqlString(c) + ", 'pol', 'USAGE') AND (SELECT count(*) FROM pg_namespace n, aclexplode(n.nspacl) x WHERE n.nspname = 'pol' AND x.grantee <> n.nspowner) = 1"},
		} {
			if !acctest.QueryBool(t, db, check.query) {
				return fmt.Errorf("after the apply that dropped %s and %s: not so: %s (%s)", q(a), q(b), check.what, check.query)
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, a, b, c, d, m),
		Steps: []resource.TestStep{
			{Config: step1},
			{Config: step2},
			{
				Config: step3,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_role.a", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction("postgresql_role.b", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction("postgresql_schema.pol", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_grant.moved", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_grant.lit", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction("postgresql_role.m", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(gone, held),
			},
			{Config: step3, PlanOnly: true},
		},
	})
}

// sqlString renders s as an SQL string literal, for queries written by tests.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
