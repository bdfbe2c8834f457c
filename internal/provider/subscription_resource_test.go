package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// subscriptionTestNames are the random names of a subscription test: the
// publisher's and the subscriber's database, the subscription and its slot.
func subscriptionTestNames() (pubDB, subDB, name, slot string) {
	name = strings.ReplaceAll(acctest.RandName("sub"), "-", "_")
	return acctest.RandName("subpub"), acctest.RandName("subsub"), name, name + "_slot"
}

func TestAccSubscription_lifecycle(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	skipSubscriptionIfManagedBefore16(t)
	pubDB, subDB, name, slot := subscriptionTestNames()
	addr := "postgresql_subscription.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfgSlot := func(slotName, subName, conninfo, pubs string) string {
		return acctest.Config(`
resource "postgresql_subscription" "test" {
  name         = %q
  database     = %q
  conninfo     = %q
  publications = [%s]
  create_slot  = false
  slot_name    = %q
}`, subName, subDB, conninfo, pubs, slotName)
	}
	cfg := func(subName, conninfo, pubs string) string { return cfgSlot(slot, subName, conninfo, pubs) }
	cfg2 := func(subName, conninfo, pubs string) string { return cfgSlot(slot+"_2", subName, conninfo, pubs) }
	conn := acctest.Conninfo(pubDB)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, pubDB, acctest.AdminUser())
			acctest.Database(t, subDB, acctest.AdminUser())
			tables := []string{"CREATE TABLE items (id int PRIMARY KEY, name text)", "CREATE TABLE items2 (id int PRIMARY KEY, name text)"}
			acctest.Exec(t, subDB, tables...)
			acctest.Exec(t, pubDB, append(tables,
				"INSERT INTO items VALUES (1, 'a'), (2, 'b')",
				"CREATE PUBLICATION pub_a FOR TABLE items", "CREATE PUBLICATION pub_b FOR TABLE items2",
				fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s', 'pgoutput')", slot),
				fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s_2', 'pgoutput')", slot))...)
			t.Cleanup(func() {
				acctest.Exec(t, "", fmt.Sprintf("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('%[1]s', '%[1]s_2') AND NOT active", slot))
			})
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_subscription WHERE subname LIKE $1)", name+"%") {
				return fmt.Errorf("subscription still exists")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(name, conn, `"pub_a"`),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(subDB+"."+name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("slot_name"), knownvalue.StringExact(slot)),
				},
			},
			{ // publications: in place
				Config:            cfg(name, conn, `"pub_a", "pub_b"`),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, subDB, "SELECT array_to_string(subpublications, ',') FROM pg_subscription WHERE subname = $1", name); got != "pub_a,pub_b" {
						return fmt.Errorf("publications = %s", got)
					}
					return nil
				},
			},
			{ // connection and name: in place
				Config:            cfg(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, subDB, "SELECT subconninfo FROM pg_subscription WHERE subname = $1", name+"_r"); !strings.HasSuffix(got, "connect_timeout=10") {
						return fmt.Errorf("conninfo not changed")
					}
					return nil
				},
			},
			{ // slot name: in place (disable, set, enable)
				Config:            cfg2(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
				Check: func(*terraform.State) error {
					if !acctest.QueryBool(t, subDB, "SELECT subslotname = $2 AND subenabled FROM pg_subscription WHERE subname = $1", name+"_r", slot+"_2") {
						return fmt.Errorf("slot not changed or subscription left disabled")
					}
					return nil
				},
			},
			{
				ResourceName: addr, ImportState: true, ImportStateId: subDB + "." + name + "_r", ImportStateVerify: true,
				ImportStateVerifyIgnore: subscriptionImportIgnore(),
			},
			{ // the name quoted as in SQL
				ResourceName: addr, ImportState: true, ImportStateId: subDB + `."` + name + `_r"`, ImportStateVerify: true,
				ImportStateVerifyIgnore: subscriptionImportIgnore(),
			},
			{ // forget it, import it for real: the next plan is empty (no replacement, unlike cyrilgdn)
				Config: acctest.Config(`
removed {
  from = postgresql_subscription.test
  lifecycle {
    destroy = false
  }
}`),
			},
			{
				Config:             cfg2(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      subDB + "." + name + "_r",
				ImportStatePersist: true,
			},
			subscriptionAfterImport(addr, cfg2(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`)),
			{ // drift: a publication removed by SQL; apply repairs in place
				PreConfig:        acctest.ExecFunc(t, subDB, "ALTER SUBSCRIPTION "+pgconn.QuoteIdent(name+"_r")+" SET PUBLICATION pub_a WITH (refresh = false)"),
				Config:           cfg2(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`),
				ConfigPlanChecks: expectUpdate(addr),
			},
			{ // dropped out of band (keeping the slot): recreated
				PreConfig: acctest.ExecFunc(t, subDB,
					"ALTER SUBSCRIPTION "+pgconn.QuoteIdent(name+"_r")+" DISABLE",
					"ALTER SUBSCRIPTION "+pgconn.QuoteIdent(name+"_r")+" SET (slot_name = NONE)",
					"DROP SUBSCRIPTION "+pgconn.QuoteIdent(name+"_r")),
				Config:           cfg2(name+"_r", conn+" connect_timeout=10", `"pub_a", "pub_b"`),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
		},
	})
}

