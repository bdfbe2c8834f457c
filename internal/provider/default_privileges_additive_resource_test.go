package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Two additive default privileges of one role in one entry (SELECT in one,
// INSERT and UPDATE in the other) apply and plan empty, and a new table of the
// owner grants all three; a privilege revoked from the entry by hand is
// planned again on its resource only; an update that removes a privilege
// revokes only it; an import takes the privileges it names; destroying either
// leaves the other's privileges, and destroying both removes the entry.
func TestAccDefaultPrivilegesAdditive_compose(t *testing.T) {
	f := newAdditiveFixture()
	block := func(name, privs string, extra ...string) string {
		return acctest.Resource("postgresql_default_privileges_additive", name, append([]string{"role", "postgresql_role.g.name", "database", "local.db",
			"owner", acctest.QuoteHCL(f.owner), "schema", "local.schema", "object_type", `"table"`, "privileges", privs}, extra...)...)
	}
	read, write := block("read", `["SELECT"]`), block("write", `["INSERT", "update"]`)
	both := f.prefix() + read + write
	// entry is the grantee's part of the owner's entry for tables in the schema
	entry := func() string {
		return acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END, ',' ORDER BY 1), '')
FROM pg_default_acl d, aclexplode(d.defaclacl) a
WHERE d.defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1) AND d.defaclnamespace = $2::regnamespace AND d.defaclobjtype = 'r'
  AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $3)`, f.owner, acctest.QI(f.schema), f.grantee)
	}
	expectEntry := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := sortedList(entry()); got != want {
				return fmt.Errorf("default privileges %q, want %q", got, want)
			}
			return nil
		}
	}
	newTable := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			acctest.Exec(t, f.db, "SET ROLE "+acctest.QI(f.owner), "CREATE TABLE "+acctest.QQ(f.schema, "probe")+" (a int)", "RESET ROLE")
			defer acctest.Exec(t, f.db, "DROP TABLE "+acctest.QQ(f.schema, "probe"))
			if got := sortedList(f.relACL(t, "probe")); got != want {
				return fmt.Errorf("a new table grants %q, want %q", got, want)
			}
			return nil
		}
	}
	revokeSelect := acctest.ExecFunc(t, f.db, "ALTER DEFAULT PRIVILEGES FOR ROLE "+acctest.QI(f.owner)+" IN SCHEMA "+acctest.QI(f.schema)+
		" REVOKE SELECT ON TABLES FROM "+acctest.QI(f.grantee))
	// the privileges spelt as the configuration spells them, so that the imported state is the same
	importID := canonicalID(map[string]any{"role": f.grantee, "database": f.db, "owner": f.owner, "schema": f.schema, "object_type": "table",
		"privileges": []string{"INSERT", "update"}})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: both,
				Check:  resource.ComposeAggregateTestCheckFunc(expectEntry("INSERT,SELECT,UPDATE"), newTable("INSERT,SELECT,UPDATE")),
			},
			{Config: both, PlanOnly: true},
			{ // import by the JSON id: the privileges it names
				Config: both, ResourceName: "postgresql_default_privileges_additive.write",
				ImportState: true, ImportStateId: importID, ImportStateVerify: true,
			},
			{ // drift of one resource's privilege: planned again there only
				PreConfig: revokeSelect,
				Config:    both,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_default_privileges_additive.read", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_default_privileges_additive.write", plancheck.ResourceActionNoop),
				}},
				Check: expectEntry("INSERT,SELECT,UPDATE"),
			},
			{ // a privilege removed: only it is revoked
				Config:           f.prefix() + read + block("write", `["UPDATE"]`),
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges_additive.write"),
				Check:            expectEntry("SELECT,UPDATE"),
			},
			{ // with grant option, then without: only the grant option goes
				Config:           f.prefix() + read + block("write", `["UPDATE"]`, "with_grant_option", "true"),
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges_additive.write"),
				Check:            expectEntry("SELECT,UPDATE*"),
			},
			{
				Config:           f.prefix() + read + block("write", `["UPDATE"]`),
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges_additive.write"),
				Check:            expectEntry("SELECT,UPDATE"),
			},
			{ // destroying one leaves the other's privileges
				Config: f.prefix() + read,
				Check:  resource.ComposeAggregateTestCheckFunc(expectEntry("SELECT"), newTable("SELECT")),
			},
			{ // and destroying the last one removes what it gave (the entry goes with it)
				Config: f.roleConfig(),
				Check: func(*terraform.State) error {
					if n := acctest.QueryString(t, f.db, `SELECT count(*)::text FROM pg_default_acl WHERE defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1)`, f.owner); n != "0" {
						return fmt.Errorf("%s entries of the owner left (%s)", n, entry())
					}
					return nil
				},
			},
		},
	})
}

// Default privileges moved to another grantee while the old grantee is
// renamed outside Terraform: the move took the old grantee's name, which no
// longer existed, for a rename to the new grantee and left the entry with
// the renamed role (the long walk, seed 25007 step 17 as the managed admin on
// PostgreSQL 15). The old grantee is now followed by the OID recorded at the
// last read, as grants follow theirs. Both forms of the resource.
func TestAccDefaultPrivilegesAdditive_regressionMovedFromRenamedGrantee(t *testing.T) {
	testDefaultPrivilegesMovedFromRenamedGrantee(t, "postgresql_default_privileges_additive")
}

// The same for postgresql_default_privileges.
func TestAccDefaultPrivileges_regressionMovedFromRenamedGrantee(t *testing.T) {
	testDefaultPrivilegesMovedFromRenamedGrantee(t, "postgresql_default_privileges")
}

func testDefaultPrivilegesMovedFromRenamedGrantee(t *testing.T, typ string) {
	base := acctest.RandName("dpren")
	owner, a, b := base+"_owner", base+"_a", base+"_b"
	db := acctest.DefaultDatabase()
	config := func(grantee string) string {
		return fmt.Sprintf(`
resource %q "d" {
  database    = %q
  owner       = %q
  role        = %q
  object_type = "type"
  privileges  = ["USAGE"]
}
`, typ, db, owner, grantee)
	}
	// entry is what role holds in owner's default privileges for types
	entry := func(role string) string {
		return acctest.QueryString(t, db, `SELECT coalesce(string_agg(a.privilege_type, ',' ORDER BY 1), '')
FROM pg_default_acl d, aclexplode(d.defaclacl) a
WHERE d.defaclrole = $1::regrole AND d.defaclnamespace = 0 AND d.defaclobjtype = 'T' AND a.grantee = $2::regrole`, acctest.QI(owner), acctest.QI(role))
	}
	expect := func(role, want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := entry(role); got != want {
				return fmt.Errorf("%s holds %q in the default privileges, want %q", role, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(owner), "CREATE ROLE "+acctest.QI(a), "CREATE ROLE "+acctest.QI(b))
			t.Cleanup(func() {
				for _, r := range []string{owner, a, a + "-moved", b} {
					if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", r) {
						acctest.Exec(t, db, "DROP OWNED BY "+acctest.QI(r)+" CASCADE", "DROP ROLE "+acctest.QI(r))
					}
				}
			})
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(a), Check: expect(a, "USAGE")},
			{
				PreConfig: acctest.ExecFunc(t, "", "ALTER ROLE "+acctest.QI(a)+" RENAME TO "+acctest.QI(a+"-moved")),
				Config:    config(b),
				Check:     resource.ComposeTestCheckFunc(expect(a+"-moved", ""), expect(b, "USAGE")),
			},
		},
	})
}
