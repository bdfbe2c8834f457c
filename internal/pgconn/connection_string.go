package pgconn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// ConnectionParams are what a connection string is built from besides the
// provider's resolved settings (postgresql_connection_string).
type ConnectionParams struct {
	Database        string // "" = the provider's database
	Username        string // "" = the provider's role
	Password        string // "" = the provider's, for the provider's role when Config.ExposeCredentials; none otherwise
	ApplicationName string // "" = none
}

// ConnectionString is a libpq connection string, in both its forms, and
// what it was built from.
type ConnectionString struct {
	Hosts    []string
	Ports    []int
	Database string
	Username string
	Password string // "" when the string has none (a password file, a certificate, trust)
	SSLMode  string
	// Keyword is the keyword/value form (`host=... port=... dbname=...`),
	// URL the URI form (`postgresql://user:password@host:port/dbname?...`).
	Keyword, URL string
	// PasswordSource says where the password came from: "argument",
	// "provider" (the provider's password), "token" (a cloud login token of
	// the provider's login) or "" (none).
	PasswordSource string
	// Expires is when a token password stops being accepted (zero otherwise).
	Expires time.Time
	// Warnings say what another program cannot take from the string as the
	// provider does (a tunnel, a proxy, an inline client certificate).
	Warnings []string
}