// skipSubscriptionIfManagedBefore16 skips a subscription test in managed mode
// before PostgreSQL 16: from 16 members of pg_create_subscription (which the
// managed admin is, as on RDS and Cloud SQL) may create subscriptions.
func skipSubscriptionIfManagedBefore16(t *testing.T) {
	t.Helper()
	if !acctest.Managed() {
		return
	}
	if major := acctest.ServerMajor(t); major < 16 {
		t.Skipf("needs superuser: CREATE SUBSCRIPTION needs superuser before PostgreSQL 16 (pg_create_subscription); the server is PostgreSQL %d", major)
	}
}

// subscriptionImportIgnore are the attributes an import cannot read back:
// create_slot (an argument of CREATE only), and in managed mode conninfo
// (pg_subscription.subconninfo is readable by superusers only).
func subscriptionImportIgnore() []string {
	if acctest.Managed() {
		return []string{"create_slot", "conninfo"}
	}
	return []string{"create_slot"}
}

// subscriptionAfterImport is the step after an ImportStatePersist: an empty
// plan as superuser; in managed mode the import could not read conninfo, so the
// first apply sets it again, in place (documented on the resource's page).
func subscriptionAfterImport(addr, config string) resource.TestStep {
	if acctest.Managed() {
		return resource.TestStep{
			Config:           config,
			ConfigPlanChecks: expectUpdate(addr),
		}
	}
	return resource.TestStep{Config: config, PlanOnly: true}
}

