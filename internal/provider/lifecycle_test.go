package provider

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAcc_regressionOrphanAfterFailedReadBack: a Create whose object was
// created but whose read-back failed (connection lost, timeout) used to save
// nothing, so the object was an orphan and the next apply failed with
// "already exists". Now the object is recorded (tainted) before the read-back:
// the next apply replaces it and converges, with exactly one object of each.
func TestAcc_regressionOrphanAfterFailedReadBack(t *testing.T) {
	name := acctest.RandName("orphan")
	var mu sync.Mutex
	failed := map[string]bool{}
	fault := func(what string) error {
		if !strings.Contains(what, name) {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if failed[what] {
			return nil
		}
		failed[what] = true
		return errors.New("injected read-back fault: conn closed")
	}
	readBackFault.Store(&fault)
	t.Cleanup(func() { readBackFault.CompareAndSwap(&fault, nil) })

	config := acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }
resource "postgresql_database" "d" { name = %[1]q }
resource "postgresql_schema" "s" { name = %[1]q }`, name)
	addrs := []string{"postgresql_role.r", "postgresql_database.d", "postgresql_schema.s"}
	replace := make([]plancheck.PlanCheck, 0, len(addrs))
	for _, a := range addrs {
		replace = append(replace, plancheck.ExpectResourceAction(a, plancheck.ResourceActionDestroyBeforeCreate))
	}
	one := func(query string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := acctest.QueryString(t, "", query, name); got != "1" {
				return errors.New(query + ": " + got)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)injected\s+read-back\s+fault.*recorded\s+in\s+the\s+state\s+as\s+tainted`),
			},
			{ // the recorded objects are replaced, not created a second time
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: replace, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					one("SELECT count(*)::text FROM pg_roles WHERE rolname = $1"),
					one("SELECT count(*)::text FROM pg_database WHERE datname = $1"),
					resource.TestCheckResourceAttrSet("postgresql_schema.s", "oid"),
					resource.TestCheckResourceAttrSet("postgresql_role.r", "oid"),
				),
			},
		},
	})
}
