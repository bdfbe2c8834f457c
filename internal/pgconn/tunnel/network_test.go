package tunnel

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

func testHostKey(t *testing.T) (ssh.PublicKey, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

var testRemote = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2222}

func TestHostKeyCallback_hostKey(t *testing.T) {
	key, line := testHostKey(t)
	other, _ := testHostKey(t)
	for _, spelling := range []string{line, line + " comment", "[bastion]:2222 " + line} {
		cb, algos, err := HostKeyCallback("bastion:2222", spelling, "")
		if err != nil {
			t.Fatalf("%q: %v", spelling, err)
		}
		if len(algos) != 1 || algos[0] != ssh.KeyAlgoED25519 {
			t.Errorf("algorithms = %v, want [%s]", algos, ssh.KeyAlgoED25519)
		}
		if err := cb("bastion:2222", testRemote, key); err != nil {
			t.Errorf("the configured key was refused: %v", err)
		}
		err = cb("bastion:2222", testRemote, other)
		var hk *HostKeyError
		if !errors.As(err, &hk) {
			t.Fatalf("another key: got %v, want a HostKeyError", err)
		}
		for _, want := range []string{"bastion:2222", ssh.FingerprintSHA256(other), ssh.FingerprintSHA256(key), "host_key"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
		}
	}
	if _, _, err := HostKeyCallback("bastion:22", "not a key", ""); err == nil {
		t.Error("a malformed host_key was accepted")
	}
}

func TestHostKeyCallback_knownHosts(t *testing.T) {
	key, _ := testHostKey(t)
	other, _ := testHostKey(t)
	file := filepath.Join(t.TempDir(), "known_hosts")
	content := knownhosts.Line([]string{knownhosts.Normalize("bastion:2222")}, key) + "\n" +
		knownhosts.Line([]string{knownhosts.HashHostname(knownhosts.Normalize("hashed:22"))}, key) + "\n"
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	cb, algos, err := HostKeyCallback("bastion:2222", "", file)
	if err != nil {
		t.Fatal(err)
	}
	if len(algos) != 1 || algos[0] != ssh.KeyAlgoED25519 {
		t.Errorf("algorithms for a listed host = %v, want [%s]", algos, ssh.KeyAlgoED25519)
	}
	if err := cb("bastion:2222", testRemote, key); err != nil {
		t.Errorf("the listed key was refused: %v", err)
	}
	if err := cb("hashed:22", testRemote, key); err != nil {
		t.Errorf("the key of a hashed entry was refused: %v", err)
	}
	cases := []struct {
		host string
		key  ssh.PublicKey
		want []string
	}{
		{"bastion:2222", other, []string{"bastion:2222", ssh.FingerprintSHA256(other), "lists", ssh.FingerprintSHA256(key), file}},
		{"unknown:22", key, []string{"unknown:22", ssh.FingerprintSHA256(key), "not in the known hosts file " + file}},
	}
	for _, c := range cases {
		err := cb(c.host, testRemote, c.key)
		var hk *HostKeyError
		if !errors.As(err, &hk) {
			t.Fatalf("%s: got %v, want a HostKeyError", c.host, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.host, err, w)
			}
		}
	}
	if _, algos, _ := HostKeyCallback("unknown:22", "", file); algos != nil {
		t.Errorf("algorithms for an unknown host = %v, want all (nil)", algos)
	}
	_, _, err = HostKeyCallback("bastion:22", "", filepath.Join(t.TempDir(), "missing"))
	if err == nil || !strings.Contains(err.Error(), "host_key") {
		t.Errorf("a missing known hosts file: got %v, want an error suggesting host_key", err)
	}
}

// TestHostKeyError_notRetried: a host key failure is a setup error, which
// retrying cannot fix, unlike a refused connection.
func TestHostKeyError_notRetried(t *testing.T) {
	key, _ := testHostKey(t)
	err := &pgconn.SetupError{Err: &HostKeyError{Host: "b:22", Key: key, Reason: "x"}}
	if pgconn.IsConnectionError(err) || pgconn.IsTransient(err) {
		t.Error("a host key error is classified as a connection error or transient")
	}
}

func TestParseProxyURL(t *testing.T) {
	for _, ok := range []string{"socks5://127.0.0.1:1080", "socks5h://u:p@proxy.internal", "socks5://[::1]:1080/"} {
		if _, err := ParseProxyURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"http://proxy:3128":       `scheme "http" is not supported`,
		"socks4://proxy:1080":     `scheme "socks4"`,
		"proxy:1080":              `scheme "proxy"`,
		"socks5://":               "no proxy host",
		"socks5://proxy:99999":    "port",
		"socks5://proxy:1080/x":   "no path",
		"socks5://u:s3cret@%zz:1": "not a valid URL",
	} {
		_, err := ParseProxyURL(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", bad, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error shows the password: %v", bad, err)
		}
	}
	if r := RedactedProxyURL("socks5://user:s3cret@proxy:1080"); strings.Contains(r, "s3cret") || !strings.Contains(r, "user") {
		t.Errorf("RedactedProxyURL = %q", r)
	}
}