// subscriptionFixture creates a publisher and a subscriber database with one
// table and publication (pub_a), and logical slots <name>_slot and
// <name>_slot_2 on the publisher (dropped at the end of the test).
func subscriptionFixture(t *testing.T, pubDB, subDB, name string) {
	t.Helper()
	slot := name + "_slot"
	acctest.Database(t, pubDB, acctest.AdminUser())
	acctest.Database(t, subDB, acctest.AdminUser())
	acctest.Exec(t, subDB, "CREATE TABLE items (id int PRIMARY KEY, name text)")
	acctest.Exec(t, pubDB, "CREATE TABLE items (id int PRIMARY KEY, name text)", "CREATE PUBLICATION pub_a FOR TABLE items",
		fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s', 'pgoutput')", slot),
		fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s_2', 'pgoutput')", slot))
	t.Cleanup(func() {
		acctest.Exec(t, "", fmt.Sprintf("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('%[1]s', '%[1]s_2') AND NOT active", slot))
	})
}

// testAccSubscriptionSteps runs steps in parallel with the other tests, on
// the publication and subscriber databases of subscriptionFixture.
func testAccSubscriptionSteps(t *testing.T, pubDB, subDB, name string, steps []resource.TestStep) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			subscriptionFixture(t, pubDB, subDB, name)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// subscriptionSlotConfig is a subscription on pub_a (subscriptionFixture) using
// an existing slot, with extra arguments appended.
func subscriptionSlotConfig(name, db, conninfo, slot, extra string) string {
	return acctest.Config(`
resource "postgresql_subscription" "test" {
  name         = %q
  database     = %q
  conninfo     = %q
  publications = ["pub_a"]
  create_slot  = false
  slot_name    = %q
  %s
}`, name, db, conninfo, slot, extra)
}

// A slot-name change used to run DISABLE, SET (slot_name) and ENABLE as three
// statements: when a later one failed, the subscription stayed disabled.
// They now run in one transaction: a failure changes nothing.
func TestAccSubscription_regressionSlotChangeLeavesDisabled(t *testing.T) {
	acctest.SkipIfManaged(t, "the test injects the failure with an event trigger, which only a superuser may create")
	pubDB, subDB, name, slot := subscriptionTestNames()
	addr := "postgresql_subscription.test"
	conn := acctest.Conninfo(pubDB)
	cfg := func(slotName string) string { return subscriptionSlotConfig(name, subDB, conn, slotName, "") }
	enabledWithSlot := func(want string) func() {
		return func() {
			if !acctest.QueryBool(t, subDB, "SELECT subenabled AND subslotname = $2 FROM pg_subscription WHERE subname = $1", name, want) {
				t.Errorf("subscription %s is disabled or its slot is not %s", name, want)
			}
		}
	}
	testAccSubscriptionSteps(t, pubDB, subDB, name, []resource.TestStep{
		{Config: cfg(slot)},
		{ // the slot change fails (an event trigger refuses SET (slot_name = ...))
			PreConfig: acctest.ExecFunc(t, subDB, `
CREATE FUNCTION refuse_slot_change() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_query() ILIKE '%slot_name%' THEN RAISE EXCEPTION 'slot change refused by the test'; END IF;
END $$`, "CREATE EVENT TRIGGER refuse_slot_change ON ddl_command_end WHEN TAG IN ('ALTER SUBSCRIPTION') EXECUTE FUNCTION refuse_slot_change()"),
			Config:      cfg(slot + "_2"),
			ExpectError: regexp.MustCompile(`slot\s+change\s+refused\s+by\s+the\s+test`),
		},
		{ // nothing changed: still enabled, on the old slot; with the trigger gone the change goes through
			PreConfig: func() {
				enabledWithSlot(slot)()
				acctest.Exec(t, subDB, "DROP EVENT TRIGGER refuse_slot_change")
			},
			Config:           cfg(slot + "_2"),
			ConfigPlanChecks: expectUpdate(addr),
			Check:            func(*terraform.State) error { enabledWithSlot(slot + "_2")(); return nil },
		},
		{
			Config:   cfg(slot + "_2"),
			PlanOnly: true,
		},
	})
}

// enabled: created disabled, enabled and disabled in place (a slot change
// keeps it disabled), and a subscription disabled with SQL is enabled again.
func TestAccSubscription_enabled(t *testing.T) {
	skipSubscriptionIfManagedBefore16(t)
	pubDB, subDB, name, slot := subscriptionTestNames()
	addr := "postgresql_subscription.test"
	conn := acctest.Conninfo(pubDB)
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(slotName, enabled string) string {
		return subscriptionSlotConfig(name, subDB, conn, slotName, enabled)
	}
	serverEnabled := func(want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := acctest.QueryBool(t, subDB, "SELECT subenabled FROM pg_subscription WHERE subname = $1", name); got != want {
				return fmt.Errorf("subenabled = %t, want %t", got, want)
			}
			return nil
		}
	}
	// the step keeps the subscription (its OID), which the state records enabled or not
	sameSubscription := func(enabled bool) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(enabled)),
		}
	}
	testAccSubscriptionSteps(t, pubDB, subDB, name, []resource.TestStep{
		{
			Config:            cfg(slot, "enabled = false"),
			ConfigStateChecks: sameSubscription(false),
			Check:             serverEnabled(false),
		},
		{ // a slot change keeps it disabled
			Config:            cfg(slot+"_2", "enabled = false"),
			ConfigPlanChecks:  expectUpdate(addr),
			ConfigStateChecks: sameSubscription(false),
			Check:             serverEnabled(false),
		},
		{ // enabled by default, in place
			Config:            cfg(slot+"_2", ""),
			ConfigPlanChecks:  expectUpdate(addr),
			ConfigStateChecks: sameSubscription(true),
			Check:             serverEnabled(true),
		},
		{
			Config:   cfg(slot+"_2", ""),
			PlanOnly: true,
		},
		{ // drift: disabled with SQL; the plan shows it and apply enables it again
			PreConfig: acctest.ExecFunc(t, subDB, "ALTER SUBSCRIPTION "+pgconn.QuoteIdent(name)+" DISABLE"),
			Config:    cfg(slot+"_2", ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			Check:             serverEnabled(true),
		},
		{
			Config:   cfg(slot+"_2", ""),
			PlanOnly: true,
		},
		{ // disabled in place, back on the first slot
			Config:            cfg(slot, "enabled = false"),
			ConfigPlanChecks:  expectUpdate(addr),
			ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			Check:             serverEnabled(false),
		},
		{
			ResourceName: addr, ImportState: true, ImportStateId: subDB + "." + name, ImportStateVerify: true,
			ImportStateVerifyIgnore: subscriptionImportIgnore(),
		},
	})
}
