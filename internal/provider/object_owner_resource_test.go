package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// ownedObject is one object of TestAccObjectOwner_lifecycle: its block's
// arguments, its import ID and the query of its owner's name.
type ownedObject struct {
	block, args, importID, ownerQuery string
	db                                string // where ownerQuery runs
}

func ownedObjects(db, db2 string) []ownedObject {
	rel := func(block, typ, name string) ownedObject {
		return ownedObject{block, fmt.Sprintf("object_type = %q\n  schema = \"app\"\n  object_name = %q", typ, name), db + "." + typ + ".app." + name,
			fmt.Sprintf("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'app.%s'::regclass", name), db}
	}
	return []ownedObject{
		rel("table", "table", "items"),
		rel("view", "view", "v"),
		rel("matview", "materialized view", "mv"),
		rel("sequence", "sequence", "seq"),
		{"function", "object_type = \"function\"\n  schema = \"app\"\n  object_name = \"add\"", db + ".function.app.add",
			"SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = 'app.add'::regproc", db},
		{"type", "object_type = \"type\"\n  schema = \"app\"\n  object_name = \"mood\"", db + ".type.app.mood",
			"SELECT pg_get_userbyid(typowner) FROM pg_type WHERE oid = 'app.mood'::regtype", db},
		{"domain", "object_type = \"DOMAIN\"\n  schema = \"app\"\n  object_name = \"posint\"", db + ".DOMAIN.app.posint",
			"SELECT pg_get_userbyid(typowner) FROM pg_type WHERE oid = 'app.posint'::regtype", db},
		{"schema", "object_type = \"schema\"\n  object_name = \"app\"", db + ".schema.app",
			"SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'app'", db},
		{"server", "object_type = \"server\"\n  object_name = \"srv\"", db + ".server.srv",
			"SELECT pg_get_userbyid(srvowner) FROM pg_foreign_server WHERE srvname = 'srv'", db},
		{"large_object", "object_type = \"large object\"\n  object_name = \"4242\"", db + ".large object.4242",
			"SELECT pg_get_userbyid(lomowner) FROM pg_largeobject_metadata WHERE oid = 4242", db},
		// a database is cluster-wide: named in the provider's database
		{"database", fmt.Sprintf("object_type = \"database\"\n  object_name = %q", db2), "database." + db2,
			fmt.Sprintf("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '%s'", db2), ""},
	}
}

func expectOwners(t *testing.T, objs []ownedObject, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, o := range objs {
			if got := acctest.QueryString(t, o.db, o.ownerQuery); got != want {
				return fmt.Errorf("%s is owned by %q, want %q", o.block, got, want)
			}
		}
		return nil
	}
}