// echoServer accepts connections and echoes what it reads.
func echoServer(t *testing.T) string {
	t.Helper()
	return serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) { _, _ = io.Copy(c, c) })
}

// serve listens on address and runs handle for each connection (closing it
// after) until the test ends; it returns the address listened on.
func serve(t *testing.T, network, address string, handle func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { handle(c); _ = c.Close() }()
		}
	}()
	return l.Addr().String()
}

func echoes(t *testing.T, c net.Conn) {
	t.Helper()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q, %v", buf, err)
	}
}

// TestNetPath_socks5: socks5:// resolves names here, socks5h:// lets the
// proxy resolve them, NO_PROXY hosts are reached directly, and the proxy's
// password is checked (and never shown).
func TestNetPath_socks5(t *testing.T) {
	echo := echoServer(t)
	_, port, _ := net.SplitHostPort(echo)
	proxy := acctest.StartSOCKS5(t, "pgtf", "s3cret")
	ctx := context.Background()
	d := &net.Dialer{Timeout: 5 * time.Second}

	n := newNetPath(pgconn.Config{Proxy: &pgconn.Proxy{URL: "socks5h://pgtf:s3cret@" + proxy.Addr}})
	c, err := n.Dial(ctx, d, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatal(err)
	}
	echoes(t, c)
	n = newNetPath(pgconn.Config{Proxy: &pgconn.Proxy{URL: "socks5://pgtf:s3cret@" + proxy.Addr}})
	c, err = n.Dial(ctx, d, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatal(err)
	}
	echoes(t, c)
	if got, want := strings.Join(proxy.Targets(), " "), "localhost:"+port+" 127.0.0.1:"+port; got != want {
		t.Errorf("proxy targets = %q, want %q (socks5h: the name; socks5: the address resolved here)", got, want)
	}

	n = newNetPath(pgconn.Config{Proxy: &pgconn.Proxy{URL: "socks5://pgtf:s3cret@" + proxy.Addr, NoProxy: "example.com, localhost"}})
	c, err = n.Dial(ctx, d, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatal(err)
	}
	echoes(t, c)
	if len(proxy.Targets()) != 2 {
		t.Errorf("a NO_PROXY host went through the proxy: %v", proxy.Targets())
	}

	n = newNetPath(pgconn.Config{Proxy: &pgconn.Proxy{URL: "socks5://pgtf:wrong-pw@" + proxy.Addr}})
	_, err = n.Dial(ctx, d, "tcp", "localhost:"+port)
	if err == nil || proxy.AuthFailures() != 1 {
		t.Fatalf("a wrong proxy password: err = %v, failures = %d", err, proxy.AuthFailures())
	}
	if strings.Contains(err.Error(), "wrong-pw") || !strings.Contains(err.Error(), "SOCKS5 proxy socks5://pgtf:xxxxx@") {
		t.Errorf("error %q: want the proxy named without its password", err)
	}
	if !pgconn.IsConnectionError(err) {
		t.Errorf("a proxy failure is no connection error: %v", err)
	}
}

