package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The Cloud SQL connector against local stand-ins: the Cloud SQL Admin API
// (an httptest server reached through PGTF_GCP_SQLADMIN_API_ENDPOINT, which
// checks the caller's OAuth2 token, gives the instance's addresses and server
// CA, and signs ephemeral client certificates with a test CA), Google's token
// endpoint (googleStandIn: the service account key's token_uri), and the
// instance's server-side proxy: a TLS endpoint on port 3307 of a loopback
// address of its own (127.x.y.z) that presents the instance's certificate
// (CN project:instance, signed by the test CA), requires a client certificate
// the Admin API stand-in signed, and relays the PostgreSQL protocol to the
// throwaway cluster. As Cloud SQL does, a connection whose certificate carries
// an IAM login token for the user it starts as is logged in without a
// password (relayed to the cluster's Unix socket, trust); any other goes to
// the cluster's TCP port, where the password is checked (scram-sha-256).

const (
	cloudSQLProject = "tfacc-proj"
	cloudSQLRegion  = "europe-west1"
	gcpAdminScope   = "https://www.googleapis.com/auth/sqlservice.admin"
	gcpLoginScope   = "https://www.googleapis.com/auth/sqlservice.login"
)

type cloudSQLStandIn struct {
	t        *testing.T
	instance string // the instance's name (not its connection name)
	api      *httptest.Server
	apiToken string            // the bearer the Admin API accepts
	iamUsers map[string]string // IAM login token -> the database user it logs in
	caKey    *ecdsa.PrivateKey
	ca       *x509.Certificate
	caPEM    string
	server   tls.Certificate
	addrs    map[string]string // PRIMARY / PRIVATE -> loopback address with a listener

	mu        sync.Mutex
	iamCerts  map[string]string // client certificate serial -> IAM database user
	certCalls []string          // "iam" or "plain", per generateEphemeralCert
	accepted  map[string]int    // address type -> connections accepted
	apiErrors []string
}

func newCloudSQLStandIn(t *testing.T, instance, apiToken string) *cloudSQLStandIn {
	t.Helper()
	s := &cloudSQLStandIn{t: t, instance: instance, apiToken: apiToken, iamUsers: map[string]string{}, iamCerts: map[string]string{},
		addrs: map[string]string{}, accepted: map[string]int{}}
	var err error
	if s.caKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tfacc Cloud SQL server CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &s.caKey.PublicKey, s.caKey)
	if err != nil {
		t.Fatal(err)
	}
	if s.ca, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	s.caPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	// the instance's certificate, as the connector verifies it without a DNS name: CN project:instance
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srvDER := s.sign(&x509.Certificate{Subject: pkix.Name{CommonName: cloudSQLProject + ":" + instance}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, &srvKey.PublicKey)
	s.server = tls.Certificate{Certificate: [][]byte{srvDER}, PrivateKey: srvKey}
	for _, typ := range []string{"PRIMARY", "PRIVATE"} {
		l, ip := listenLoopback3307(t)
		s.addrs[typ] = ip
		go s.serveProxy(l, typ)
	}
	s.api = httptest.NewServer(http.HandlerFunc(s.serveAPI))
	t.Cleanup(s.api.Close)
	return s
}

// listenLoopback3307 listens on port 3307 (the server-side proxy's, which
// the connector always dials) of a random loopback address, so that tests
// running at once each have their own.
func listenLoopback3307(t *testing.T) (net.Listener, string) {
	t.Helper()
	var err error
	for range 50 {
		ip := fmt.Sprintf("127.%d.%d.%d", 1+mrand.IntN(250), mrand.IntN(256), 1+mrand.IntN(250))
		var l net.Listener
		if l, err = net.Listen("tcp", ip+":3307"); err == nil {
			t.Cleanup(func() { _ = l.Close() })
			return l, ip
		}
	}
	t.Fatalf("no loopback address with a free port 3307: %v", err)
	return nil, ""
}

func (s *cloudSQLStandIn) sign(tmpl *x509.Certificate, pub any) []byte {
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	tmpl.SerialNumber = serial
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Minute), time.Now().Add(time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, s.ca, pub, s.caKey)
	if err != nil {
		s.t.Fatal(err)
	}
	return der
}

