package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

func TestAccDefaultPrivileges_basic(t *testing.T) {
	base := acctest.RandName("dp")
	owner, schema, grantee := base+"_own", base+" Sch\"ü", base+" \"g"
	setup := func() {
		acctest.OwnerRole(t, owner, "postgres")
		acctest.Exec(t, "", "CREATE SCHEMA "+acctest.QI(schema)+" AUTHORIZATION "+acctest.QI(owner))
		t.Cleanup(func() { acctest.Exec(t, "", "DROP SCHEMA IF EXISTS "+acctest.QI(schema)+" CASCADE") })
	}
	config := func(tablePrivs string, tableWGO bool, fnPublic string) string {
		return acctest.Config(`
resource "postgresql_role" "g" { name = %[1]s }
resource "postgresql_default_privileges" "tables" {
  role              = postgresql_role.g.name
  database          = "postgres"
  owner             = %[2]s
  schema            = %[3]s
  object_type       = "table"
  privileges        = %[4]s
  with_grant_option = %[5]t
}
resource "postgresql_default_privileges" "sequences" {
  role        = postgresql_role.g.name
  database    = "postgres"
  owner       = %[2]s
  object_type = "sequence"
  privileges  = ["ALL"]
}
resource "postgresql_default_privileges" "schemas" {
  role        = postgresql_role.g.name
  database    = "postgres"
  owner       = %[2]s
  object_type = "schema"
  privileges  = ["usage", "CREATE"]
}
resource "postgresql_default_privileges" "public_functions" {
  role        = "public"
  database    = "postgres"
  owner       = %[2]s
  object_type = "function"
  privileges  = %[6]s
}
`, acctest.QuoteHCL(grantee), acctest.QuoteHCL(owner), acctest.QuoteHCL(schema), tablePrivs, tableWGO, fnPublic)
	}
	// defacl renders the owner's pg_default_acl entries: "<schema or *>/<type>:<acl>".
	defacl := func() string {
		return acctest.QueryString(t, "", `SELECT coalesce(string_agg(coalesce(n.nspname, '*') || '/' || d.defaclobjtype::text || ':' || d.defaclacl::text, ' ' ORDER BY 1), '')
FROM pg_default_acl d LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace WHERE d.defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1)`, owner)
	}
	newTablePrivs := func(want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			acctest.Exec(t, "", "SET ROLE "+acctest.QI(owner), "CREATE TABLE "+acctest.QQ(schema, "probe")+" (a int)", "RESET ROLE")
			defer acctest.Exec(t, "", "DROP TABLE "+acctest.QQ(schema, "probe"))
			got := acctest.QueryString(t, "", `SELECT coalesce(string_agg(a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END, ',' ORDER BY 1), '')
FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = $1::regclass AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2)`, acctest.QQ(schema, "probe"), grantee)
			if got != want {
				return fmt.Errorf("a new table grants %q, want %q (default ACLs: %s)", got, want, defacl())
			}
			return nil
		}
	}
	second := config(`["SELECT", "INSERT"]`, true, `[]`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); setup() },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			// destroy restored the built-in defaults: no entry is left behind
			if got := defacl(); got != "" {
				return fmt.Errorf("default ACL entries left: %s", got)
			}
			return checkRoleGone(t, grantee)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: config(`["select"]`, false, `["EXECUTE"]`),
				Check:  newTablePrivs("SELECT"),
			},
			{
				Config:      config(`["EXECUTE"]`, false, `[]`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`"EXECUTE"\s+is\s+not\s+a\s+privilege\s+of\s+object_type\s+"table"`),
			},
			{
				Config:           second,
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges.tables", "postgresql_default_privileges.public_functions"),
				Check: resource.ComposeAggregateTestCheckFunc(newTablePrivs("INSERT*,SELECT*"), func(*terraform.State) error {
					if !acctest.QueryBool(t, "", `SELECT exists(SELECT 1 FROM pg_default_acl d WHERE d.defaclrole = $1::regrole AND d.defaclnamespace = 0 AND d.defaclobjtype = 'f'
  AND NOT exists(SELECT 1 FROM aclexplode(d.defaclacl) a WHERE a.grantee = 0))`, acctest.QI(owner)) {
						return fmt.Errorf("PUBLIC still executes new functions: %s", defacl())
					}
					return nil
				}),
			},
			{
				PreConfig: acctest.ExecFunc(t, "",
					"ALTER DEFAULT PRIVILEGES FOR ROLE "+acctest.QI(owner)+" IN SCHEMA "+acctest.QI(schema)+" REVOKE INSERT ON TABLES FROM "+acctest.QI(grantee),
					"ALTER DEFAULT PRIVILEGES FOR ROLE "+acctest.QI(owner)+" GRANT EXECUTE ON FUNCTIONS TO PUBLIC",
					"ALTER DEFAULT PRIVILEGES FOR ROLE "+acctest.QI(owner)+" REVOKE USAGE ON SEQUENCES FROM "+acctest.QI(grantee),
				),
				Config:           second,
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges.tables", "postgresql_default_privileges.public_functions", "postgresql_default_privileges.sequences"),
				Check:            newTablePrivs("INSERT*,SELECT*"),
			},
			{Config: second, ResourceName: "postgresql_default_privileges.tables", ImportState: true, ImportStateVerify: true},
			{Config: second, ResourceName: "postgresql_default_privileges.schemas", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}},
			{Config: second, ResourceName: "postgresql_default_privileges.public_functions", ImportState: true, ImportStateVerify: true},
			{Config: second, ResourceName: "postgresql_default_privileges.sequences", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"privileges"}},
		},
	})
}
