package acctest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SSHDPath is the OpenSSH server the tests run (Debian package openssh-server).
const SSHDPath = "/usr/sbin/sshd"

// SSHD is a real OpenSSH server started for one test, as a bastion in front
// of the throwaway cluster: on 127.0.0.1, with a generated host key and user
// key, logging at DEBUG1 to a buffer. Clients reach it through a forwarder
// (Host:Port) that counts the TCP connections it accepts and can cut them all,
// as a network failure would.
type SSHD struct {
	Host string
	Port int
	User string
	// HostKey is the server's public host key, HostKeyLine the same in
	// authorized_keys format.
	HostKey     ssh.PublicKey
	HostKeyLine string
	// UserKeyPEM is the user's private key (OpenSSH format), UserKeyFile the
	// same in a file; EncryptedUserKeyPEM is it encrypted with UserKeyPassphrase.
	UserKeyPEM          string
	UserKeyFile         string
	EncryptedUserKeyPEM string
	UserKeyPassphrase   string
	UserSigner          ssh.Signer
	// KnownHostsFile lists HostKey for [Host]:Port.
	KnownHostsFile string
	Dir            string

	log *syncBuffer
	fwd *forwarder
}

// StartSSHD starts sshd for t and stops it when t ends. Without the sshd
// binary the test is skipped, except under CI=true where it fails.
func StartSSHD(t *testing.T) *SSHD {
	t.Helper()
	if _, err := os.Stat(SSHDPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (Debian package openssh-server; .ci/run installs it): %v", SSHDPath, err)
		}
		t.Skipf("needs OpenSSH's sshd at %s (Debian package openssh-server)", SSHDPath)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &SSHD{Host: "127.0.0.1", User: u.Username, Dir: dir, log: &syncBuffer{}}

	hostPub, hostPEM := newSSHKey(t, "")
	userPub, userPEM := newSSHKey(t, "")
	s.HostKey = hostPub
	s.HostKeyLine = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(hostPub)))
	s.UserKeyPEM = string(userPEM)
	s.UserKeyPassphrase = "pgtf test passphrase"
	signer, err := ssh.ParsePrivateKey(userPEM)
	if err != nil {
		t.Fatal(err)
	}
	s.UserSigner = signer
	s.EncryptedUserKeyPEM = string(encryptSSHKey(t, userPEM, s.UserKeyPassphrase))
	s.UserKeyFile = filepath.Join(dir, "id_ed25519")
	writeFile(t, s.UserKeyFile, string(userPEM))
	writeFile(t, filepath.Join(dir, "host_ed25519"), string(hostPEM))
	writeFile(t, filepath.Join(dir, "authorized_keys"), string(ssh.MarshalAuthorizedKey(userPub)))

	if os.Geteuid() == 0 {
		_ = os.MkdirAll("/run/sshd", 0o755) // sshd's privilege separation directory
	}
	// As root, sshd checks no account state itself with PAM off. As another
	// user it cannot read /etc/shadow and, without PAM, takes the account for
	// locked: PAM's account check (through its setgid helper) decides then.
	usePAM := "no"
	if os.Geteuid() != 0 {
		usePAM = "yes"
	}
	var cmd *exec.Cmd
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		conf := filepath.Join(dir, "sshd_config")
		writeFile(t, conf, fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
UsePAM %s
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowTcpForwarding yes
AllowStreamLocalForwarding yes
PermitOpen any
MaxStartups 100
LogLevel DEBUG1
`, port, filepath.Join(dir, "host_ed25519"), filepath.Join(dir, "authorized_keys"), filepath.Join(dir, "sshd.pid"), usePAM))
		cmd = exec.Command(SSHDPath, "-D", "-e", "-f", conf)
		cmd.Stdout, cmd.Stderr = s.log, s.log
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its per-connection children too
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting sshd: %v", err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		if waitListening(fmt.Sprintf("127.0.0.1:%d", port), exited) {
			s.fwd = newForwarder(t, fmt.Sprintf("127.0.0.1:%d", port))
			t.Cleanup(func() {
				s.fwd.close()
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
				select {
				case <-exited:
				case <-time.After(5 * time.Second):
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
					<-exited
				}
				if t.Failed() {
					t.Logf("sshd log:\n%s", s.Log())
				}
			})
			break
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		if attempt == 2 {
			t.Fatalf("sshd did not start:\n%s", s.Log())
		}
	}
	s.Port = s.fwd.port()
	line := knownhosts.Line([]string{knownhosts.Normalize(fmt.Sprintf("%s:%d", s.Host, s.Port))}, hostPub)
	s.KnownHostsFile = filepath.Join(dir, "known_hosts")
	writeFile(t, s.KnownHostsFile, line+"\n")
	return s
}

// Connections reports how many TCP connections clients opened to the server.
func (s *SSHD) Connections() int64 { return s.fwd.accepted.Load() }

// DropConnections cuts every open client connection, as a network failure would.
func (s *SSHD) DropConnections() { s.fwd.dropAll() }

// Log returns sshd's log so far.
func (s *SSHD) Log() string { return s.log.String() }

var directTCPIPRe = regexp.MustCompile(`server_request_direct_tcpip: originator \S+ port \d+, target (\S+) port (\d+)`)

// Forwarded lists the targets (host:port) of the TCP forwarding channels
// (direct-tcpip) clients opened so far. sshd's log reaches the buffer through
// a pipe, after the channel it tells of is already in use: Forwarded first
// waits for the log to stop growing (100 ms without a new byte, at most 2 s).
func (s *SSHD) Forwarded() []string {
	log := s.Log()
	for quiet, deadline := time.Now(), time.Now().Add(2*time.Second); time.Since(quiet) < 100*time.Millisecond && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if now := s.Log(); len(now) != len(log) {
			log, quiet = now, time.Now()
		}
	}
	var out []string
	for _, m := range directTCPIPRe.FindAllStringSubmatch(log, -1) {
		out = append(out, net.JoinHostPort(m[1], m[2]))
	}
	return out
}

// OtherHostKey returns a host key line the server does not have.
func OtherHostKey(t *testing.T) (ssh.PublicKey, string) {
	t.Helper()
	pub, _ := newSSHKey(t, "")
	return pub, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

func newSSHKey(t *testing.T, comment string) (ssh.PublicKey, []byte) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sshPub, pem.EncodeToMemory(block)
}

func encryptSSHKey(t *testing.T, keyPEM []byte, passphrase string) []byte {
	t.Helper()
	raw, err := ssh.ParseRawPrivateKey(keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKeyWithPassphrase(raw, "", []byte(passphrase))
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(block)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(addr string, exited <-chan struct{}) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// forwarder relays TCP connections to a target, counting them, and can cut them all.
type forwarder struct {
	l        net.Listener
	target   string
	accepted atomic.Int64
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
}

func newForwarder(t *testing.T, target string) *forwarder {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &forwarder{l: l, target: target, conns: map[net.Conn]struct{}{}}
	go f.serve()
	return f
}

func (f *forwarder) port() int { return f.l.Addr().(*net.TCPAddr).Port }

func (f *forwarder) serve() {
	for {
		c, err := f.l.Accept()
		if err != nil {
			return
		}
		f.accepted.Add(1)
		go f.relay(c)
	}
}

func (f *forwarder) relay(c net.Conn) {
	up, err := net.DialTimeout("tcp", f.target, 10*time.Second)
	if err != nil {
		_ = c.Close()
		return
	}
	f.mu.Lock()
	f.conns[c], f.conns[up] = struct{}{}, struct{}{}
	f.mu.Unlock()
	pipe(c, up)
	f.mu.Lock()
	delete(f.conns, c)
	delete(f.conns, up)
	f.mu.Unlock()
}

func (f *forwarder) dropAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		_ = c.Close()
	}
}

func (f *forwarder) close() {
	_ = f.l.Close()
	f.dropAll()
}

// pipe copies both ways until either side ends, then closes both.
func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	_ = a.Close()
	_ = b.Close()
	<-done
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Tunnel is a local TCP relay to a target (as `ssh -L` or a VPN name in
// front of a server would be), counting the connections it relays.
type Tunnel struct{ f *forwarder }

// StartTunnel relays 127.0.0.1:<Port()> to target until the test ends.
func StartTunnel(t *testing.T, target string) *Tunnel {
	t.Helper()
	f := newForwarder(t, target)
	t.Cleanup(f.close)
	return &Tunnel{f: f}
}

// Port is the local port of the tunnel.
func (tn *Tunnel) Port() int { return tn.f.port() }

// Connections reports how many connections the tunnel relayed.
func (tn *Tunnel) Connections() int64 { return tn.f.accepted.Load() }
