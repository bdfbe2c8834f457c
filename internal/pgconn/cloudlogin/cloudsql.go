package cloudlogin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"cloud.google.com/go/cloudsqlconn"
	"cloud.google.com/go/cloudsqlconn/errtype"
	"cloud.google.com/go/cloudsqlconn/instance"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	pgxconn "github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/oauth2"
	"google.golang.org/api/googleapi"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// The Cloud SQL connector: with scheme = "gcppostgres" and an instance
// connection name as host (cyrilgdn's spelling), every connection goes
// through cloud.google.com/go/cloudsqlconn. Its dialer asks the Cloud SQL
// Admin API for the instance's addresses and server CA and for an ephemeral
// client certificate, and opens a TLS session to the instance's server-side
// proxy (port 3307) that carries the PostgreSQL protocol. With automatic IAM
// database authentication the certificate carries the login's access token
// and no password is sent. The dialer is made on the first connection, never
// while the provider is configured, and its TCP connections take the
// provider's network path (SSH bastion, SOCKS5 proxy) and connection permits.

// Scopes of the connector's token sources.
const (
	gcpSQLAdminScope = "https://www.googleapis.com/auth/sqlservice.admin"
)

// ParseCloudSQLInstance reads host as an instance connection name
// (project:region:instance, or project/region/instance as cyrilgdn also
// accepted; a domain-scoped project such as example.com:project is allowed
// with colons). It returns the name with colons, or "" when host is no
// instance connection name (an address, a host name, a Unix socket
// directory, a list of hosts).
func ParseCloudSQLInstance(host string) string {
	if host == "" || strings.HasPrefix(host, "/") || strings.Contains(host, ",") || net.ParseIP(host) != nil {
		return ""
	}
	name := host
	if !strings.Contains(name, ":") && strings.Count(name, "/") == 2 {
		name = strings.ReplaceAll(name, "/", ":")
	}
	if _, err := instance.ParseConnName(name); err != nil {
		return ""
	}
	return name
}

// LooksLikeCloudSQLInstance reports a host that is meant as an instance
// connection name but is not a valid one (for a clear error at validate time).
func LooksLikeCloudSQLInstance(host string) bool {
	if host == "" || strings.HasPrefix(host, "/") || strings.Contains(host, ",") || net.ParseIP(host) != nil {
		return false
	}
	return strings.ContainsAny(host, ":/")
}

type cloudSQLConnector struct {
	cfg     pgconn.CloudSQL
	network pgconn.Route
	dialer  *net.Dialer

	once sync.Once
	d    *cloudsqlconn.Dialer
	err  error

	mu     sync.Mutex
	closed bool
}

// NewConnector returns the route through the Cloud SQL connector to the
// instance cfg.CloudSQL names; network is the route its own connections take
// (pgconn.Connectors.CloudSQL).
func NewConnector(cfg pgconn.Config, network pgconn.Route) pgconn.Route {
	return &cloudSQLConnector{
		cfg:     *cfg.CloudSQL,
		network: network,
		dialer:  &net.Dialer{KeepAlive: 5 * time.Minute, Timeout: cfg.ConnectTimeout},
	}
}

// Adjust keeps pgx from resolving the instance connection name and from
// starting TLS of its own inside the connector's.
func (c *cloudSQLConnector) Adjust(pc *pgxconn.Config) {
	pc.LookupFunc = func(_ context.Context, host string) ([]string, error) { return []string{host}, nil }
	pc.TLSConfig = nil
	pc.Fallbacks = nil
}