// ConnectionString builds, without connecting, the connection string of
// the provider's resolved settings (hosts, ports, TLS, target_session_attrs,
// connect_timeout) for database and role p. The password is p's; for the
// provider's own role without one, the provider's password, or a fresh token
// when the provider logs in with a cloud identity.
func (c *Client) ConnectionString(ctx context.Context, p ConnectionParams) (*ConnectionString, error) {
	if err := c.Ready(); err != nil {
		return nil, err
	}
	cfg := c.cfg
	if cfg.CloudSQL != nil {
		return nil, fmt.Errorf("the provider connects to %s through the Cloud SQL connector, which a connection string cannot express: "+
			"run the Cloud SQL Auth Proxy and give its address to the program instead", cfg.Address())
	}
	cs := &ConnectionString{Hosts: cfg.HostList(), Ports: cfg.PortList(), Database: p.Database, Username: p.Username, SSLMode: cfg.SSLMode}
	if cs.Database == "" {
		cs.Database = cfg.Database
	}
	own := cs.Username == "" || cs.Username == cfg.Username
	if cs.Username == "" {
		cs.Username = cfg.Username
	}
	switch {
	case p.Password != "":
		cs.Password, cs.PasswordSource = p.Password, "argument"
	case own && !cfg.ExposeCredentials && (c.tokens != nil || cfg.Password != ""):
		cs.Warnings = append(cs.Warnings, fmt.Sprintf("no password for role %q: the provider's own credentials are handed out only when its configuration "+
			"sets expose_credentials = true; give the password in the password argument, or have the program find it elsewhere (a password file)", cs.Username))
	case own && c.tokens != nil:
		tok, exp, err := c.tokens.Current(ctx)
		if err != nil {
			return nil, fmt.Errorf("getting a login token for role %q: %w", cs.Username, err)
		}
		cs.Password, cs.PasswordSource, cs.Expires = tok, "token", exp
	case own && cfg.Password != "":
		cs.Password, cs.PasswordSource = cfg.Password, "provider"
	}
	if cfg.SSHTunnel != nil {
		cs.Warnings = append(cs.Warnings, fmt.Sprintf("the provider reaches %s through an SSH tunnel: the connection string names the server as the "+
			"provider's configuration does, which other programs reach only from where it is reachable", cfg.Address()))
	} else if cfg.Proxy != nil {
		cs.Warnings = append(cs.Warnings, fmt.Sprintf("the provider reaches %s through a SOCKS5 proxy: the connection string names the server as the "+
			"provider's configuration does, which other programs reach only from where it is reachable", cfg.Address()))
	}
	if cc := cfg.ClientCert; cc != nil && !cfg.ExposeCredentials {
		cs.Warnings = append(cs.Warnings, "the provider's client certificate is its own credential, handed out only when its configuration sets "+
			"expose_credentials = true: sslcert and sslkey are left out")
	} else if cc != nil && cc.Inline {
		cs.Warnings = append(cs.Warnings, "the provider's client certificate is inline PEM (sslinline), which a connection string cannot carry: "+
			"sslcert and sslkey are left out")
	}

	type kv struct{ k, v string }
	var opts []kv
	add := func(k, v string) {
		if v != "" {
			opts = append(opts, kv{k, v})
		}
	}
	add("sslmode", cfg.SSLMode)
	add("sslrootcert", cfg.SSLRootCert)
	if cc := cfg.ClientCert; cc != nil && !cc.Inline && cfg.ExposeCredentials {
		add("sslcert", cc.Cert)
		add("sslkey", cc.Key)
	}
	add("target_session_attrs", cfg.TargetSessionAttrs)
	if cfg.ConnectTimeout > 0 {
		add("connect_timeout", strconv.Itoa(int(cfg.ConnectTimeout/time.Second)))
	}
	add("application_name", p.ApplicationName)

	ports := make([]string, len(cs.Ports))
	for i, n := range cs.Ports {
		ports[i] = strconv.Itoa(n)
	}
	words := []string{"host=" + connValue(strings.Join(cs.Hosts, ",")), "port=" + connValue(strings.Join(ports, ",")),
		"dbname=" + connValue(cs.Database), "user=" + connValue(cs.Username)}
	if cs.Password != "" {
		words = append(words, "password="+connValue(cs.Password))
	}
	for _, o := range opts {
		words = append(words, o.k+"="+connValue(o.v))
	}
	cs.Keyword = strings.Join(words, " ")

	u := url.URL{Scheme: "postgresql", Path: "/" + cs.Database}
	if cs.Password != "" {
		u.User = url.UserPassword(cs.Username, cs.Password)
	} else {
		u.User = url.User(cs.Username)
	}
	q := url.Values{}
	socket := false
	for _, h := range cs.Hosts {
		socket = socket || strings.HasPrefix(h, "/")
	}
	if socket {
		// a socket directory has no place in the authority: libpq takes
		// hosts and ports as parameters
		q.Set("host", strings.Join(cs.Hosts, ","))
		q.Set("port", strings.Join(ports, ","))
	} else {
		addrs := make([]string, len(cs.Hosts))
		for i, h := range cs.Hosts {
			addrs[i] = net.JoinHostPort(h, ports[i])
		}
		u.Host = strings.Join(addrs, ",")
	}
	for _, o := range opts {
		q.Set(o.k, o.v)
	}
	u.RawQuery = q.Encode()
	cs.URL = u.String()
	return cs, nil
}

// CheckLogin connects once with the connection string, the way the provider
// reaches the server (through its tunnel or proxy, if any), and runs SELECT
// 1: it proves the credentials. The connection is closed at once.
func (c *Client) CheckLogin(ctx context.Context, cs *ConnectionString) error {
	ctx, sec := WithSecrets(ctx)
	sec.Add(cs.Password)
	cfg, err := pgx.ParseConfig(cs.Keyword)
	if err != nil {
		return sec.Scrub(fmt.Errorf("parsing the connection string: %w", err))
	}
	c.network.Adjust(&cfg.Config)
	d := &net.Dialer{Timeout: c.cfg.ConnectTimeout}
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return c.network.Dial(ctx, d, network, addr)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return sec.Scrub(fmt.Errorf("logging in as %q to database %q: %w", cs.Username, cs.Database, err))
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return sec.Scrub(fmt.Errorf("querying as %q in database %q: %w", cs.Username, cs.Database, err))
	}
	if one != 1 {
		return errors.New("SELECT 1 did not return 1")
	}
	return nil
}
