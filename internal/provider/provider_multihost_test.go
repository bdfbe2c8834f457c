package provider

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Several hosts (host = "a,b", port = "p,q") with target_session_attrs, on a
// primary and a streaming standby of the test's own (acctest.StartStandby).

// multiHostProvider is a provider block listing the standby first, then the
// primary, as the admin of the test's mode, with extra arguments.
func multiHostProvider(first, second *acctest.Cluster, extra string) string {
	user, pass, super := first.Admin()
	return fmt.Sprintf(`
provider "postgresql" {
  host                 = "127.0.0.1,127.0.0.1"
  port                 = "%d,%d"
  username             = %q
  password             = %q
  sslmode              = "disable"
  superuser            = %v
  target_session_attrs = "read-write"
%s
}
`, first.Port, second.Port, user, pass, super, extra)
}

func countOn(c *acctest.Cluster, prefix string) func() (int, int, error) {
	pattern := strings.ReplaceAll(prefix, "_", `\_`) + `\_%`
	return func() (int, int, error) {
		roles, err := c.Count("SELECT count(*) FROM pg_roles WHERE rolname LIKE $1", pattern)
		if err != nil {
			return 0, 0, err
		}
		schemas, err := c.Count("SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1", pattern)
		return roles, schemas, err
	}
}

// TestAccProvider_multiHostFailover: with the standby listed first and
// target_session_attrs = "read-write", the provider writes to the primary
// (the standby would refuse every write); the standby is then promoted and the
// old primary stopped between two applies, and the second apply, with the same
// provider configuration, writes to the new primary.
func TestAccProvider_multiHostFailover(t *testing.T) {
	acctest.PreCheck(t)
	primary := acctest.StartCluster(t)
	standby := primary.StartStandby(t)
	prefix := acctest.RandName("mh")
	provider := multiHostProvider(standby, primary, "")
	countPrimary, countStandby := countOn(primary, prefix), countOn(standby, prefix)
	want := func(count func() (int, int, error), n int, where string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			roles, schemas, err := count()
			if err != nil {
				return err
			}
			if roles != n || schemas != n {
				return fmt.Errorf("%s has %d roles and %d schemas named %s_*, want %d of each", where, roles, schemas, prefix, n)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: faultConfig(provider, prefix, 2),
				Check: resource.ComposeTestCheckFunc(
					want(countPrimary, 2, "the primary"),
					func(*terraform.State) error {
						if standby.InRecovery(t) == false {
							return errors.New("the standby is not in recovery: the test proves nothing")
						}
						return nil
					},
				),
			},
			{
				PreConfig: func() {
					primary.WaitReplay(t, standby)
					if err := primary.Stop(); err != nil {
						t.Fatal(err)
					}
					if err := standby.Promote(); err != nil {
						t.Fatal(err)
					}
				},
				Config: faultConfig(provider, prefix, 3), // the same provider block
				Check: resource.ComposeTestCheckFunc(
					want(countStandby, 3, "the promoted standby"),
					checkServerMatchesState(prefix, standby.Count, 3),
				),
			},
		},
	})
}

// TestAccProvider_multiHostNoPrimary: when no host is a primary (a failover
// under way that does not end within max_retry_duration), the apply fails
// with an error naming the hosts and target_session_attrs, and creates nothing.
func TestAccProvider_multiHostNoPrimary(t *testing.T) {
	acctest.PreCheck(t)
	primary := acctest.StartCluster(t)
	standby := primary.StartStandby(t)
	prefix := acctest.RandName("mhnp")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := primary.Stop(); err != nil {
					t.Fatal(err)
				}
			},
			// only the standby is reachable: the host list names it twice
			Config:      faultConfig(multiHostProvider(standby, standby, "  max_retry_duration = 3"), prefix, 1),
			ExpectError: regexp.MustCompile(`(?s)no\s+server\s+among\s+127\.0\.0\.1:\d+,\s+127\.0\.0\.1:\d+\s+matches\s+target_session_attrs\s+=\s+"read-write"`),
		}},
	})
}

