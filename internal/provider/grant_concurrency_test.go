package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccGrant_parallelNoConflicts is the regression test for cyrilgdn #178
// ("tuple concurrently updated"): 100 grants of one role on 100 tables, 50
// roles granted on one schema and 50 memberships in one group, applied and
// destroyed with -parallelism=50, twice. Not parallel: it sets TF_CLI_ARGS_*.
func TestAccGrant_parallelNoConflicts(t *testing.T) {
	const tables, roles = 100, 50
	base := acctest.RandName("par")
	owner, schema, grantee, group := base+"_own", base+"_s", base+"_g", base+"_grp"
	t.Setenv("TF_CLI_ARGS_apply", "-parallelism=50")
	t.Setenv("TF_CLI_ARGS_destroy", "-parallelism=50 -refresh=false")
	setup := func() {
		acctest.OwnerRole(t, owner, "postgres")
		stmts := []string{
			"CREATE SCHEMA " + acctest.QI(schema) + " AUTHORIZATION " + acctest.QI(owner),
			"SET ROLE " + acctest.QI(owner),
		}
		for i := 0; i < tables; i++ {
			stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (a int)", acctest.QQ(schema, fmt.Sprintf("t%d", i))))
		}
		stmts = append(stmts, "RESET ROLE")
		for i := 0; i < roles; i++ {
			stmts = append(stmts, "CREATE ROLE "+acctest.QI(fmt.Sprintf("%s_r%d", base, i)))
		}
		acctest.Exec(t, "", stmts...)
		// the group the members join is the admin's own (on PostgreSQL 16+ it
		// grants only roles it holds ADMIN OPTION on)
		acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(grantee), "CREATE ROLE "+acctest.QI(group))
		t.Cleanup(func() {
			drop := []string{"DROP SCHEMA IF EXISTS " + acctest.QI(schema) + " CASCADE", "DROP ROLE IF EXISTS " + acctest.QI(grantee), "DROP ROLE IF EXISTS " + acctest.QI(group)}
			for i := 0; i < roles; i++ {
				drop = append(drop, "DROP ROLE IF EXISTS "+acctest.QI(fmt.Sprintf("%s_r%d", base, i)))
			}
			acctest.Exec(t, "", drop...)
		})
	}
	all := acctest.Config(`
resource "postgresql_grant" "tables" {
  count       = %[1]d
  role        = %[3]q
  database    = "postgres"
  schema      = %[4]q
  object_type = "table"
  objects     = ["t${count.index}"]
  privileges  = ["SELECT", "INSERT"]
}
resource "postgresql_grant" "schema" {
  count       = %[2]d
  role        = "%[5]s_r${count.index}"
  database    = "postgres"
  schema      = %[4]q
  object_type = "schema"
  privileges  = ["USAGE"]
}
resource "postgresql_grant_role" "members" {
  count      = %[2]d
  role       = "%[5]s_r${count.index}"
  grant_role = %[6]q
}
`, tables, roles, grantee, schema, base, group)
	lasting := 0 // the admin's own membership in the owner, once it borrowed its privileges (pg.withRoles)
	if acctest.Managed() && acctest.ServerMajor(t) >= 16 {
		lasting = 1
	}
	count := func(want int) func(*terraform.State) error {
		return func(*terraform.State) error {
			got := acctest.QueryString(t, "", `SELECT (SELECT count(*) FROM pg_class c, aclexplode(c.relacl) a
  WHERE c.relnamespace = $1::regnamespace AND c.relacl IS NOT NULL AND a.grantee = $2::regrole)::text || '/' ||
 (SELECT count(*) FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.oid = $1::regnamespace AND a.grantee <> n.nspowner)::text || '/' ||
 (SELECT count(*) FROM pg_auth_members m WHERE m.roleid = $3::regrole AND m.member <> $5::regrole)::text || '/' ||
 (SELECT count(*) FROM pg_auth_members m WHERE m.roleid = $4::regrole AND m.grantor <> 10)::text`,
				acctest.QI(schema), acctest.QI(grantee), acctest.QI(group), acctest.QI(owner), acctest.QI(acctest.AdminUser()))
			// Memberships in the group other than the admin's, and memberships in the
			// owner the admin gave itself (on PostgreSQL 16+ CREATE ROLE records the
			// admin's ADMIN OPTION on the roles it creates as granted by the bootstrap
			// superuser, OID 10; borrowed memberships are granted by the admin: on 16+
			// the one lasting membership it keeps, on older servers none, since these
			// grants borrow inside their transactions).
			if exp := fmt.Sprintf("%d/%d/%d/%d", want*tables*2, want*roles, want*roles, lasting); got != exp {
				return fmt.Errorf("table privileges/schema grants/memberships/admin memberships in owner = %s, want %s", got, exp)
			}
			return nil
		}
	}
	// Round 1: apply, then destroy by removing everything from the configuration.
	// Round 2: apply, then destroy after objects and a grantee vanished, without
	// a refresh first (-refresh=false): succeeds.
	steps := []resource.TestStep{
		{Config: all, Check: count(1)},
		{Config: acctest.ProviderBlock, Check: count(0)},
		{Config: all, Check: count(1)},
		{
			PreConfig: acctest.ExecFunc(t, "", "DROP TABLE "+acctest.QQ(schema, "t0")+", "+acctest.QQ(schema, "t1"),
				"DROP OWNED BY "+acctest.QI(base+"_r0"), "DROP ROLE "+acctest.QI(base+"_r0")),
			Config:  all,
			Destroy: true,
		},
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); setup() },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, "", `SELECT count(*)::text FROM pg_class c, aclexplode(c.relacl) a WHERE c.relnamespace = $1::regnamespace AND c.relacl IS NOT NULL AND a.grantee = $2::regrole`,
				acctest.QI(schema), acctest.QI(grantee)); n != "0" {
				return fmt.Errorf("%s table privileges left", n)
			}
			return nil
		},
	})
}
