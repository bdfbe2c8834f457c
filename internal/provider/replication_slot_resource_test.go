package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// skipUnlessReplication skips when the admin role cannot create replication
// slots: PostgreSQL requires superuser or the REPLICATION attribute, which a
// CREATEROLE admin cannot give itself.
func skipUnlessReplication(t *testing.T) {
	t.Helper()
	if !acctest.QueryBool(t, "", "SELECT rolsuper OR rolreplication FROM pg_roles WHERE rolname = $1", acctest.AdminUser()) {
		t.Skipf("needs superuser or REPLICATION: the admin role %q cannot create replication slots", acctest.AdminUser())
	}
}

func checkSlotsGone(t *testing.T, names ...string) func(*terraform.State) error {
	return acctest.CheckGone(t, "", "slot", "SELECT exists(SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)", names...)
}

func TestAccReplicationSlot_lifecycle(t *testing.T) {
	db := acctest.RandName("rs.db") // a dot: imported as `"<db>".<slot>`, and unquoted as before
	logical := strings.ReplaceAll(acctest.RandName("ls"), "-", "_")
	physical := strings.ReplaceAll(acctest.RandName("ps"), "-", "_")
	cfg := func(plugin, phys string) string {
		return acctest.Config(`
resource "postgresql_replication_slot" "test" {
  name     = %q
  database = %q
  plugin   = %q
}
resource "postgresql_replication_slot" "default_db" {
  name   = "%[1]s_d"
  plugin = "test_decoding"
}
resource "postgresql_physical_replication_slot" "test" {
  name = %[4]q
}`, logical, db, plugin, phys)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			skipUnlessReplication(t)
			acctest.Database(t, db, acctest.AdminUser())
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkSlotsGone(t, logical, logical+"_d", physical, physical+"_2"),
		Steps: []resource.TestStep{
			{
				Config:      acctest.Config(`resource "postgresql_physical_replication_slot" "bad" { name = %q }`, strings.Repeat("s", 64)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`at\s+most\s+63\s+bytes`),
			},
			{
				Config: cfg("pgoutput", physical),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("postgresql_replication_slot.test", tfjsonpath.New("id"), knownvalue.StringExact(db+"."+logical)),
					statecheck.ExpectKnownValue("postgresql_replication_slot.default_db", tfjsonpath.New("database"), knownvalue.StringExact("postgres")),
					statecheck.ExpectKnownValue("postgresql_physical_replication_slot.test", tfjsonpath.New("id"), knownvalue.StringExact(physical)),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, "", "SELECT database || '/' || plugin FROM pg_replication_slots WHERE slot_name = $1", logical); got != db+"/pgoutput" {
						return fmt.Errorf("slot is %s", got)
					}
					return nil
				},
			},
			{ // plugin and physical name change: replace
				Config: cfg("test_decoding", physical+"_2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("postgresql_replication_slot.test", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction("postgresql_physical_replication_slot.test", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction("postgresql_replication_slot.default_db", plancheck.ResourceActionNoop),
					},
				},
			},
			{ResourceName: "postgresql_replication_slot.test", ImportState: true, ImportStateId: db + "." + logical, ImportStateVerify: true},
			{ResourceName: "postgresql_replication_slot.test", ImportState: true, ImportStateId: `"` + db + `".` + logical, ImportStateVerify: true},
			{ResourceName: "postgresql_replication_slot.default_db", ImportState: true, ImportStateId: "postgres." + logical + "_d", ImportStateVerify: true},
			{ResourceName: "postgresql_physical_replication_slot.test", ImportState: true, ImportStateId: physical + "_2", ImportStateVerify: true},
			{ // drift: the slot was recreated with another plugin → replace
				PreConfig: acctest.ExecFunc(t, db,
					fmt.Sprintf("SELECT pg_drop_replication_slot('%s')", logical),
					fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s', 'pgoutput')", logical)),
				Config:           cfg("test_decoding", physical+"_2"),
				ConfigPlanChecks: expectAction("postgresql_replication_slot.test", plancheck.ResourceActionDestroyBeforeCreate),
			},
			{ // dropped out of band: recreated
				PreConfig: acctest.ExecFunc(t, "",
					fmt.Sprintf("SELECT pg_drop_replication_slot('%s')", logical),
					fmt.Sprintf("SELECT pg_drop_replication_slot('%s_2')", physical)),
				Config: cfg("test_decoding", physical+"_2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("postgresql_replication_slot.test", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("postgresql_physical_replication_slot.test", plancheck.ResourceActionCreate),
					},
				},
			},
		},
	})
}
