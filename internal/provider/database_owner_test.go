package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Issue 42, part 1: on PostgreSQL 15+ the schema public of every new database
// belongs to pg_database_owner, whose only member in a database is the
// database's owner. The managed admin acts on it by borrowing the privileges
// of the database's owner, as on any object of a role it manages.

// The issue's configuration: a grant on public, in a database the managed
// admin created for a role it created. Before the fix it failed on 15+ with
// "the provider's role needs the privileges of role "pg_database_owner" ...
// cannot take them itself" and a hint (GRANT "pg_database_owner" TO ...) that
// PostgreSQL refuses.
//
// Before PostgreSQL 15 the new database's public is a copy of its template's:
// postgresql_database's default template, template0, has a public owned by
// the bootstrap superuser (on a managed service, the service's), which the
// admin cannot act for: the grant fails, saying so and what works instead; the
// same configuration with template = "template1" applies, since in the managed
// profile (Cloud SQL's) template1's public belongs to the admin's group.
func TestAccGrant_regressionPublicOwnedByPgDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("dbo")
	owner, ro, db := base+"_owner", base+"_ro", base+"_app"
	config := func(template string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" { name = %q }
resource "postgresql_role" "ro"    { name = %q }
resource "postgresql_database" "db" {
  name  = %q
  owner = postgresql_role.owner.name%s
}
resource "postgresql_grant" "usage" {
  database    = postgresql_database.db.name
  role        = postgresql_role.ro.name
  schema      = "public"
  object_type = "schema"
  privileges  = ["USAGE"]
}
`, owner, ro, db, template)
	}
	usage := func() string {
		return acctest.QueryString(t, db, `SELECT coalesce(string_agg(a.privilege_type, ',' ORDER BY 1), '')
FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.nspname = 'public' AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`, ro)
	}
	issue := config("")
	var steps []resource.TestStep
	if acctest.Managed() && acctest.ServerMajor(t) < 15 {
		steps = append(steps, resource.TestStep{
			Config: issue,
			ExpectError: regexp.MustCompile(`(?s)needs\s+the\s+privileges\s+of\s+role\s+"[^"]+",\s+which\s+owns\s+"public".*superuser.*` +
				`template0.*template\s+=\s+"template1"`),
		})
		issue = config("\n  template = \"template1\"")
	}
	steps = append(steps,
		resource.TestStep{
			Config: issue,
			Check: func(*terraform.State) error {
				if got := usage(); got != "USAGE" {
					return fmt.Errorf("%s holds %q on schema public, want USAGE", ro, got)
				}
				return adminHoldsNoBorrowedMembership(t, owner)
			},
		},
		resource.TestStep{Config: issue, PlanOnly: true},
		resource.TestStep{ResourceName: "postgresql_grant.usage", ImportState: true, ImportStateVerify: true},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := acctest.CheckDatabasesGone(t, db); err != nil {
				return err
			}
			return checkRoleGone(t, owner, ro)(nil)
		},
		Steps: steps,
	})
}

// adminHoldsNoBorrowedMembership fails when the provider's role is left
// holding a membership in role that it granted itself (a borrowing not given
// back).
func adminHoldsNoBorrowedMembership(t *testing.T, role string) error {
	if !acctest.Managed() {
		return nil
	}
	if acctest.QueryBool(t, "", `SELECT exists(SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.oid = m.member
WHERE m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $1) AND me.rolname = $2 AND m.grantor = me.oid)`, role, acctest.AdminUser()) {
		return fmt.Errorf("the provider's role still holds the membership in %q it granted itself", role)
	}
	return nil
}