// TestNetPath_sshTunnel, against a real sshd: channels of one SSH connection
// reach a server resolved on the bastion; a lost connection is opened again
// on the next dial; the key may come from a file, an encrypted PEM or an
// agent; an unknown host key fails without retries.
func TestNetPath_sshTunnel(t *testing.T) {
	sshd := acctest.StartSSHD(t)
	echo := echoServer(t)
	_, port, _ := net.SplitHostPort(echo)
	ctx := context.Background()
	d := &net.Dialer{Timeout: 5 * time.Second}
	tunnel := pgconn.SSHTunnel{Host: sshd.Host, Port: sshd.Port, User: sshd.User, PrivateKey: sshd.UserKeyPEM, KnownHostsFile: sshd.KnownHostsFile}

	n := newNetPath(pgconn.Config{SSHTunnel: &tunnel})
	for range 3 {
		c, err := n.Dial(ctx, d, "tcp", "localhost:"+port)
		if err != nil {
			t.Fatal(err)
		}
		echoes(t, c)
	}
	if got := sshd.Connections(); got != 1 {
		t.Errorf("SSH connections = %d, want 1 shared by every channel", got)
	}
	if got := strings.Join(sshd.Forwarded(), " "); got != strings.TrimSpace(strings.Repeat("localhost:"+port+" ", 3)) {
		t.Errorf("forwarded = %q, want the name given, three times (resolved by the bastion)", got)
	}
	// a channel refused by the bastion is a dial failure, and the SSH connection stays
	if _, err := n.Dial(ctx, d, "tcp", "127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "could not open a connection to 127.0.0.1:1") {
		t.Errorf("a refused target: %v", err)
	}

	sshd.DropConnections()
	deadline := time.Now().Add(5 * time.Second)
	for n.tunnel.current() != nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c, err := n.Dial(ctx, d, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatalf("after the SSH connection was lost: %v", err)
	}
	echoes(t, c)
	if got := sshd.Connections(); got != 2 {
		t.Errorf("SSH connections after a drop = %d, want 2", got)
	}
	n.Close()
	if n.tunnel.current() != nil {
		t.Error("close left the SSH connection open")
	}

	for name, alt := range map[string]pgconn.SSHTunnel{
		"private_key_file":       {PrivateKeyFile: sshd.UserKeyFile},
		"private_key_passphrase": {PrivateKey: sshd.EncryptedUserKeyPEM, PrivateKeyPassphrase: sshd.UserKeyPassphrase},
		"host_key":               {PrivateKey: sshd.UserKeyPEM, HostKey: sshd.HostKeyLine, KnownHostsFile: "/nonexistent"},
	} {
		alt.Host, alt.Port, alt.User = sshd.Host, sshd.Port, sshd.User
		if alt.KnownHostsFile == "" && alt.HostKey == "" {
			alt.KnownHostsFile = sshd.KnownHostsFile
		}
		if alt.KnownHostsFile == "/nonexistent" {
			alt.KnownHostsFile = ""
		}
		n := newNetPath(pgconn.Config{SSHTunnel: &alt})
		c, err := n.Dial(ctx, d, "tcp", "localhost:"+port)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		echoes(t, c)
		n.Close()
	}

	// agent: an in-process agent (x/crypto's keyring) on SSH_AUTH_SOCK
	keyring := agent.NewKeyring()
	raw, err := ssh.ParseRawPrivateKey([]byte(sshd.UserKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	if err := keyring.Add(agent.AddedKey{PrivateKey: raw}); err != nil {
		t.Fatal(err)
	}
	sock := serve(t, "unix", filepath.Join(t.TempDir(), "agent.sock"), func(c net.Conn) { _ = agent.ServeAgent(keyring, c) })
	t.Setenv("SSH_AUTH_SOCK", sock)
	viaAgent := tunnel
	viaAgent.PrivateKey, viaAgent.Agent = "", true
	na := newNetPath(pgconn.Config{SSHTunnel: &viaAgent})
	c, err = na.Dial(ctx, d, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatalf("agent: %v", err)
	}
	echoes(t, c)
	na.Close()

	encrypted := tunnel
	encrypted.PrivateKey = sshd.EncryptedUserKeyPEM
	if _, err := newNetPath(pgconn.Config{SSHTunnel: &encrypted}).Dial(ctx, d, "tcp", "localhost:"+port); err == nil || !strings.Contains(err.Error(), "set private_key_passphrase") {
		t.Errorf("an encrypted key without passphrase: %v", err)
	}

	unknown := tunnel
	unknown.KnownHostsFile = filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(unknown.KnownHostsFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = newNetPath(pgconn.Config{SSHTunnel: &unknown}).Dial(ctx, d, "tcp", "localhost:"+port)
	var hk *HostKeyError
	if !errors.As(err, &hk) || !strings.Contains(err.Error(), ssh.FingerprintSHA256(sshd.HostKey)) || pgconn.IsConnectionError(err) {
		t.Errorf("an unknown host key: got %v, want a HostKeyError with the fingerprint, not retried", err)
	}
}

// TestNetPath_sshOverSocks5: with both, the SSH connection goes through the
// proxy (which sees only the bastion) and channels through the bastion.
func TestNetPath_sshOverSocks5(t *testing.T) {
	sshd := acctest.StartSSHD(t)
	proxy := acctest.StartSOCKS5(t, "", "")
	echo := echoServer(t)
	n := newNetPath(pgconn.Config{
		Proxy:     &pgconn.Proxy{URL: "socks5h://" + proxy.Addr},
		SSHTunnel: &pgconn.SSHTunnel{Host: sshd.Host, Port: sshd.Port, User: sshd.User, PrivateKey: sshd.UserKeyPEM, HostKey: sshd.HostKeyLine},
	})
	defer n.Close()
	for range 2 {
		c, err := n.Dial(context.Background(), &net.Dialer{Timeout: 5 * time.Second}, "tcp", echo)
		if err != nil {
			t.Fatal(err)
		}
		echoes(t, c)
	}
	bastion := net.JoinHostPort(sshd.Host, strconv.Itoa(sshd.Port))
	if got := proxy.Targets(); len(got) != 1 || got[0] != bastion {
		t.Errorf("proxy targets = %v, want only the bastion %s", got, bastion)
	}
	if got := sshd.Forwarded(); len(got) != 2 || got[0] != echo {
		t.Errorf("forwarded = %v, want %s twice", got, echo)
	}
}
