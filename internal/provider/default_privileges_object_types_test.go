package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccDefaultPrivileges_typesAndLargeObjects: default privileges on types
// and, from PostgreSQL 18, on large objects (ALTER DEFAULT PRIVILEGES ... ON
// LARGE OBJECTS): new objects of the owner get them, ALL plans no diff,
// changes in place, drift is repaired, import; before 18 a large-object entry
// is an error of the plan, on object_type.
func TestAccDefaultPrivileges_typesAndLargeObjects(t *testing.T) {
	base := acctest.RandName("dpo")
	db, owner, grantee := base+"_db", base+"_own", base+"_g"
	withLO := acctest.ServerMajor(t) >= 18
	config := func(loPrivs string, lo bool) string {
		c := acctest.Config(`
resource "postgresql_role" "g" { name = %[1]q }
resource "postgresql_default_privileges" "types" {
  role        = postgresql_role.g.name
  database    = %[2]q
  owner       = %[3]q
  object_type = "type"
  privileges  = ["ALL"]
}
`, grantee, db, owner)
		if lo {
			c += fmt.Sprintf(`
resource "postgresql_default_privileges" "large_objects" {
  role        = postgresql_role.g.name
  database    = %q
  owner       = %q
  object_type = "large_object"
  privileges  = %s
}
`, db, owner, loPrivs)
		}
		return c
	}
	// newObjects creates a type and a large object as the owner and reports
	// what the grantee gets on them
	n := 0
	newObjects := func(wantType, wantLO string) func(*terraform.State) error {
		return func(*terraform.State) error {
			n++
			typ, lo := fmt.Sprintf("probe_%d", n), fmt.Sprint(5000+n)
			acctest.Exec(t, db, "SET ROLE "+acctest.QI(owner), "CREATE TYPE "+typ+" AS ENUM ('a')", "SELECT lo_create("+lo+")", "RESET ROLE")
			// the grantee's privileges on them would keep its role from being dropped
			defer acctest.Exec(t, db, "DROP TYPE "+typ, "SELECT lo_unlink("+lo+")")
			got := func(q string, args ...any) string { return acctest.QueryString(t, db, q, args...) }
			gotType := got(`SELECT coalesce(string_agg(a.privilege_type, ',' ORDER BY 1), '') FROM pg_type t, aclexplode(t.typacl) a
WHERE t.oid = $1::regtype AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2)`, typ, grantee)
			gotLO := got(`SELECT coalesce(string_agg(a.privilege_type, ',' ORDER BY 1), '') FROM pg_largeobject_metadata l, aclexplode(l.lomacl) a
WHERE l.oid = $1::oid AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $2)`, lo, grantee)
			if gotType != wantType || gotLO != wantLO {
				return fmt.Errorf("a new type grants %q (want %q), a new large object %q (want %q)", gotType, wantType, gotLO, wantLO)
			}
			return nil
		}
	}
	var steps []resource.TestStep
	if withLO {
		steps = []resource.TestStep{
			{Config: config(`["SELECT"]`, true), Check: newObjects("USAGE", "SELECT")},
			{Config: config(`["SELECT"]`, true), PlanOnly: true},
			{Config: config(`["ALL"]`, true), ConfigPlanChecks: expectUpdate("postgresql_default_privileges.large_objects"), Check: newObjects("USAGE", "SELECT,UPDATE")},
			{Config: config(`["ALL"]`, true), PlanOnly: true}, // ALL is what the server has: no diff
			{ // drift: changed outside Terraform, set back
				PreConfig:        acctest.ExecFunc(t, db, "ALTER DEFAULT PRIVILEGES FOR ROLE "+acctest.QI(owner)+" REVOKE UPDATE ON LARGE OBJECTS FROM "+acctest.QI(grantee)),
				Config:           config(`["ALL"]`, true),
				ConfigPlanChecks: expectUpdate("postgresql_default_privileges.large_objects"),
				Check:            newObjects("USAGE", "SELECT,UPDATE"),
			},
			{Config: config(`["ALL"]`, true), ResourceName: "postgresql_default_privileges.large_objects", ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"privileges"}},
			{ // no IN SCHEMA for large objects
				Config: config(`["ALL"]`, true) + fmt.Sprintf(`
resource "postgresql_default_privileges" "bad" {
  role        = postgresql_role.g.name
  database    = %q
  owner       = %q
  schema      = "public"
  object_type = "large_object"
  privileges  = ["SELECT"]
}`, db, owner),
				PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Unexpected schema.*large objects cannot be limited to a schema`),
			},
			{Config: config(`["ALL"]`, true), PlanOnly: true},
		}
	} else {
		steps = []resource.TestStep{
			{Config: config(`["SELECT"]`, true), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Unsupported object type.*large objects need PostgreSQL 18 or later`)},
			{Config: config("", false), Check: newObjects("USAGE", "")},
			{Config: config("", false), PlanOnly: true},
		}
	}
	steps = append(steps, resource.TestStep{Config: config(`["ALL"]`, withLO), ResourceName: "postgresql_default_privileges.types", ImportState: true, ImportStateVerify: true,
		ImportStateVerifyIgnore: []string{"privileges"}})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, owner)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Exec(t, db, "GRANT CREATE ON SCHEMA public TO "+acctest.QI(owner)) // the probes of newObjects
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			// destroy restored the built-in defaults: no entry is left behind
			if got := acctest.QueryString(t, db, "SELECT count(*)::text FROM pg_default_acl WHERE defaclrole = (SELECT oid FROM pg_roles WHERE rolname = $1)", owner); got != "0" {
				return fmt.Errorf("%s default ACL entries of the owner left after destroy", got)
			}
			return nil
		},
		Steps: steps,
	})
}