func (s *cloudSQLStandIn) fail(w http.ResponseWriter, code int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.apiErrors = append(s.apiErrors, msg)
	s.mu.Unlock()
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"error":{"code":%d,"message":%q}}`, code, msg)
}

func (s *cloudSQLStandIn) serveAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer "+s.apiToken {
		s.fail(w, http.StatusUnauthorized, "unexpected credentials %q", r.Header.Get("Authorization"))
		return
	}
	base := "/sql/v1beta4/projects/" + cloudSQLProject + "/instances/" + s.instance
	switch {
	case r.Method == http.MethodGet && r.URL.Path == base+"/connectSettings":
		ips := []map[string]string{}
		for typ, ip := range s.addrs {
			ips = append(ips, map[string]string{"type": typ, "ipAddress": ip})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"kind": "sql#connectSettings", "serverCaCert": map[string]string{"cert": s.caPEM}, "ipAddresses": ips,
			"region": cloudSQLRegion, "databaseVersion": "POSTGRES_15", "backendType": "SECOND_GEN", "serverCaMode": "GOOGLE_MANAGED_INTERNAL_CA",
		})
	case r.Method == http.MethodPost && r.URL.Path == base+":generateEphemeralCert":
		var req struct {
			PublicKey   string `json:"public_key"`
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			s.fail(w, http.StatusBadRequest, "request: %v", err)
			return
		}
		block, _ := pem.Decode([]byte(req.PublicKey))
		if block == nil {
			s.fail(w, http.StatusBadRequest, "no public key")
			return
		}
		pub, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			s.fail(w, http.StatusBadRequest, "public key: %v", err)
			return
		}
		user, iam := "", req.AccessToken != ""
		if iam {
			var ok bool
			if user, ok = s.iamUsers[req.AccessToken]; !ok {
				s.fail(w, http.StatusForbidden, "the access token is no IAM login's")
				return
			}
		}
		der := s.sign(&x509.Certificate{Subject: pkix.Name{CommonName: "tfacc-client"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}, pub)
		cert, _ := x509.ParseCertificate(der)
		s.mu.Lock()
		if iam {
			s.iamCerts[cert.SerialNumber.String()] = user
			s.certCalls = append(s.certCalls, "iam")
		} else {
			s.certCalls = append(s.certCalls, "plain")
		}
		s.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"ephemeralCert": map[string]string{
			"kind": "sql#sslCert", "cert": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
			"expirationTime": cert.NotAfter.UTC().Format(time.RFC3339),
		}})
	default:
		s.fail(w, http.StatusNotFound, "unexpected request %s %s", r.Method, r.URL.Path)
	}
}

// serveProxy is the instance's server-side proxy on one of its addresses.
func (s *cloudSQLStandIn) serveProxy(l net.Listener, typ string) {
	pool := x509.NewCertPool()
	pool.AddCert(s.ca)
	cfg := &tls.Config{Certificates: []tls.Certificate{s.server}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS13}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.accepted[typ]++
		s.mu.Unlock()
		go s.relay(tls.Server(c, cfg))
	}
}

func (s *cloudSQLStandIn) relay(c *tls.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := c.Handshake(); err != nil {
		return
	}
	serial := c.ConnectionState().PeerCertificates[0].SerialNumber.String()
	// the startup message: length, protocol, then name/value pairs
	var head [8]byte
	if _, err := io.ReadFull(c, head[:]); err != nil {
		return
	}
	n := binary.BigEndian.Uint32(head[:4])
	if n < 8 || n > 10000 {
		return
	}
	rest := make([]byte, n-8)
	if _, err := io.ReadFull(c, rest); err != nil {
		return
	}
	params := map[string]string{}
	fields := strings.Split(string(rest), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		params[fields[i]] = fields[i+1]
	}
	s.mu.Lock()
	iamUser, iam := s.iamCerts[serial]
	s.mu.Unlock()
	network, addr := "tcp", "127.0.0.1:"+os.Getenv("PGPORT")
	if iam && params["user"] == iamUser {
		network, addr = "unix", filepath.Join(os.Getenv("PGTF_TESTDB_DIR"), "run", ".s.PGSQL."+os.Getenv("PGPORT"))
	}
	up, err := net.DialTimeout(network, addr, 10*time.Second)
	if err != nil {
		return
	}
	defer up.Close()
	_ = c.SetDeadline(time.Time{})
	if _, err := up.Write(append(head[:], rest...)); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

func (s *cloudSQLStandIn) counts() (calls []string, accepted map[string]int, apiErrors []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := map[string]int{}
	for k, v := range s.accepted {
		a[k] = v
	}
	return append([]string{}, s.certCalls...), a, append([]string{}, s.apiErrors...)
}

// cloudSQLConfig is a provider with scheme gcppostgres and an instance
// connection name as host, written as for cyrilgdn's provider, with a role to create.
func cloudSQLConfig(host, user, args, role string) string {
	return fmt.Sprintf(`
