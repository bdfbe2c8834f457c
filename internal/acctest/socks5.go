package acctest

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"
)

// SOCKS5 is a small SOCKS5 server (RFC 1928: CONNECT only; no authentication,
// or username/password per RFC 1929) standing in for a network's proxy. It
// records the target of every CONNECT as the client sent it (a name or an
// address), so tests can tell where names were resolved.
type SOCKS5 struct {
	Addr string
	// User and Password, when User is set, are required from clients.
	User, Password string

	mu           sync.Mutex
	targets      []string
	authFailures int
}

// StartSOCKS5 starts a SOCKS5 server on 127.0.0.1 for t; with user set,
// clients must authenticate with user and password.
func StartSOCKS5(t *testing.T, user, password string) *SOCKS5 {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SOCKS5{Addr: l.Addr().String(), User: user, Password: password}
	var wg sync.WaitGroup
	var open sync.Map
	t.Cleanup(func() {
		_ = l.Close()
		open.Range(func(k, _ any) bool { _ = k.(net.Conn).Close(); return true })
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			open.Store(c, nil)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer open.Delete(c)
				s.serve(c)
			}()
		}
	}()
	return s
}

// Targets lists the targets of the CONNECT requests served so far.
func (s *SOCKS5) Targets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.targets...)
}

// AuthFailures reports how many clients gave a wrong user name or password.
func (s *SOCKS5) AuthFailures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authFailures
}

func (s *SOCKS5) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	// greeting: VER NMETHODS METHODS
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(c, hdr); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return
	}
	want := byte(0x00)
	if s.User != "" {
		want = 0x02
	}
	offered := false
	for _, m := range methods {
		offered = offered || m == want
	}
	if !offered {
		_, _ = c.Write([]byte{5, 0xff})
		return
	}
	_, _ = c.Write([]byte{5, want})
	if want == 0x02 && !s.authenticate(c) {
		return
	}
	// request: VER CMD RSV ATYP DST.ADDR DST.PORT
	req := make([]byte, 4)
	if _, err := io.ReadFull(c, req); err != nil || req[0] != 5 {
		return
	}
	host, err := readAddr(c, req[3])
	if err != nil {
		return
	}
	portBytes := make([]byte, 2)
	if _, err := io.ReadFull(c, portBytes); err != nil {
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(portBytes))))
	if req[1] != 1 { // CONNECT only
		_, _ = c.Write([]byte{5, 7, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	s.mu.Lock()
	s.targets = append(s.targets, target)
	s.mu.Unlock()
	up, err := net.DialTimeout("tcp", target, 10*time.Second)
	if err != nil {
		_, _ = c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0}) // connection refused
		return
	}
	reply := []byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0}
	if a, ok := up.LocalAddr().(*net.TCPAddr); ok && a.IP.To4() != nil {
		copy(reply[4:8], a.IP.To4())
		binary.BigEndian.PutUint16(reply[8:], uint16(a.Port))
	}
	if _, err := c.Write(reply); err != nil {
		_ = up.Close()
		return
	}
	_ = c.SetDeadline(time.Time{})
	pipe(c, up)
}

// authenticate runs RFC 1929: VER ULEN UNAME PLEN PASSWD.
func (s *SOCKS5) authenticate(c net.Conn) bool {
	b := make([]byte, 2)
	if _, err := io.ReadFull(c, b); err != nil || b[0] != 1 {
		return false
	}
	name := make([]byte, b[1])
	if _, err := io.ReadFull(c, name); err != nil {
		return false
	}
	if _, err := io.ReadFull(c, b[:1]); err != nil {
		return false
	}
	pw := make([]byte, b[0])
	if _, err := io.ReadFull(c, pw); err != nil {
		return false
	}
	if string(name) != s.User || string(pw) != s.Password {
		s.mu.Lock()
		s.authFailures++
		s.mu.Unlock()
		_, _ = c.Write([]byte{1, 1})
		return false
	}
	_, err := c.Write([]byte{1, 0})
	return err == nil
}

func readAddr(r io.Reader, atyp byte) (string, error) {
	switch atyp {
	case 1, 4:
		n := 4
		if atyp == 4 {
			n = 16
		}
		ip := make([]byte, n)
		if _, err := io.ReadFull(r, ip); err != nil {
			return "", err
		}
		return net.IP(ip).String(), nil
	case 3:
		l := make([]byte, 1)
		if _, err := io.ReadFull(r, l); err != nil {
			return "", err
		}
		name := make([]byte, l[0])
		if _, err := io.ReadFull(r, name); err != nil {
			return "", err
		}
		return string(name), nil
	}
	return "", errors.New("unknown address type")
}
