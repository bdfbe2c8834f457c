package provider

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"golang.org/x/crypto/ssh"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// wordsRe matches text as Terraform prints it in an error: its words
// separated by any white space (Terraform wraps long lines).
func wordsRe(text string) *regexp.Regexp {
	words := strings.Fields(text)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(strings.Join(words, `\s+`))
}

// tunnelProvider is a provider block reaching the throwaway cluster (PGPORT,
// PGUSER, PGPASSWORD from the environment) at dbHost as the bastion sees it,
// through sshd, with the given authentication and host key arguments.
func tunnelProvider(s *acctest.SSHD, dbHost, args string, extra ...string) string {
	return fmt.Sprintf(`
provider "postgresql" {
  host = %q
  %s
  ssh_tunnel {
    host = %q
    port = %d
    user = %q
    %s
  }
}
`, dbHost, strings.Join(extra, "\n  "), s.Host, s.Port, s.User, args)
}

func checkForwardedTo(s *acctest.SSHD, dbHost string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		want := net.JoinHostPort(dbHost, os.Getenv("PGPORT"))
		if !slices.Contains(s.Forwarded(), want) {
			return fmt.Errorf("sshd forwarded no channel to %s (forwarded: %v)", want, s.Forwarded())
		}
		return nil
	}
}

func checkSSHConnections(s *acctest.SSHD, want int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := s.Connections(); got != want {
			return fmt.Errorf("SSH connections to the bastion = %d, want %d", got, want)
		}
		return nil
	}
}