// load makes the dialer, on the first connection.
func (c *cloudSQLConnector) load(ctx context.Context) {
	ctx = context.WithoutCancel(ctx) // the dialer outlives the operation that first needed it
	api, login, err := c.tokenSources(ctx)
	if err != nil {
		c.err = &pgconn.SetupError{Err: fmt.Errorf("the Cloud SQL connector: %w", err)}
		return
	}
	opts := []cloudsqlconn.Option{
		cloudsqlconn.WithDialFunc(func(ctx context.Context, network, addr string) (net.Conn, error) {
			return c.network.Dial(ctx, c.dialer, network, addr)
		}),
		cloudsqlconn.WithContextDebugLogger(connectorLogger{}),
		cloudsqlconn.WithUserAgent("terraform-provider-postgresql"),
	}
	if c.cfg.IAMAuthN {
		opts = append(opts, cloudsqlconn.WithIAMAuthN(), cloudsqlconn.WithIAMAuthNTokenSources(api, login))
	} else {
		opts = append(opts, cloudsqlconn.WithTokenSource(api))
	}
	if c.cfg.AdminAPIEndpoint != "" {
		opts = append(opts, cloudsqlconn.WithAdminAPIEndpoint(c.cfg.AdminAPIEndpoint))
	}
	switch c.cfg.IPType {
	case pgconn.CloudSQLIPPublic:
		opts = append(opts, cloudsqlconn.WithDefaultDialOptions(cloudsqlconn.WithPublicIP()))
	case pgconn.CloudSQLIPPrivate:
		opts = append(opts, cloudsqlconn.WithDefaultDialOptions(cloudsqlconn.WithPrivateIP()))
	case pgconn.CloudSQLIPPSC:
		opts = append(opts, cloudsqlconn.WithDefaultDialOptions(cloudsqlconn.WithPSC()))
	default:
		opts = append(opts, cloudsqlconn.WithDefaultDialOptions(cloudsqlconn.WithAutoIP()))
	}
	c.d, c.err = cloudsqlconn.NewDialer(ctx, opts...)
	if c.err != nil {
		c.err = &pgconn.SetupError{Err: fmt.Errorf("the Cloud SQL connector: %w", c.err)}
	}
}

// tokenSources are the token sources of the Admin API and of IAM logins:
// the Application Default Credentials' (or GOOGLE_CREDENTIALS'), or, with
// impersonation, the service account's, made with them.
func (c *cloudSQLConnector) tokenSources(ctx context.Context) (api, login oauth2.TokenSource, err error) {
	if sa := c.cfg.ImpersonateServiceAccount; sa != "" {
		creds, err := gcpCredentials(ctx, gcpCloudPlatform)
		if err != nil {
			return nil, nil, fmt.Errorf("finding Google credentials: %w", err)
		}
		imp := func(scope string) oauth2.TokenSource {
			return oauth2.ReuseTokenSourceWithExpiry(nil, &impersonatedTokens{ctx: ctx, target: sa, scope: scope, source: creds.TokenSource}, gcpEarlyRefresh)
		}
		return imp(gcpSQLAdminScope), imp(gcpSQLLoginScope), nil
	}
	apiCreds, err := gcpCredentials(ctx, gcpSQLAdminScope)
	if err != nil {
		return nil, nil, fmt.Errorf("finding Google credentials: %w", err)
	}
	loginCreds, err := gcpCredentials(ctx, gcpSQLLoginScope)
	if err != nil {
		return nil, nil, fmt.Errorf("finding Google credentials: %w", err)
	}
	return apiCreds.TokenSource, loginCreds.TokenSource, nil
}

// Dial opens a connection to the instance through the connector (whatever
// the connection string's address).
func (c *cloudSQLConnector) Dial(ctx context.Context, _ *net.Dialer, _, _ string) (net.Conn, error) {
	c.once.Do(func() { c.load(ctx) })
	if c.err != nil {
		return nil, c.err
	}
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, &pgconn.SetupError{Err: errors.New("the Cloud SQL connector: the client is closed")}
	}
	conn, err := c.d.Dial(ctx, c.cfg.Instance)
	if err != nil {
		return nil, classifyConnectorError(err)
	}
	return conn, nil
}

// classifyConnectorError marks the connector's errors that a retry cannot
// help (a wrong instance name or region, an instance without the asked-for
// IP type, credentials refused by the Admin API) as setup errors; the others
// (an address not reachable, a lost connection, the API unavailable) stay
// connection errors.
func classifyConnectorError(err error) error {
	var cfgErr *errtype.ConfigError
	if errors.As(err, &cfgErr) {
		return &pgconn.SetupError{Err: err}
	}
	var apiErr *googleapi.Error
	if errors.As(err, &apiErr) && apiErr.Code >= 400 && apiErr.Code < 500 && apiErr.Code != 429 {
		return &pgconn.SetupError{Err: err}
	}
	var refreshErr *errtype.RefreshError
	if errors.As(err, &refreshErr) && strings.Contains(err.Error(), "oauth2") {
		return &pgconn.SetupError{Err: err}
	}
	return err
}

// Close closes the connector's dialer; no dialer is made afterwards.
func (c *cloudSQLConnector) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.once.Do(func() {}) // no dialer is made after Close
	if c.d != nil {
		_ = c.d.Close()
	}
}

// connectorLogger writes the connector's debug messages to the provider's log.
type connectorLogger struct{}

func (connectorLogger) Debugf(ctx context.Context, format string, args ...any) {
	tflog.Debug(ctx, "Cloud SQL connector: "+fmt.Sprintf(format, args...))
}