// TestResolveConfigHosts: host lists and port lists resolve as libpq's, from
// the arguments or PGHOST/PGPORT/PGTARGETSESSIONATTRS; a port count that
// matches neither one nor the hosts is an error.
func TestResolveConfigHosts(t *testing.T) {
	s := types.StringValue
	for _, tc := range []struct {
		name         string
		m            providerModel
		env          map[string]string
		hosts        []string
		ports        []int
		attrs, err   string
		wantUnknowns []string
	}{
		{name: "one host", m: providerModel{Host: s("db"), Port: s("6000")}, hosts: []string{"db"}, ports: []int{6000}},
		{name: "two hosts, one port", m: providerModel{Host: s("a,b"), Port: s("6000")}, hosts: []string{"a", "b"}, ports: []int{6000, 6000}},
		{name: "two hosts, two ports", m: providerModel{Host: s("a, b"), Port: s("6000, 6001"), TargetSessionAttrs: s("primary")}, hosts: []string{"a", "b"}, ports: []int{6000, 6001}, attrs: "primary"},
		{name: "from the environment", env: map[string]string{"PGHOST": "a,/run/pg", "PGPORT": "1,2", "PGTARGETSESSIONATTRS": "read-write"}, hosts: []string{"a", "/run/pg"}, ports: []int{1, 2}, attrs: "read-write"},
		{name: "three ports for two hosts", m: providerModel{Host: s("a,b"), Port: s("1,2,3")}, err: "3 ports for 2 hosts"},
		{name: "port out of range", m: providerModel{Port: s("70000")}, err: "between 1 and 65535"},
		{name: "bad PGTARGETSESSIONATTRS", env: map[string]string{"PGTARGETSESSIONATTRS": "master"}, err: "target_session_attrs"},
		{name: "unknown host: ports not checked against it", m: providerModel{Host: types.StringUnknown(), Port: s("1,2")}, hosts: []string{""}, ports: []int{1}, wantUnknowns: []string{"host"}},
	} {
		cfg, cerr := resolveConfig(tc.m, func(k string) string { return tc.env[k] })
		if tc.err != "" {
			if cerr == nil || !strings.Contains(cerr.detail, tc.err) {
				t.Errorf("%s: error %+v, want one about %q", tc.name, cerr, tc.err)
			}
			continue
		}
		if cerr != nil {
			t.Errorf("%s: %s", tc.name, cerr.detail)
			continue
		}
		if diff := cmp.Diff(tc.hosts, cfg.HostList()); diff != "" {
			t.Errorf("%s: hosts (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff(tc.ports, cfg.PortList()); diff != "" {
			t.Errorf("%s: ports (-want +got):\n%s", tc.name, diff)
		}
		if cfg.TargetSessionAttrs != tc.attrs {
			t.Errorf("%s: target_session_attrs %q, want %q", tc.name, cfg.TargetSessionAttrs, tc.attrs)
		}
		if diff := cmp.Diff(tc.wantUnknowns, cfg.Unknown); diff != "" {
			t.Errorf("%s: unknown (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestValidateHosts: an empty host in a list, and a port list that fits
// neither one port nor one per host, are errors at validate time.
func TestValidateHosts(t *testing.T) {
	s := types.StringValue
	for _, tc := range []struct {
		name string
		m    providerModel
		err  string
	}{
		{name: "fine", m: providerModel{Host: s("a,b"), Port: s("1,2")}},
		{name: "one port for all", m: providerModel{Host: s("a,b,c"), Port: s("1")}},
		{name: "empty host", m: providerModel{Host: s("a,,b")}, err: "host number 2"},
		{name: "two ports, three hosts", m: providerModel{Host: s("a,b,c"), Port: s("1,2")}, err: "2 ports for 3 hosts"},
		{name: "two ports, default host", m: providerModel{Port: s("1,2")}, err: "2 ports for 1 hosts"},
		{name: "unknown host", m: providerModel{Host: types.StringUnknown(), Port: s("1,2")}},
	} {
		var d diag.Diagnostics
		validateHosts(tc.m, &d)
		got := ""
		for _, e := range d.Errors() {
			got += e.Detail()
		}
		if (tc.err == "") != (got == "") || !strings.Contains(got, tc.err) {
			t.Errorf("%s: errors %q, want %q", tc.name, got, tc.err)
		}
	}
}