provider "postgresql" {
  scheme    = "gcppostgres"
  host      = %q
  port      = 5432
  username  = %q
  superuser = false
%s
}
resource "postgresql_role" "r" { name = %q }
`, host, user, args, role)
}

type cloudSQLCase struct {
	login, role string
	host        string // the instance connection name as configured
	args        string // more provider arguments
	wrongArgs   string // arguments that must fail to log in ("": no such step)
	wrongErr    *regexp.Regexp
	// otherUser, when set, is an existing role other than the login's: the
	// same credentials must not log it in (the certificate is the login's)
	otherUser string
	secrets   map[string]string // must reach neither the state nor the log
	env       map[string]string
}

// testCloudSQL applies cfg through the connector, checks the role exists,
// and scans the state and the provider's log for the secrets.
func testCloudSQL(t *testing.T, s *cloudSQLStandIn, tc cloudSQLCase, loginPassword string) {
	t.Helper()
	acctest.PreCheck(t)
	if os.Getenv("PGTF_TESTDB_DIR") == "" {
		t.Fatal("PGTF_TESTDB_DIR must name the cluster's directory (scripts/testdb sets it): the stand-in relays IAM logins to its Unix socket")
	}
	env := map[string]string{"PGTF_GCP_SQLADMIN_API_ENDPOINT": s.api.URL + "/", "PGTARGETSESSIONATTRS": ""}
	for k, v := range tc.env {
		env[k] = v
	}
	for k, v := range env {
		t.Setenv(k, v)
		if v == "" {
			_ = os.Unsetenv(k)
		}
	}
	logPath := acctest.ProviderLogToFile(t)
	steps := []resource.TestStep{{
		Config: cloudSQLConfig(tc.host, tc.login, tc.args, tc.role),
		Check: func(st *terraform.State) error {
			if !roleExists(t, tc.role) {
				return fmt.Errorf("role %q was not created", tc.role)
			}
			for _, v := range tc.secrets {
				if err := acctest.StateDoesNotContain(st, v); err != nil {
					return err
				}
			}
			return nil
		},
	}}
	if tc.wrongArgs != "" {
		steps = append(steps, resource.TestStep{
			Config:      cloudSQLConfig(tc.host, tc.login, tc.wrongArgs, tc.role),
			PlanOnly:    true,
			ExpectError: tc.wrongErr,
		}, resource.TestStep{Config: cloudSQLConfig(tc.host, tc.login, tc.args, tc.role), PlanOnly: true})
	}
	if tc.otherUser != "" {
		steps = append(steps, resource.TestStep{
			Config:      cloudSQLConfig(tc.host, tc.otherUser, tc.args, tc.role),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)password authentication failed for user\s+"` + regexp.QuoteMeta(tc.otherUser) + `"`),
		}, resource.TestStep{Config: cloudSQLConfig(tc.host, tc.login, tc.args, tc.role), PlanOnly: true})
	}
	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			// an IAM login has no password the provider could know
			cloudLoginRole(t, tc.login, loginPassword)
			if tc.otherUser != "" {
				cloudLoginRole(t, tc.otherUser, loginPassword)
			}
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, tc.role),
		Steps:                    steps,
	})
	if t.Failed() {
		return
	}
	if !acctest.FileContains(t, logPath, "Cloud SQL connector") {
		t.Fatalf("the provider log %s does not show the connector: the scan would prove nothing", logPath)
	}
	if found := acctest.FileContainsAny(t, logPath, tc.secrets); len(found) > 0 {
		t.Errorf("the provider's TRACE log %s contains secrets: %s", logPath, strings.Join(found, ", "))
	}
}

