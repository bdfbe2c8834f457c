package tunnel

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Intervals of the keepalive requests that find a dead SSH connection.
const (
	sshKeepaliveEvery   = 30 * time.Second
	sshKeepaliveTimeout = 15 * time.Second
)

// sshTunnel holds the client's SSH connection to the bastion: opened on the
// first server connection, shared by every pool, opened again on the next
// dial after it is lost.
type sshTunnel struct {
	cfg pgconn.SSHTunnel
	out func(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) // reaches the bastion

	mu     sync.Mutex
	client *ssh.Client
}

func (t *sshTunnel) addr() string {
	return net.JoinHostPort(t.cfg.Host, strconv.Itoa(t.cfg.Port))
}

// dial opens a channel to addr (resolved on the bastion). A channel refused
// by the bastion is a dial failure (like a refused TCP connection); any other
// failure means the SSH connection is broken: it is dropped and the channel
// is asked for once more on a new one.
func (t *sshTunnel) dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	for attempt := 0; ; attempt++ {
		cl, fresh, err := t.get(ctx, d)
		if err != nil {
			return nil, err
		}
		conn, err := cl.DialContext(ctx, network, addr)
		if err == nil {
			return conn, nil
		}
		var refused *ssh.OpenChannelError
		if errors.As(err, &refused) || ctx.Err() != nil || fresh || attempt > 0 {
			return nil, fmt.Errorf("ssh_tunnel: the bastion %s could not open a connection to %s: %w", t.addr(), addr, err)
		}
		t.drop(cl)
	}
}

// get returns the SSH connection, opening it when there is none; fresh tells
// a connection opened by this call.
func (t *sshTunnel) get(ctx context.Context, d *net.Dialer) (_ *ssh.Client, fresh bool, _ error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.client != nil {
		return t.client, false, nil
	}
	cl, err := t.connect(ctx, d)
	if err != nil {
		return nil, false, err
	}
	t.client = cl
	done := make(chan struct{})
	go func() {
		_ = cl.Wait()
		close(done)
		t.drop(cl)
	}()
	go t.keepalive(cl, done)
	return cl, true, nil
}

// drop forgets cl (if it is still the current connection) and closes it: the
// next dial opens a new one.
func (t *sshTunnel) drop(cl *ssh.Client) {
	t.mu.Lock()
	if t.client == cl {
		t.client = nil
	}
	t.mu.Unlock()
	_ = cl.Close()
}

func (t *sshTunnel) close() {
	t.mu.Lock()
	cl := t.client
	t.client = nil
	t.mu.Unlock()
	if cl != nil {
		_ = cl.Close()
	}
}

// keepalive asks the bastion for a reply every sshKeepaliveEvery and drops
// the connection when none comes (a bastion that vanished without closing
// the TCP connection).
func (t *sshTunnel) keepalive(cl *ssh.Client, done <-chan struct{}) {
	tick := time.NewTicker(sshKeepaliveEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		res := make(chan error, 1)
		go func() {
			_, _, err := cl.SendRequest("keepalive@openssh.com", true, nil)
			res <- err
		}()
		timer := time.NewTimer(sshKeepaliveTimeout)
		select {
		case err := <-res:
			timer.Stop()
			if err != nil {
				t.drop(cl)
				return
			}
		case <-timer.C:
			t.drop(cl)
			return
		case <-done:
			timer.Stop()
			return
		}
	}
}

