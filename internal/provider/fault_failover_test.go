package provider

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// A failover in the middle of an apply: the provider lists a primary and its
// streaming standby (target_session_attrs = "read-write"); once part of the
// apply is done the primary stops and the standby is promoted. Connections
// fail, reads and the writes that were not committed are retried on the
// promoted standby, writes whose COMMIT was under way are settled from its
// catalog (adopted or made again), and the apply ends with every object
// exactly once on the new primary; the re-apply plans nothing.
//
// The failover must land inside the apply: the promoted standby must still
// lack some of the grants (the last layer of the configuration) when it takes
// over, and the provider's client must have retried after the connection
// failures; every write whose outcome the failover made unknown must have
// been settled (adopted or repeated).
func TestAccFault_failoverDuringApply(t *testing.T) {
	skipUnlessAcc(t)
	primary := acctest.StartCluster(t)
	standby := primary.StartStandby(t)
	prefix := acctest.RandName("ffo")
	pattern := strings.ReplaceAll(prefix, "_", `\_`) + `\_%`
	const n = 30
	// the schemas whose own role has USAGE on them: the grants made so far
	const granted = `SELECT count(*) FROM pg_namespace n WHERE nspname LIKE $1 AND EXISTS (
  SELECT 1 FROM aclexplode(n.nspacl) a JOIN pg_roles r ON r.oid = a.grantee WHERE r.rolname = n.nspname AND a.privilege_type = 'USAGE')`
	var failedOver atomic.Bool
	var failoverErr error
	grantsAtFailover := -1
	done := make(chan struct{})
	var watching atomic.Bool
	watch := func() {
		watching.Store(true)
		go func() {
			defer close(done)
			deadline := time.Now().Add(3 * time.Minute)
			for time.Now().Before(deadline) {
				if k, err := primary.Count("SELECT count(*) FROM pg_roles WHERE rolname LIKE $1", pattern); err == nil && k >= 8 {
					if failoverErr = primary.Stop(); failoverErr == nil {
						failoverErr = standby.Promote()
					}
					if failoverErr == nil {
						grantsAtFailover, failoverErr = standby.Count(granted, pattern)
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
	provider := multiHostProvider(primary, standby, "")
	client := multiHostClient(t, primary, standby)
	retries0, unknown0 := client.Retries(), client.OutcomesUnknown()
	adopted0, repeated0 := testOutcomes.Adopted.Load(), testOutcomes.Repeated.Load()
	config := faultConfig(provider, prefix, n)
	allGranted := func(*terraform.State) error {
		if k, err := standby.Count(granted, pattern); err != nil || k != n {
			return fmt.Errorf("%d of %d grants on the new primary (%w)", k, n, err)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: watch,
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						<-done
						retried, unknown := client.Retries()-retries0, client.OutcomesUnknown()-unknown0
						adopted, repeated := testOutcomes.Adopted.Load()-adopted0, testOutcomes.Repeated.Load()-repeated0
						t.Logf("fault counts: failed over %v with %d of %d grants made, %d retries after connection failures, %d writes with an unknown outcome, %d adopted, %d created/updated/dropped again",
							failedOver.Load(), grantsAtFailover, n, retried, unknown, adopted, repeated)
						if failoverErr != nil {
							return failoverErr
						}
						if !failedOver.Load() {
							return errors.New("no failover happened during the apply: the test proved nothing")
						}
						if grantsAtFailover < 0 || grantsAtFailover >= n {
							return fmt.Errorf("the promoted standby already had %d of %d grants: the failover landed after the apply, the test proved nothing", grantsAtFailover, n)
						}
						if standby.InRecovery(t) {
							return errors.New("the standby was not promoted")
						}
						if retried == 0 {
							return errors.New("no operation was retried after the failover: the provider never met the stopped primary, or this is not the client it used")
						}
						if adopted+repeated != unknown {
							return fmt.Errorf("%d writes ended with an unknown outcome, but %d were adopted and %d made again: some were left unsettled", unknown, adopted, repeated)
						}
						return nil
					},
					checkServerMatchesState(prefix, standby.Count, n),
					allGranted,
				),
			},
			{ // the re-apply converges on the new primary (the framework checks the plan is empty)
				Config: config,
				Check:  resource.ComposeTestCheckFunc(checkServerMatchesState(prefix, standby.Count, n), allGranted),
			},
		},
	})
}

// multiHostClient is the shared client a provider configured with
// multiHostProvider(first, second, "") uses (the same configuration, so
// the same client), for its counters.
func multiHostClient(t *testing.T, first, second *acctest.Cluster) *pg.Client {
	user, pass, super := first.Admin()
	m := providerModel{
		Host: types.StringValue("127.0.0.1,127.0.0.1"), Port: types.StringValue(fmt.Sprintf("%d,%d", first.Port, second.Port)),
		Username: types.StringValue(user), Password: types.StringValue(pass), SSLMode: types.StringValue("disable"),
		Superuser: types.BoolValue(super), TargetSessionAttrs: types.StringValue("read-write"),
	}
	cfg, cerr := configureConfig(m, os.Getenv, testOptions())
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	return pg.SharedClient(cfg)
}