// newCloudSQLFixture is a Google stand-in whose service account gets token
// for the Admin API, and a Cloud SQL stand-in accepting it.
func newCloudSQLFixture(t *testing.T) (*googleStandIn, *cloudSQLStandIn, string) {
	g := newGoogleStandIn(t)
	apiToken := "ya29.tfacc-admin-" + acctest.RandName("gcp")
	g.tokens[gcpAdminScope] = apiToken
	inst := strings.ReplaceAll(acctest.RandName("inst"), "_", "-")
	return g, newCloudSQLStandIn(t, inst, apiToken), inst
}

// TestAccProvider_regressionCloudSQLConnectionNameRefused: cyrilgdn's
// documented configuration, unchanged, was refused at validate time (the
// instance connection name as host); it now connects through the connector: scheme = "gcppostgres", host = the instance
// connection name, port, username and password of a built-in user. The
// connector asks the Admin API for the instance (with the Application
// Default Credentials' token), gets an ephemeral certificate without an IAM
// token, dials the instance's public IP (it has one: auto) and the server
// checks the password; a wrong password is refused. cyrilgdn's other
// spelling, project/region/instance, connects the same way.
func TestAccProvider_regressionCloudSQLConnectionNameRefused(t *testing.T) {
	g, s, inst := newCloudSQLFixture(t)
	login, role := acctest.RandName("csql_builtin"), acctest.RandName("role_csql")
	password := "tfacc-" + acctest.RandName("pw")
	testCloudSQL(t, s, cloudSQLCase{
		login: login, role: role, host: cloudSQLProject + ":" + cloudSQLRegion + ":" + inst,
		args:      fmt.Sprintf("  password = %q", password),
		wrongArgs: `  password = "not-the-password"`, wrongErr: regexp.MustCompile(`password\s+authentication\s+failed`),
		secrets: map[string]string{"password": password, "Admin API token": s.apiToken},
		env:     googleEnv(g.keyFile(), nil),
	}, password)
	calls, accepted, apiErrors := s.counts()
	if len(apiErrors) > 0 {
		t.Errorf("the Admin API stand-in refused requests: %v", apiErrors)
	}
	if len(calls) == 0 || strings.Contains(strings.Join(calls, ","), "iam") {
		t.Errorf("ephemeral certificates %v: want some, none with an IAM token", calls)
	}
	if accepted["PRIMARY"] == 0 || accepted["PRIVATE"] != 0 {
		t.Errorf("connections per address %v: want the public IP's only", accepted)
	}
	// the slash spelling, in a test of its own (plan only: the role exists)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "postgresql" {
  scheme    = "gcppostgres"
  host      = "%s/%s/%s"
  username  = %q
  password  = %q
  superuser = false
}
data "postgresql_role" "r" { name = %q }
`, cloudSQLProject, cloudSQLRegion, inst, login, password, login),
			Check: resource.TestCheckResourceAttr("data.postgresql_role.r", "name", login),
		}},
	})
}

// TestAccProvider_cloudSQLConnectorIAM: without a password, the connector
// logs in with automatic IAM database authentication: the ephemeral
// certificate is asked for with the Application Default Credentials'
// sqlservice.login token, and the server logs in the IAM user with no
// password (the role has a password the provider does not know). With
// gcp_ip_type = "private" it dials the private IP. Another user (not the
// token's) is refused.
func TestAccProvider_cloudSQLConnectorIAM(t *testing.T) {
	g, s, inst := newCloudSQLFixture(t)
	login, role := acctest.RandName("csql_iam")+"@"+cloudSQLProject+".iam", acctest.RandName("role_csql_iam")
	loginToken := "ya29.tfacc-login-" + acctest.RandName("gcp")
	g.tokens[gcpLoginScope] = loginToken
	s.iamUsers[loginToken] = login
	testCloudSQL(t, s, cloudSQLCase{
		login: login, role: role, host: cloudSQLProject + ":" + cloudSQLRegion + ":" + inst,
		args:      `  gcp_ip_type = "private"`,
		otherUser: acctest.RandName("csql_other"),
		secrets:   map[string]string{"IAM login token": loginToken, "Admin API token": s.apiToken},
		env:       googleEnv(g.keyFile(), nil),
	}, "unknown-to-the-provider-"+acctest.RandName("pw"))
	calls, accepted, apiErrors := s.counts()
	if len(apiErrors) > 0 {
		t.Errorf("the Admin API stand-in refused requests: %v", apiErrors)
	}
	if len(calls) == 0 || strings.Contains(strings.Join(calls, ","), "plain") {
		t.Errorf("ephemeral certificates %v: want IAM ones only", calls)
	}
	if accepted["PRIVATE"] == 0 || accepted["PRIMARY"] != 0 {
		t.Errorf("connections per address %v: want the private IP's only", accepted)
	}
}

// TestAccProvider_cloudSQLConnectorImpersonation: with
// gcp_iam_impersonate_service_account, the Application Default Credentials
// (cloud-platform) ask the IAM credentials API (stand-in) for the
// impersonated account's Admin API and login tokens; the Admin API is called
// with the former, the certificate carries the latter, and the impersonated
// account's IAM user logs in.
func TestAccProvider_cloudSQLConnectorImpersonation(t *testing.T) {
	g := newGoogleStandIn(t)
	target := strings.ReplaceAll(acctest.RandName("tfacc-db"), "_", "-") + "@" + cloudSQLProject + ".iam.gserviceaccount.com"
	g.tokens["https://www.googleapis.com/auth/cloud-platform"] = "ya29.tfacc-source-" + acctest.RandName("gcp")
	impAPI, impLogin := "ya29.tfacc-imp-admin-"+acctest.RandName("gcp"), "ya29.tfacc-imp-login-"+acctest.RandName("gcp")
	g.imp[target+" "+gcpAdminScope] = impAPI
	g.imp[target] = impLogin
	inst := strings.ReplaceAll(acctest.RandName("inst"), "_", "-")
	s := newCloudSQLStandIn(t, inst, impAPI)
	login, role := strings.TrimSuffix(target, ".gserviceaccount.com"), acctest.RandName("role_csql_imp")
	s.iamUsers[impLogin] = login
	testCloudSQL(t, s, cloudSQLCase{
		login: login, role: role, host: cloudSQLProject + ":" + cloudSQLRegion + ":" + inst,
		args:    fmt.Sprintf("  gcp_iam_impersonate_service_account = %q", target),
		secrets: map[string]string{"impersonated login token": impLogin, "impersonated Admin API token": impAPI},
		env:     googleEnv(g.keyFile(), map[string]string{"PGTF_GCP_IAM_CREDENTIALS_ENDPOINT": g.srv.URL}),
	}, "unknown-to-the-provider-"+acctest.RandName("pw"))
	if _, _, apiErrors := s.counts(); len(apiErrors) > 0 {
		t.Errorf("the Admin API stand-in refused requests: %v", apiErrors)
	}
	if g.impCalls.Load() < 2 {
		t.Errorf("%d generateAccessToken calls: want the Admin API's and the login's", g.impCalls.Load())
	}
}

// TestAccProvider_cloudSQLConnectorNoConnectionInConfigure: configuring the
// provider with an instance connection name calls no Google API: an apply
// that needs no connection makes no request to the Admin API or the token
// endpoint, and opens no connection.
func TestAccProvider_cloudSQLConnectorNoConnectionInConfigure(t *testing.T) {
	acctest.PreCheck(t)
	g, s, inst := newCloudSQLFixture(t)
	for k, v := range googleEnv(g.keyFile(), map[string]string{"PGTF_GCP_SQLADMIN_API_ENDPOINT": s.api.URL + "/"}) {
		t.Setenv(k, v)
	}
	var hits int
	var mu sync.Mutex
	orig := g.srv.Config.Handler
	g.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		orig.ServeHTTP(w, r)
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "postgresql" {
  scheme    = "gcppostgres"
  host      = "%s:%s:%s"
  username  = "nobody"
  superuser = false
}
resource "terraform_data" "x" { input = "no connection" }
`, cloudSQLProject, cloudSQLRegion, inst),
		}},
	})
	calls, accepted, _ := s.counts()
	mu.Lock()
	defer mu.Unlock()
	if hits != 0 || len(calls) != 0 || accepted["PRIMARY"]+accepted["PRIVATE"] != 0 {
		t.Errorf("planning a create called Google (%d token requests, certificates %v, connections %v)", hits, calls, accepted)
	}
}