// connect opens the SSH connection: TCP (through the proxy, if any), host
// key verification, user authentication, all within ctx.
func (t *sshTunnel) connect(ctx context.Context, d *net.Dialer) (*ssh.Client, error) {
	addr := t.addr()
	auth, closeAuth, err := t.authMethods()
	if err != nil {
		return nil, &pgconn.SetupError{Err: err}
	}
	defer closeAuth()
	hostKey, algorithms, err := t.hostKeyCallback(addr)
	if err != nil {
		return nil, &pgconn.SetupError{Err: err}
	}
	conn, err := t.out(ctx, d, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ssh_tunnel: connecting to the bastion %s: %w", addr, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	cc, chans, reqs, err := ssh.NewClientConn(conn, addr, &ssh.ClientConfig{
		User:              t.cfg.User,
		Auth:              auth,
		HostKeyCallback:   hostKey,
		HostKeyAlgorithms: algorithms,
	})
	stop()
	if err != nil {
		_ = conn.Close()
		var hk *HostKeyError
		switch {
		case errors.As(err, &hk):
			return nil, &pgconn.SetupError{Err: hk}
		case strings.Contains(err.Error(), "unable to authenticate"):
			return nil, &pgconn.SetupError{Err: fmt.Errorf("ssh_tunnel: the bastion %s refused user %q with the configured key: %w", addr, t.cfg.User, err)}
		case ctx.Err() != nil:
			return nil, fmt.Errorf("ssh_tunnel: connecting to the bastion %s: %w", addr, errors.Join(err, ctx.Err()))
		}
		return nil, fmt.Errorf("ssh_tunnel: connecting to the bastion %s: %w", addr, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return ssh.NewClient(cc, chans, reqs), nil
}

// authMethods reads the configured authentication source; the returned
// function closes the agent's socket.
func (t *sshTunnel) authMethods() ([]ssh.AuthMethod, func(), error) {
	if t.cfg.Agent {
		sock := os.Getenv("SSH_AUTH_SOCK")
		if sock == "" {
			return nil, nil, errors.New("ssh_tunnel: agent = true, but SSH_AUTH_SOCK is not set (no SSH agent is running in Terraform's environment)")
		}
		conn, err := net.Dial("unix", sock) //nolint:gosec // G704: the user's own SSH agent socket (SSH_AUTH_SOCK), as ssh(1) uses it
		if err != nil {
			return nil, nil, fmt.Errorf("ssh_tunnel: connecting to the SSH agent at SSH_AUTH_SOCK: %w", err)
		}
		ag := agent.NewClient(conn)
		return []ssh.AuthMethod{ssh.PublicKeysCallback(ag.Signers)}, func() { _ = conn.Close() }, nil
	}
	pemBytes := []byte(t.cfg.PrivateKey)
	what := "private_key"
	if t.cfg.PrivateKeyFile != "" {
		what = "private_key_file " + t.cfg.PrivateKeyFile
		b, err := os.ReadFile(expandHome(t.cfg.PrivateKeyFile))
		if err != nil {
			return nil, nil, fmt.Errorf("ssh_tunnel: reading private_key_file: %w", err)
		}
		pemBytes = b
	}
	var signer ssh.Signer
	var err error
	if t.cfg.PrivateKeyPassphrase != "" {
		signer, err = ssh.ParsePrivateKeyWithPassphrase(pemBytes, []byte(t.cfg.PrivateKeyPassphrase))
	} else {
		signer, err = ssh.ParsePrivateKey(pemBytes)
	}
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		return nil, nil, fmt.Errorf("ssh_tunnel: the key in %s is encrypted: set private_key_passphrase", what)
	}
	if err != nil {
		// the parser's message never quotes the key
		return nil, nil, fmt.Errorf("ssh_tunnel: parsing the key in %s: %w", what, err)
	}
	return []ssh.AuthMethod{ssh.PublicKeys(signer)}, func() {}, nil
}

// HostKeyError is a bastion whose host key is not the expected one: unknown
// to known_hosts_file, different from the one it lists, revoked, or not
// host_key.
type HostKeyError struct {
	Host   string // host:port as the client named it
	Key    ssh.PublicKey
	Reason string
}

func (e *HostKeyError) Error() string {
	return fmt.Sprintf("ssh_tunnel: host key verification failed for the bastion %s, which presented the %s key %s: %s",
		e.Host, e.Key.Type(), ssh.FingerprintSHA256(e.Key), e.Reason)
}

// hostKeyCallback verifies the bastion's key against host_key, or else
// known_hosts_file; it also returns the host key algorithms to ask for (those
// of the expected keys, so a bastion with several keys shows the listed one).
func (t *sshTunnel) hostKeyCallback(addr string) (ssh.HostKeyCallback, []string, error) {
	return HostKeyCallback(addr, t.cfg.HostKey, t.cfg.KnownHostsFile)
}