// TestAccProvider_sshTunnel: through a real sshd, with the key given inline,
// as a file, encrypted with a passphrase, and the host key given as
// known_hosts_file or host_key. The database's host is "localhost" as the
// bastion resolves it; sshd's log shows the forwarding channels to the
// cluster's port, and the counting forwarder in front of sshd shows that the
// pools of two databases (a role in the provider's database, a schema in
// another) share one SSH connection.
func TestAccProvider_sshTunnel(t *testing.T) {
	acctest.PreCheck(t)
	sshd := acctest.StartSSHD(t)
	db := acctest.RandName("db_ssh")
	role := acctest.RandName("role_ssh")
	schemaName := acctest.RandName("schema_ssh")
	resources := fmt.Sprintf(`
resource "postgresql_role" "r" { name = %q }
resource "postgresql_schema" "s" {
  database = %q
  name     = %q
}
`, role, db, schemaName)
	inline := fmt.Sprintf("private_key = %s\n    known_hosts_file = %q", acctest.QuoteHCL(sshd.UserKeyPEM), sshd.KnownHostsFile)
	file := fmt.Sprintf("private_key_file = %q\n    host_key = %q", sshd.UserKeyFile, sshd.HostKeyLine)
	encrypted := fmt.Sprintf("private_key = %s\n    private_key_passphrase = %q\n    host_key = %q",
		acctest.QuoteHCL(sshd.EncryptedUserKeyPEM), sshd.UserKeyPassphrase, sshd.HostKeyLine)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.Database(t, db, acctest.AdminUser()) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{
				Config: tunnelProvider(sshd, "localhost", inline) + resources,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("postgresql_role.r", "name", role),
					func(*terraform.State) error {
						if !roleExists(t, role) {
							return fmt.Errorf("role %q was not created", role)
						}
						if !acctest.QueryBool(t, db, `SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schemaName) {
							return fmt.Errorf("schema %q was not created in %q", schemaName, db)
						}
						return nil
					},
					checkForwardedTo(sshd, "localhost"),
					// every pool of both databases, over every command of the step
					checkSSHConnections(sshd, 1),
				),
			},
			{Config: tunnelProvider(sshd, "localhost", file) + resources, PlanOnly: true},
			{Config: tunnelProvider(sshd, "localhost", encrypted) + resources, PlanOnly: true},
		},
	})
}

// TestAccProvider_sshTunnelReconnect: the SSH connection is cut between two
// steps (the forwarder in front of sshd closes it, as a network failure
// would); the next refresh and update open a new one.
func TestAccProvider_sshTunnelReconnect(t *testing.T) {
	acctest.PreCheck(t)
	sshd := acctest.StartSSHD(t)
	role := acctest.RandName("role_ssh_drop")
	auth := fmt.Sprintf("private_key = %s\n    host_key = %q", acctest.QuoteHCL(sshd.UserKeyPEM), sshd.HostKeyLine)
	cfg := func(limit int) string {
		return tunnelProvider(sshd, "localhost", auth) +
			fmt.Sprintf(`resource "postgresql_role" "r" {
  name             = %q
  connection_limit = %d
}
`, role, limit)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: cfg(3), Check: checkSSHConnections(sshd, 1)},
			{
				PreConfig:        sshd.DropConnections,
				Config:           cfg(5),
				ConfigPlanChecks: expectAction("postgresql_role.r", plancheck.ResourceActionUpdate),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("postgresql_role.r", "connection_limit", "5"),
					checkSSHConnections(sshd, 2),
				),
			},
		},
	})
}

// TestAccProvider_sshTunnelHostKey: an unknown host key, a host_key that is
// not the bastion's, and a known_hosts entry with another key all fail with
// an error naming the bastion and the fingerprint of the key it presented;
// nothing is created.
func TestAccProvider_sshTunnelHostKey(t *testing.T) {
	acctest.PreCheck(t)
	sshd := acctest.StartSSHD(t)
	role := acctest.RandName("role_ssh_hk")
	otherKey, otherLine := acctest.OtherHostKey(t)
	dir := t.TempDir()
	empty, wrong := filepath.Join(dir, "empty"), filepath.Join(dir, "wrong")
	bastion := fmt.Sprintf("[%s]:%d", sshd.Host, sshd.Port)
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wrong, []byte(bastion+" "+otherLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := "private_key = " + acctest.QuoteHCL(sshd.UserKeyPEM)
	res := fmt.Sprintf(`resource "postgresql_role" "r" { name = %q }`, role)
	failed := fmt.Sprintf("host key verification failed for the bastion %s:%d, which presented the ssh-ed25519 key %s",
		sshd.Host, sshd.Port, ssh.FingerprintSHA256(sshd.HostKey))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{
				Config:      tunnelProvider(sshd, "localhost", key+fmt.Sprintf("\n    known_hosts_file = %q", empty)) + res,
				ExpectError: wordsRe(failed + ": the host is not in the known hosts file " + empty),
			},
			{
				Config:      tunnelProvider(sshd, "localhost", key+fmt.Sprintf("\n    host_key = %q", otherLine)) + res,
				ExpectError: wordsRe(failed + ": host_key is the ssh-ed25519 key " + ssh.FingerprintSHA256(otherKey)),
			},
			{
				Config:      tunnelProvider(sshd, "localhost", key+fmt.Sprintf("\n    known_hosts_file = %q", wrong)) + res,
				ExpectError: wordsRe(failed + ": the known hosts file lists ssh-ed25519 key " + ssh.FingerprintSHA256(otherKey)),
			},
			{
				// the key of the bastion, but no user key it accepts
				Config: tunnelProvider(sshd, "localhost", fmt.Sprintf("private_key = %s\n    host_key = %q",
					acctest.QuoteHCL(strings.TrimSpace(sshd.EncryptedUserKeyPEM)), sshd.HostKeyLine)) + res,
				ExpectError: wordsRe("is encrypted: set private_key_passphrase"),
			},
		},
	})
	if sshd.Connections() != 3 {
		t.Errorf("SSH connections = %d, want 3 (one per host key failure, none retried)", sshd.Connections())
	}
}

// TestAccProvider_sshTunnelVerifyFull: with sslmode = verify-full through the
// bastion, the server certificate is checked against the database's host,
// never the bastion's. The cluster's certificate names only "localhost":
// reaching the bastion as 127.0.0.1 and the database as localhost succeeds;
// reaching the bastion as localhost and the database as 127.0.0.1 fails.
func TestAccProvider_sshTunnelVerifyFull(t *testing.T) {
	acctest.PreCheck(t)
	sshd := acctest.StartSSHD(t)
	role := acctest.RandName("role_ssh_tls")
	ca := newTestCert(t, "pgtf test CA", nil, false)
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, ca.certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	tlsArgs := []string{`sslmode = "verify-full"`, fmt.Sprintf("sslrootcert = %q", caFile)}
	auth := fmt.Sprintf("private_key = %s\n    host_key = %q", acctest.QuoteHCL(sshd.UserKeyPEM), sshd.HostKeyLine)
	res := fmt.Sprintf(`resource "postgresql_role" "r" { name = %q }`, role)
	byName := tunnelProvider(sshd, "localhost", auth, tlsArgs...) + res
	swapped := strings.Replace(tunnelProvider(sshd, "127.0.0.1", auth, tlsArgs...), fmt.Sprintf("host = %q\n    port", sshd.Host), `host = "localhost"`+"\n    port", 1) + res
	if !strings.Contains(swapped, `host = "localhost"`+"\n    port") {
		t.Fatal("the swapped configuration does not name the bastion localhost")
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { enableClusterTLSWith(t, "", ca, newTestCert(t, "localhost", ca, true, "localhost")) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: byName, Check: checkForwardedTo(sshd, "localhost")},
			{
				Config:      swapped,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`x509:\s+cannot\s+validate\s+certificate\s+for\s+127\.0\.0\.1`),
			},
			{Config: byName, PlanOnly: true},
		},
	})
}

// TestAccProvider_socks5Proxy: proxy_url with username/password
// authentication; socks5h:// gives the proxy the host name, socks5:// the
// address resolved here; a wrong password fails without showing it.
func TestAccProvider_socks5Proxy(t *testing.T) {
	acctest.PreCheck(t)
	proxy := acctest.StartSOCKS5(t, "pgtf", "pr0xy-secret")
	role := acctest.RandName("role_socks")
	port := os.Getenv("PGPORT")
	cfg := func(url string) string {
		return fmt.Sprintf(`
provider "postgresql" {
  host      = "localhost"
  proxy_url = %q
}
resource "postgresql_role" "r" { name = %q }
`, url, role)
	}
	checkTargets := func(want ...string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, w := range want {
				if !slices.Contains(proxy.Targets(), w) {
					return fmt.Errorf("the proxy was not asked for %s (targets: %v)", w, proxy.Targets())
				}
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: cfg("socks5h://pgtf:pr0xy-secret@" + proxy.Addr), Check: checkTargets("localhost:" + port)},
			{Config: cfg("socks5://pgtf:pr0xy-secret@" + proxy.Addr), Check: checkTargets("127.0.0.1:" + port)},
			{
				Config:      cfg("socks5://pgtf:wrong-secret@" + proxy.Addr),
				PlanOnly:    true,
				ExpectError: wordsRe("through SOCKS5 proxy socks5://pgtf:xxxxx@" + proxy.Addr),
			},
			{Config: cfg("socks5h://pgtf:pr0xy-secret@" + proxy.Addr), PlanOnly: true},
		},
	})
	if proxy.AuthFailures() == 0 {
		t.Error("the wrong password never reached the proxy")
	}
}

// TestAccProvider_socks5AllProxy: without proxy_url, ALL_PROXY applies, and
// NO_PROXY names hosts reached directly.
func TestAccProvider_socks5AllProxy(t *testing.T) {
	acctest.PreCheck(t)
	proxy := acctest.StartSOCKS5(t, "", "")
	role := acctest.RandName("role_allproxy")
	t.Setenv("ALL_PROXY", "socks5h://"+proxy.Addr)
	t.Setenv("NO_PROXY", "")
	cfg := fmt.Sprintf(`
provider "postgresql" { host = "localhost" }
resource "postgresql_role" "r" { name = %q }
`, role)
	var before int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: cfg, Check: func(*terraform.State) error {
				if !slices.Contains(proxy.Targets(), "localhost:"+os.Getenv("PGPORT")) {
					return fmt.Errorf("ALL_PROXY was not used (targets: %v)", proxy.Targets())
				}
				return nil
			}},
			{
				PreConfig: func() {
					before = len(proxy.Targets())
					t.Setenv("NO_PROXY", "example.com,localhost")
				},
				Config:   cfg,
				PlanOnly: true,
			},
			{
				PreConfig: func() {
					if after := len(proxy.Targets()); after != before {
						t.Errorf("NO_PROXY=localhost: the proxy was asked for %v", proxy.Targets()[before:])
					}
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// TestValidateNetwork: exactly one SSH authentication source, a parsable
// host_key, and a SOCKS5 proxy URL, each reported on its attribute.
func TestValidateNetwork(t *testing.T) {
	str := types.StringValue
	null := types.StringNull()
	tunnel := func(key, file types.String, agent types.Bool, mod func(*sshTunnelModel)) []sshTunnelModel {
		m := sshTunnelModel{Host: str("b"), Port: types.Int64Null(), User: str("u"), PrivateKey: key, PrivateKeyFile: file, Agent: agent,
			PrivateKeyPassphrase: null, KnownHostsFile: null, HostKey: null}
		if mod != nil {
			mod(&m)
		}
		return []sshTunnelModel{m}
	}
	_, hostKey := acctest.OtherHostKey(t)
	at := path.Root("ssh_tunnel").AtListIndex(0)
	cases := []struct {
		name     string
		m        providerModel
		wantPath path.Path // empty: no error
		wantText string
	}{
		{"key", providerModel{SSHTunnel: tunnel(str("PEM"), null, types.BoolNull(), nil)}, path.Empty(), ""},
		{"file", providerModel{SSHTunnel: tunnel(null, str("~/k"), types.BoolValue(false), nil)}, path.Empty(), ""},
		{"agent", providerModel{SSHTunnel: tunnel(null, null, types.BoolValue(true), nil)}, path.Empty(), ""},
		{"unknown key", providerModel{SSHTunnel: tunnel(types.StringUnknown(), null, types.BoolValue(true), nil)}, path.Empty(), ""},
		{"host_key", providerModel{SSHTunnel: tunnel(str("PEM"), null, types.BoolNull(), func(m *sshTunnelModel) { m.HostKey = str(hostKey) })}, path.Empty(), ""},
		{"none", providerModel{SSHTunnel: tunnel(null, null, types.BoolValue(false), nil)}, at, "exactly one of private_key, private_key_file and agent"},
		{"two", providerModel{SSHTunnel: tunnel(str("PEM"), str("f"), types.BoolNull(), nil)}, at.AtName("private_key_file"), "private_key and private_key_file are set"},
		{"three", providerModel{SSHTunnel: tunnel(str("PEM"), str("f"), types.BoolValue(true), nil)}, at.AtName("private_key_file"), "private_key and private_key_file and agent"},
		{"agent passphrase", providerModel{SSHTunnel: tunnel(null, null, types.BoolValue(true), func(m *sshTunnelModel) { m.PrivateKeyPassphrase = str("p") })},
			at.AtName("private_key_passphrase"), "the agent holds its keys decrypted"},
		{"bad host_key", providerModel{SSHTunnel: tunnel(str("PEM"), null, types.BoolNull(), func(m *sshTunnelModel) { m.HostKey = str("AAAA") })},
			at.AtName("host_key"), "not a public key line"},
		{"socks5", providerModel{ProxyURL: str("socks5h://u:p@proxy:1080")}, path.Empty(), ""},
		{"http proxy", providerModel{ProxyURL: str("http://proxy:3128")}, path.Root("proxy_url"), `scheme "http" is not supported`},
		{"no host", providerModel{ProxyURL: str("socks5://:1080")}, path.Root("proxy_url"), "no proxy host"},
	}
	for _, c := range cases {
		diags := validateNetwork(c.m)
		if c.wantText == "" {
			if diags.HasError() {
				t.Errorf("%s: unexpected %v", c.name, diags)
			}
			continue
		}
		if len(diags) != 1 {
			t.Errorf("%s: got %v, want one error", c.name, diags)
			continue
		}
		d, ok := diags[0].(interface{ Path() path.Path })
		if !ok || !d.Path().Equal(c.wantPath) || !strings.Contains(diags[0].Detail(), c.wantText) {
			t.Errorf("%s: got %v (%s), want %q at %s", c.name, diags[0].Detail(), diags[0].Summary(), c.wantText, c.wantPath)
		}
	}
}

// TestResolveNetwork: ALL_PROXY (SOCKS5 only) and NO_PROXY when proxy_url is
// unset, proxy_url first, the bastion's port defaulting to 22, and nothing
// at all by default (the direct configuration is unchanged).
func TestResolveNetwork(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	base := providerModel{ProxyURL: types.StringNull()}
	cfg, cerr := resolveConfig(base, env(nil))
	if cerr != nil || cfg.Proxy != nil || cfg.SSHTunnel != nil {
		t.Fatalf("default: %+v %v", cfg, cerr)
	}
	cfg, _ = resolveConfig(base, env(map[string]string{"all_proxy": "socks5://p:1080", "NO_PROXY": "db.internal"}))
	if cfg.Proxy == nil || cfg.Proxy.URL != "socks5://p:1080" || cfg.Proxy.NoProxy != "db.internal" {
		t.Errorf("all_proxy: %+v", cfg.Proxy)
	}
	cfg, _ = resolveConfig(base, env(map[string]string{"ALL_PROXY": "http://p:3128"}))
	if cfg.Proxy != nil {
		t.Errorf("an HTTP ALL_PROXY was used: %+v", cfg.Proxy)
	}
	m := base
	m.ProxyURL = types.StringValue("socks5h://q:1080")
	cfg, _ = resolveConfig(m, env(map[string]string{"ALL_PROXY": "socks5://p:1080", "NO_PROXY": "x"}))
	if cfg.Proxy == nil || cfg.Proxy.URL != "socks5h://q:1080" || cfg.Proxy.NoProxy != "" {
		t.Errorf("proxy_url over ALL_PROXY: %+v", cfg.Proxy)
	}
	m = base
	m.SSHTunnel = []sshTunnelModel{{Host: types.StringValue("b"), Port: types.Int64Null(), User: types.StringValue("u"),
		PrivateKey: types.StringNull(), PrivateKeyFile: types.StringValue("k"), PrivateKeyPassphrase: types.StringNull(),
		Agent: types.BoolNull(), KnownHostsFile: types.StringNull(), HostKey: types.StringUnknown()}}
	cfg, _ = resolveConfig(m, env(nil))
	if cfg.SSHTunnel == nil || cfg.SSHTunnel.Port != 22 || cfg.SSHTunnel.PrivateKeyFile != "k" {
		t.Errorf("ssh_tunnel: %+v", cfg.SSHTunnel)
	}
	if !slices.Contains(cfg.Unknown, "ssh_tunnel.host_key") {
		t.Errorf("an unknown host_key is not recorded: %v", cfg.Unknown)
	}
}

// TestAccProvider_sshTunnelOverSocks5: with both ssh_tunnel and proxy_url, the
// SSH connection to the bastion goes through the proxy, and the database's
// connections through the bastion. The provider's TRACE log holds none of
// the secrets: the proxy's password, the key's passphrase, the private key.
func TestAccProvider_sshTunnelOverSocks5(t *testing.T) {
	acctest.PreCheck(t)
	logPath := acctest.ProviderLogToFile(t)
	sshd := acctest.StartSSHD(t)
	proxySecret := "pr0xy-" + acctest.RandName("pw")
	proxy := acctest.StartSOCKS5(t, "pgtf", proxySecret)
	role := acctest.RandName("role_chain")
	auth := fmt.Sprintf("private_key = %s\n    private_key_passphrase = %q\n    host_key = %q",
		acctest.QuoteHCL(sshd.EncryptedUserKeyPEM), sshd.UserKeyPassphrase, sshd.HostKeyLine)
	cfg := tunnelProvider(sshd, "localhost", auth, fmt.Sprintf("proxy_url = %q", "socks5h://pgtf:"+proxySecret+"@"+proxy.Addr)) +
		fmt.Sprintf(`resource "postgresql_role" "r" { name = %q }`, role)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.ComposeTestCheckFunc(
				checkForwardedTo(sshd, "localhost"),
				checkSSHConnections(sshd, 1),
				func(*terraform.State) error {
					if want := fmt.Sprintf("%s:%d", sshd.Host, sshd.Port); !slices.Equal(proxy.Targets(), []string{want}) {
						return fmt.Errorf("proxy targets = %v, want only the bastion %s", proxy.Targets(), want)
					}
					return nil
				},
			)},
			{Config: cfg, PlanOnly: true},
		},
	})
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "ssh_tunnel") {
		t.Fatalf("the provider log %s does not describe the configuration: the scan below proves nothing", logPath)
	}
	pemLines := strings.Split(strings.TrimSpace(sshd.EncryptedUserKeyPEM), "\n")
	for name, secret := range map[string]string{
		"proxy password": proxySecret, "key passphrase": sshd.UserKeyPassphrase, "private key": pemLines[len(pemLines)/2],
	} {
		if strings.Contains(string(log), secret) {
			t.Errorf("the provider log %s holds the %s", logPath, name)
		}
	}
}