// TestAccObjectOwner_lifecycle: the owners of objects of every kind made
// another role's, changed in place, set back after a change outside
// Terraform, imported; an object dropped outside Terraform is planned again;
// destroying leaves the owners as they are.
func TestAccObjectOwner_lifecycle(t *testing.T) {
	base := acctest.RandName("own")
	db, db2, a, b := base+"_db", base+"_db2", base+"_a", base+"_b"
	objs := ownedObjects(db, db2)
	config := func(owner string, skip ...string) string {
		var c strings.Builder
		for _, o := range objs {
			if slices.Contains(skip, o.block) {
				continue
			}
			where := ""
			if o.db != "" {
				where = fmt.Sprintf("  database = %q\n", db)
			}
			fmt.Fprintf(&c, "resource \"postgresql_object_owner\" %q {\n%s  %s\n  owner = %q\n}\n", o.block, where, o.args, owner)
		}
		return acctest.Config("%s", c.String())
	}
	table := "postgresql_object_owner.table"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	steps := []resource.TestStep{
		{
			Config:            config(a),
			Check:             expectOwners(t, objs, a),
			ConfigStateChecks: []statecheck.StateCheck{str(table, "id", "table.app.items"), sameID.AddStateValue(table, tfjsonpath.New("id"))},
		},
		{Config: config(a), PlanOnly: true},
		{ // in place
			Config:            config(b),
			ConfigPlanChecks:  expectUpdate(table, "postgresql_object_owner.database", "postgresql_object_owner.large_object"),
			Check:             expectOwners(t, objs, b),
			ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(table, tfjsonpath.New("id"))},
		},
		{ // changed outside Terraform: set back
			PreConfig:        acctest.ExecFunc(t, db, "ALTER TABLE app.items OWNER TO "+acctest.QI(a)),
			Config:           config(b),
			ConfigPlanChecks: expectUpdate(table),
			Check:            expectOwners(t, objs, b),
		},
	}
	for _, o := range objs {
		steps = append(steps, resource.TestStep{Config: config(b), ResourceName: "postgresql_object_owner." + o.block, ImportState: true,
			ImportStateId: o.importID, ImportStateVerify: true})
	}
	steps = append(steps,
		resource.TestStep{ // dropped outside Terraform: planned again
			PreConfig: acctest.ExecFunc(t, db, "DROP VIEW app.v"),
			Config:    config(b),
			PlanOnly:  true, ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("postgresql_object_owner.view", plancheck.ResourceActionCreate),
			}},
		},
		resource.TestStep{Config: config(b, "view"), Check: expectOwners(t, objs[:1], b)},
	)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, a)
			acctest.OwnerRole(t, b)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Database(t, db2, acctest.AdminUser())
			acctest.Exec(t, db, acctest.FDWSetup...)
			acctest.AdminExec(t, db, "CREATE SCHEMA app", "CREATE TABLE app.items (id int)", "CREATE VIEW app.v AS SELECT 1 AS one",
				"CREATE MATERIALIZED VIEW app.mv AS SELECT 1 AS one", "CREATE SEQUENCE app.seq",
				"CREATE FUNCTION app.add(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT a + b'",
				"CREATE TYPE app.mood AS ENUM ('ok', 'meh')", "CREATE DOMAIN app.posint AS int CHECK (VALUE > 0)",
				"CREATE SERVER srv FOREIGN DATA WRAPPER postgres_fdw", "SELECT lo_create(4242)",
				// an owner needs CREATE on the object's schema
				"GRANT CREATE ON SCHEMA app TO "+acctest.QI(a)+", "+acctest.QI(b))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// destroying leaves the owners as they are
		CheckDestroy: expectOwners(t, append([]ownedObject{objs[0]}, objs[2:]...), b),
		Steps:        steps,
	})
}

// TestAccObjectOwner_refused: a schema on a type of its own, a large object
// named by anything but its OID, and an object that does not exist.
func TestAccObjectOwner_refused(t *testing.T) {
	role := acctest.RandName("own_r")
	cfg := func(args string) string {
		return acctest.Config(`
resource "postgresql_object_owner" "x" {
  %s
  owner = %q
}`, args, role)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); acctest.OwnerRole(t, role) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("object_type = \"database\"\n  schema = \"public\"\n  object_name = \"postgres\""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Unexpected schema.*belongs to no schema`)},
			{Config: cfg("object_type = \"large object\"\n  object_name = \"lo1\""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`Invalid large object OID`)},
			{Config: cfg("object_type = \"index\"\n  object_name = \"i\""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)object_type.*value must be one of`)},
			{Config: cfg("object_type = \"table\"\n  schema = \"public\"\n  object_name = \"no_such_table\""),
				ExpectError: regexp.MustCompile(`(?s)Could not change the owner.*TABLE "public"."no_such_table" does not exist`)},
		},
	})
}

// TestAccObjectOwner_foreignOwner: an object whose owner is a role the
// managed admin cannot act as (a superuser's table): the error says which
// role's privileges it needs and how to fix it.
func TestAccObjectOwner_foreignOwner(t *testing.T) {
	if !acctest.Managed() {
		t.Skip("the superuser acts as any owner")
	}
	base := acctest.RandName("ownf")
	db, role := base+"_db", base+"_r"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, role)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Exec(t, db, "CREATE TABLE public.super_owned (id int)", "GRANT CREATE ON SCHEMA public TO "+acctest.QI(role))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.Config(`
resource "postgresql_object_owner" "x" {
  database    = %q
  object_type = "table"
  object_name = "super_owned"
  owner       = %q
}`, db, role),
			ExpectError: regexp.MustCompile(`(?s)needs the privileges of role\s+"?postgres"?`),
		}},
	})
}
