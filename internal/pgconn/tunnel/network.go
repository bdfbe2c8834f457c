package tunnel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	pgxconn "github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/net/proxy"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ParseProxyURL checks a proxy URL: socks5:// or socks5h://, a host, no path.
func ParseProxyURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the whole URL, password included
		return nil, errors.New("not a valid URL")
	}
	switch u.Scheme {
	case "socks5", "socks5h":
	default:
		return nil, fmt.Errorf("the scheme %q is not supported: use socks5:// (names resolved on this machine) or socks5h:// (names resolved by the proxy)", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("the URL names no proxy host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("the port %q is not between 1 and 65535", p)
		}
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("a proxy URL has no path, query or fragment")
	}
	return u, nil
}

// RedactedProxyURL is the proxy URL with its password replaced, for logs and messages.
func RedactedProxyURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	return u.Redacted()
}

// netPath is how the client reaches the server when it is not a plain
// connection from this machine: through a SOCKS5 proxy, an SSH bastion, or an
// SSH bastion reached through the proxy. A nil *netPath dials directly.
type netPath struct {
	proxy  *socksProxy // nil: this machine's network
	tunnel *sshTunnel  // nil: no bastion
	err    error       // a configuration the client cannot use
}

// New returns the route through the SSH bastion and/or SOCKS5 proxy of cfg
// (pgconn.Connectors.Network).
func New(cfg pgconn.Config) pgconn.Route {
	return newNetPath(cfg)
}

func newNetPath(cfg pgconn.Config) *netPath {
	n := &netPath{}
	if cfg.Proxy != nil {
		u, err := ParseProxyURL(cfg.Proxy.URL)
		if err != nil {
			n.err = fmt.Errorf("proxy %s: %w", RedactedProxyURL(cfg.Proxy.URL), err)
			return n
		}
		n.proxy = &socksProxy{url: u, remoteDNS: u.Scheme == "socks5h", noProxy: cfg.Proxy.NoProxy}
	}
	if cfg.SSHTunnel != nil {
		n.tunnel = &sshTunnel{cfg: *cfg.SSHTunnel, out: n.dialOut}
	}
	return n
}

// Adjust sets what pgx needs for the path: with a bastion or a proxy the
// server's host name is not resolved here but given to the dialer as it is
// (the bastion resolves it; socks5h: the proxy; socks5: the dialer, after
// NO_PROXY is checked against the name).
func (n *netPath) Adjust(pc *pgxconn.Config) {
	if n == nil {
		return
	}
	pc.LookupFunc = func(_ context.Context, host string) ([]string, error) { return []string{host}, nil }
}

// Dial opens a connection to the server at addr, as the client's dialer's d would.
func (n *netPath) Dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	if n == nil {
		return d.DialContext(ctx, network, addr)
	}
	if n.err != nil {
		return nil, &pgconn.SetupError{Err: n.err}
	}
	if n.tunnel != nil {
		return n.tunnel.dial(ctx, d, network, addr)
	}
	return n.dialOut(ctx, d, network, addr)
}

// dialOut reaches addr from this machine: through the proxy unless NO_PROXY
// names it; a Unix socket is always local.
func (n *netPath) dialOut(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	if n.proxy == nil || strings.HasPrefix(network, "unix") {
		return d.DialContext(ctx, network, addr)
	}
	return n.proxy.dial(ctx, d, network, addr)
}

// Close closes the bastion's connection, if any.
func (n *netPath) Close() {
	if n != nil && n.tunnel != nil {
		n.tunnel.close()
	}
}

type socksProxy struct {
	url       *url.URL
	remoteDNS bool
	noProxy   string
}

func (p *socksProxy) dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	socks, err := proxy.FromURL(p.url, d)
	if err != nil {
		return nil, &pgconn.SetupError{Err: fmt.Errorf("proxy %s: %w", p.url.Redacted(), err)}
	}
	via := viaProxy{d: socks.(proxy.ContextDialer), localDNS: !p.remoteDNS}
	var dialer proxy.ContextDialer = via
	if p.noProxy != "" {
		ph := proxy.NewPerHost(via, d)
		ph.AddFromString(p.noProxy)
		dialer = ph
	}
	conn, err := dialer.DialContext(ctx, network, addr)
	if err != nil {
		// the socks package's errors name the proxy's address, never its credentials
		return nil, fmt.Errorf("through SOCKS5 proxy %s: %w", p.url.Redacted(), err)
	}
	return conn, nil
}

// viaProxy dials through the SOCKS5 proxy; with localDNS (socks5://) it
// resolves a host name on this machine and asks the proxy for its addresses
// in turn, as curl does.
type viaProxy struct {
	d        proxy.ContextDialer
	localDNS bool
}

func (v viaProxy) Dial(network, addr string) (net.Conn, error) {
	return v.DialContext(context.Background(), network, addr)
}

func (v viaProxy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || !v.localDNS || net.ParseIP(host) != nil {
		return v.d.DialContext(ctx, network, addr)
	}
	ips, err := net.DefaultResolver.LookupHost(ctx, host)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, ip := range ips {
		conn, err := v.d.DialContext(ctx, network, net.JoinHostPort(ip, port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}
