package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Refresh reads roles, databases and schemas from catalog snapshots once a
// command has read a few of a kind (pg/snapshot.go). A change made with SQL
// is seen by the next command whenever it is made: right after an apply, and
// between a refresh and an apply. Enough objects of each kind are planned for
// the snapshots to serve most of the reads.
func TestAccSnapshot_driftIsAlwaysSeen(t *testing.T) {
	base := acctest.RandName("snap")
	db := base + "_db"
	addrRole := func(i int) string { return fmt.Sprintf("postgresql_role.r[%d]", i) }
	addrSchema := func(i int) string { return fmt.Sprintf("postgresql_schema.s[%d]", i) }
	addrGrant := func(i int) string { return fmt.Sprintf("postgresql_grant.usage[%d]", i) }
	addrSelect := func(i int) string { return fmt.Sprintf("postgresql_grant.select[%d]", i) }
	// USAGE on each schema, and SELECT on all its tables, to the next role
	grants := ""
	for _, g := range [][3]string{{"usage", "schema", "USAGE"}, {"select", "table", "SELECT"}} {
		grants += fmt.Sprintf(`
resource "postgresql_grant" %q {
  count       = 3
  database    = postgresql_database.db.name
  role        = postgresql_role.r[(count.index + 1) %% 3].name
  schema      = postgresql_schema.s[count.index].name
  object_type = %q
  objects     = []
  privileges  = [%q]
}
`, g[0], g[1], g[2])
	}
	cfg := acctest.Config(`
resource "postgresql_database" "db" {
  name = %[2]q
}

resource "postgresql_role" "r" {
  count            = 3
  name             = format("%[1]s_r%%d", count.index)
  connection_limit = 1
}

resource "postgresql_schema" "s" {
  count    = 3
  name     = format("s%%d", count.index)
  database = postgresql_database.db.name
  owner    = postgresql_role.r[count.index].name
}

%[3]s`, base, db, grants)
	role := func(i int) string { return acctest.QI(fmt.Sprintf("%s_r%d", base, i)) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{ // right after an apply: a role, a schema owner and grants changed with SQL
				PreConfig: func() {
					acctest.Exec(t, "", "ALTER ROLE "+role(2)+" CONNECTION LIMIT 5")
					acctest.Exec(t, db, "ALTER SCHEMA s1 OWNER TO "+role(0), "REVOKE USAGE ON SCHEMA s2 FROM "+role(0),
						"CREATE TABLE s0.t (a int)", "ALTER TABLE s0.t OWNER TO "+role(0)) // without the SELECT granted on all tables of s0
				},
				Config:           cfg,
				ConfigPlanChecks: expectUpdate(addrRole(2), addrSchema(1), addrGrant(2), addrSelect(0)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addrRole(2), tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(addrSchema(1), tfjsonpath.New("owner"), knownvalue.StringExact(base+"_r1")),
				},
			},
			{RefreshState: true},
			{ // between a refresh and the next plan and apply
				PreConfig: func() {
					acctest.Exec(t, "", "ALTER ROLE "+role(1)+" CONNECTION LIMIT 7")
					acctest.Exec(t, db, "REVOKE USAGE ON SCHEMA s1 FROM "+role(2), "REVOKE SELECT ON s0.t FROM "+role(1))
				},
				Config:           cfg,
				ConfigPlanChecks: expectUpdate(addrRole(1), addrGrant(1), addrSelect(0)),
			},
			{ // dropped with SQL: planned to be created again
				PreConfig: func() {
					acctest.Exec(t, db, "DROP SCHEMA s0 CASCADE")
				},
				Config:           cfg,
				ConfigPlanChecks: expectAction(addrSchema(0), plancheck.ResourceActionCreate),
			},
		},
	})
}
