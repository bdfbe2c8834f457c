package provider

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// A failover in the middle of an apply: the provider lists a primary and its
// streaming standby (target_session_attrs = "read-write"); once part of the
// apply is done the primary stops and the standby is promoted. Connections
// fail, reads and the writes that were not committed are retried on the
// promoted standby, writes whose COMMIT was under way are settled from its
// catalog (adopted or made again), and the apply ends with every object
// exactly once on the new primary; the re-apply plans nothing.
func TestAccFault_failoverDuringApply(t *testing.T) {
	skipUnlessAcc(t)
	primary := acctest.StartCluster(t)
	standby := primary.StartStandby(t)
	prefix := acctest.RandName("ffo")
	const n = 30
	var failedOver atomic.Bool
	var failoverErr error
	done := make(chan struct{})
	var watching atomic.Bool
	watch := func() {
		watching.Store(true)
		go func() {
			defer close(done)
			deadline := time.Now().Add(3 * time.Minute)
			for time.Now().Before(deadline) {
				if k, err := primary.Count("SELECT count(*) FROM pg_roles WHERE rolname LIKE $1", strings.ReplaceAll(prefix, "_", `\_`)+`\_%`); err == nil && k >= 8 {
					if failoverErr = primary.Stop(); failoverErr == nil {
						failoverErr = standby.Promote()
					}
					failedOver.Store(true)
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	t.Cleanup(func() {
		if watching.Load() {
			<-done // bounded: the watcher gives up after 3 minutes
		}
	})
	adopted0, repeated0 := testOutcomes.Adopted.Load(), testOutcomes.Repeated.Load()
	config := faultConfig(multiHostProvider(primary, standby, ""), prefix, n)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: watch,
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						<-done
						t.Logf("fault counts: failed over %v, %d adopted, %d created/updated/dropped again",
							failedOver.Load(), testOutcomes.Adopted.Load()-adopted0, testOutcomes.Repeated.Load()-repeated0)
						if failoverErr != nil {
							return failoverErr
						}
						if !failedOver.Load() {
							return errors.New("no failover happened during the apply: the test proved nothing")
						}
						if standby.InRecovery(t) {
							return errors.New("the standby was not promoted")
						}
						return nil
					},
					checkServerMatchesState(prefix, standby.Count, n),
				),
			},
			{ // the re-apply converges on the new primary (the framework checks the plan is empty)
				Config: config,
				Check:  checkServerMatchesState(prefix, standby.Count, n),
			},
		},
	})
}
