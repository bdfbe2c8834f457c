package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

type testCert struct {
	certPEM, keyPEM []byte
	cert            *x509.Certificate
	key             *ecdsa.PrivateKey
}

// newTestCert makes a CA (parent nil), or a client or server certificate
// signed by parent; a server certificate names 127.0.0.1 and localhost, or
// only the DNS names given.
func newTestCert(t *testing.T, cn string, parent *testCert, server bool, dnsNames ...string) *testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
	}
	signer, signerKey := tmpl, key
	if parent == nil { // CA
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature
	} else {
		signer, signerKey = parent.cert, parent.key
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		if server {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
			tmpl.DNSNames = []string{"localhost"}
			if len(dnsNames) > 0 {
				tmpl.IPAddresses, tmpl.DNSNames = nil, dnsNames
			}
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	keyDER, _ := x509.MarshalECPrivateKey(key)
	return &testCert{
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		cert:    cert, key: key,
	}
}

// enableClusterTLS turns TLS on in the throwaway cluster (server certificate
// signed by a test CA, client certificates accepted for role certUser with
// `hostssl ... cert`). It needs the cluster's directory.
func enableClusterTLS(t *testing.T, certUser string, ca *testCert) {
	t.Helper()
	enableClusterTLSWith(t, certUser, ca, newTestCert(t, "127.0.0.1", ca, true))
}

// enableClusterTLSWith is enableClusterTLS with the server certificate srv;
// certUser "" adds no client certificate rule.
func enableClusterTLSWith(t *testing.T, certUser string, ca, srv *testCert) {
	t.Helper()
	dir := os.Getenv("PGTF_TESTDB_DIR")
	if dir == "" {
		t.Skip("needs the throwaway cluster's directory (PGTF_TESTDB_DIR, set by scripts/testdb)")
	}
	data := filepath.Join(dir, "data")
	st, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	uid, gid := int(st.Sys().(*syscall.Stat_t).Uid), int(st.Sys().(*syscall.Stat_t).Gid)
	tlsDir := filepath.Join(dir, "tls-"+certUser)
	if certUser == "" {
		tlsDir = filepath.Join(dir, fmt.Sprintf("tls-%x", srv.cert.SerialNumber))
	}
	if err := os.MkdirAll(tlsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"server.crt": srv.certPEM, "server.key": srv.keyPEM, "ca.crt": ca.certPEM}
	for name, content := range files {
		p := filepath.Join(tlsDir, name)
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Chown(p, uid, gid) // the server's OS user must read its key (as root: postgres)
	}
	_ = os.Chown(tlsDir, uid, gid)
	// client certificates of certUser are trusted for it; every other rule stays
	if certUser != "" {
		hba := filepath.Join(data, "pg_hba.conf")
		old, err := os.ReadFile(hba)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("hostssl all %s 127.0.0.1/32 cert\n", certUser)
		if err := os.WriteFile(hba, append([]byte(line), old...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	acctest.Exec(t, "",
		fmt.Sprintf(`ALTER SYSTEM SET ssl_cert_file = '%s'`, filepath.Join(tlsDir, "server.crt")),
		fmt.Sprintf(`ALTER SYSTEM SET ssl_key_file = '%s'`, filepath.Join(tlsDir, "server.key")),
		fmt.Sprintf(`ALTER SYSTEM SET ssl_ca_file = '%s'`, filepath.Join(tlsDir, "ca.crt")),
		`ALTER SYSTEM SET ssl = on`,
		`SELECT pg_reload_conf()`)
	time.Sleep(time.Second) // the postmaster applies the reload asynchronously
}

// TestAccProvider_tlsClientCertificate: sslmode = verify-full with
// sslrootcert, and certificate authentication with clientcert given inline
// and as file paths.
func TestAccProvider_tlsClientCertificate(t *testing.T) {
	certUser := acctest.RandName("cert_admin")
	name := acctest.RandName("role_tls")
	ca := newTestCert(t, "pgtf test CA", nil, false)
	client := newTestCert(t, certUser, ca, false)
	certDir := t.TempDir()
	caFile, certFile, keyFile := filepath.Join(certDir, "ca.crt"), filepath.Join(certDir, "client.crt"), filepath.Join(certDir, "client.key")
	for p, c := range map[string][]byte{caFile: ca.certPEM, certFile: client.certPEM, keyFile: client.keyPEM} {
		if err := os.WriteFile(p, c, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := func(clientcert string) string {
		return fmt.Sprintf(`
provider "postgresql" {
  host        = "127.0.0.1"
  username    = %q
  password    = ""
  sslmode     = "verify-full"
  sslrootcert = %q
  superuser   = false
  clientcert {
    %s
  }
}
resource "postgresql_role" "r" { name = %q }
`, certUser, caFile, clientcert, name)
	}
	inline := fmt.Sprintf("cert = %s\n    key = %s\n    sslinline = true", acctest.QuoteHCL(string(client.certPEM)), acctest.QuoteHCL(string(client.keyPEM)))
	files := fmt.Sprintf("cert = %q\n    key = %q", certFile, keyFile)
	checkSSL := func(*terraform.State) error {
		ok := acctest.QueryBool(t, "", `SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)`, name)
		if !ok {
			return fmt.Errorf("role %q was not created over TLS", name)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Exec(t, "", fmt.Sprintf(`CREATE ROLE %q LOGIN CREATEROLE`, certUser))
			t.Cleanup(func() { acctest.Exec(t, "", fmt.Sprintf(`DROP ROLE IF EXISTS %q`, certUser)) })
			enableClusterTLS(t, certUser, ca)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{Config: cfg(inline), Check: checkSSL},
			{Config: cfg(files), PlanOnly: true},
			{ // a wrong CA fails verification instead of silently connecting
				Config:      strings.Replace(cfg(files), caFile, certFile, 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`certificate|x509|tls`),
			},
			{Config: cfg(files), PlanOnly: true},
		},
	})
}