// HostKeyCallback builds the host key verification of the bastion at addr
// (host:port): against hostKey (a public key in authorized_keys or
// known_hosts format) when set, else against the known_hosts file
// knownHostsFile ("" = ~/.ssh/known_hosts). An unknown or different key is a
// *HostKeyError naming the presented key's SHA256 fingerprint.
func HostKeyCallback(addr, hostKey, knownHostsFile string) (ssh.HostKeyCallback, []string, error) {
	if hostKey != "" {
		want, err := ParseHostKey(hostKey)
		if err != nil {
			return nil, nil, fmt.Errorf("ssh_tunnel: host_key: %w", err)
		}
		cb := func(hostname string, _ net.Addr, key ssh.PublicKey) error {
			if bytes.Equal(key.Marshal(), want.Marshal()) {
				return nil
			}
			return &HostKeyError{Host: hostname, Key: key, Reason: fmt.Sprintf(
				"host_key is the %s key %s. The bastion's key changed, or something is intercepting the connection; "+
					"check the fingerprint with the bastion's administrator before changing host_key", want.Type(), ssh.FingerprintSHA256(want))}
		}
		return cb, algorithmsFor([]ssh.PublicKey{want}), nil
	}
	file := knownHostsFile
	if file == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, nil, fmt.Errorf("ssh_tunnel: finding ~/.ssh/known_hosts: %w; set known_hosts_file or host_key", err)
		}
		file = filepath.Join(home, ".ssh", "known_hosts")
	}
	file = expandHome(file)
	check, err := knownhosts.New(file)
	if err != nil {
		return nil, nil, fmt.Errorf("ssh_tunnel: reading the known hosts file %s: %w; "+
			"add the bastion's key to it (after checking its fingerprint with the bastion's administrator) or set host_key", file, err)
	}
	cb := func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := check(hostname, remote, key)
		var ke *knownhosts.KeyError
		var revoked *knownhosts.RevokedError
		switch {
		case errors.As(err, &ke) && len(ke.Want) == 0:
			return &HostKeyError{Host: hostname, Key: key, Reason: fmt.Sprintf(
				"the host is not in the known hosts file %s. Check this fingerprint with the bastion's administrator, "+
					"then add the key to that file (the line `ssh-keyscan -p <port> <host>` prints) or set host_key", file)}
		case errors.As(err, &ke):
			var lines []string
			for _, k := range ke.Want {
				lines = append(lines, fmt.Sprintf("%s key %s (%s:%d)", k.Key.Type(), ssh.FingerprintSHA256(k.Key), k.Filename, k.Line))
			}
			return &HostKeyError{Host: hostname, Key: key, Reason: fmt.Sprintf(
				"the known hosts file lists %s. The bastion's key changed, or something is intercepting the connection; "+
					"check the fingerprint with the bastion's administrator before updating the file", strings.Join(lines, ", "))}
		case errors.As(err, &revoked):
			return &HostKeyError{Host: hostname, Key: key, Reason: "the key is revoked (@revoked) in " + revoked.Revoked.String()}
		}
		return err
	}
	return cb, knownAlgorithms(check, addr), nil
}

// ParseHostKey parses a public key line: authorized_keys format
// ("ssh-ed25519 AAAA... comment") or a known_hosts line ("host ssh-ed25519 AAAA...").
func ParseHostKey(s string) (ssh.PublicKey, error) {
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(s))
	if err == nil {
		return key, nil
	}
	if _, _, key, _, _, err := ssh.ParseKnownHosts([]byte(s)); err == nil {
		return key, nil
	}
	return nil, errors.New("not a public key line such as \"ssh-ed25519 AAAA...\" (as in authorized_keys, known_hosts or the .pub file of the host key)")
}

// knownAlgorithms asks the known hosts file which keys it has for addr (by
// offering a key it cannot hold) and returns their algorithms; nil (every
// algorithm) when it has none.
func knownAlgorithms(check ssh.HostKeyCallback, addr string) []string {
	probe, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public())
	if err != nil {
		return nil
	}
	var ke *knownhosts.KeyError
	if err := check(addr, &net.TCPAddr{IP: net.IPv4zero}, probe); !errors.As(err, &ke) || len(ke.Want) == 0 {
		return nil
	}
	keys := make([]ssh.PublicKey, 0, len(ke.Want))
	for _, k := range ke.Want {
		keys = append(keys, k.Key)
	}
	return algorithmsFor(keys)
}

func algorithmsFor(keys []ssh.PublicKey) []string {
	var out []string
	add := func(a ...string) {
		for _, s := range a {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	for _, k := range keys {
		if k.Type() == ssh.KeyAlgoRSA {
			add(ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA)
		} else {
			add(k.Type())
		}
	}
	return out
}

// expandHome replaces a leading ~/ with the home directory.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

// current returns the open SSH connection, or nil (for tests).
func (t *sshTunnel) current() *ssh.Client {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.client
}
