package pgconn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The ways to the server that are not a plain connection from this machine
// (an SSH bastion, a SOCKS5 proxy, the Cloud SQL connector) and cloud logins
// are configured here as data (Config) and made by packages of their own
// (pgconn/tunnel, pgconn/cloudlogin), which bring the SSH, SOCKS5 and cloud
// SDK modules with them; the provider hands them to the client (WithConnectors).

// Route is a way to the server other than a plain connection from this machine.
type Route interface {
	// Adjust sets what pgx needs for the route (e.g. leave host names to the route).
	Adjust(pc *pgconn.Config)
	// Dial opens a connection to the server at addr, as d would.
	Dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error)
	// Close closes what the route holds open (an SSH connection, a dialer).
	Close()
}

// Login supplies the password of each new connection: a cloud login token.
type Login interface {
	// BeforeConnect sets the password of a new connection.
	BeforeConnect(ctx context.Context, cc *pgx.ConnConfig) error
	// Current returns the token in use (a fresh one when it is close to
	// expiring) and when it expires.
	Current(ctx context.Context) (string, time.Time, error)
}

// Connectors make the routes and logins a configuration asks for. A
// configuration that asks for one its client was not given fails on first
// use with an error saying so.
type Connectors struct {
	// Network returns the route through cfg.SSHTunnel and/or cfg.Proxy.
	Network func(cfg Config) Route
	// CloudSQL returns the route through the Cloud SQL connector to
	// cfg.CloudSQL; out is the network route its own connections take (nil: direct).
	CloudSQL func(cfg Config, out Route) Route
	// Login returns the cloud login of cfg.CloudAuth.
	Login func(cfg Config) Login
}

// WithConnectors gives the client the makers of routes and logins.
func WithConnectors(c Connectors) Option {
	return func(core *clientCore) { core.connectors = c }
}

// missingConnector is the route or login of a configuration whose client was
// given no maker for it.
type missingConnector struct{ what string }

func (m missingConnector) err() error {
	return &SetupError{Err: fmt.Errorf("%s is not available to this client (no connector was given)", m.what)}
}
func (m missingConnector) Adjust(*pgconn.Config) {}
func (m missingConnector) Dial(context.Context, *net.Dialer, string, string) (net.Conn, error) {
	return nil, m.err()
}
func (m missingConnector) Close()                                               {}
func (m missingConnector) BeforeConnect(context.Context, *pgx.ConnConfig) error { return m.err() }
func (m missingConnector) Current(context.Context) (string, time.Time, error) {
	return "", time.Time{}, m.err()
}

// direct is the plain connection from this machine.
type direct struct{}

func (direct) Adjust(*pgconn.Config) {}
func (direct) Dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	return d.DialContext(ctx, network, addr)
}
func (direct) Close() {}

// routes makes the client's network route (direct when cfg names none), its
// Cloud SQL route (nil: none) and its login (nil: the password).
func (c *clientCore) routes() {
	cfg := c.cfg
	c.network = direct{}
	if cfg.SSHTunnel != nil || cfg.Proxy != nil {
		if c.connectors.Network == nil {
			c.network = missingConnector{"the SSH tunnel or SOCKS5 proxy"}
		} else {
			c.network = c.connectors.Network(cfg)
		}
	}
	if cfg.CloudSQL != nil {
		if c.connectors.CloudSQL == nil {
			c.cloudSQL = missingConnector{"the Cloud SQL connector"}
		} else {
			c.cloudSQL = c.connectors.CloudSQL(cfg, c.network)
		}
	}
	if cfg.CloudAuth != nil {
		if c.connectors.Login == nil {
			c.tokens = missingConnector{"the cloud login " + cfg.CloudAuth.Method}
		} else {
			c.tokens = c.connectors.Login(cfg)
		}
	}
}

// Proxy is a SOCKS5 proxy every connection goes through (proxy_url, or
// ALL_PROXY when proxy_url is unset).
type Proxy struct {
	// URL is socks5://[user[:password]@]host[:port] (the proxy's name
	// resolution for socks5h://, this machine's for socks5://).
	URL string
	// NoProxy lists the hosts reached directly (NO_PROXY syntax: host names,
	// .domain suffixes, IP addresses, CIDR ranges); set from NO_PROXY only
	// when the proxy comes from ALL_PROXY.
	NoProxy string
}

// SetupError is a failure of the network path's configuration (a host key
// that does not match, a private key that cannot be read, authentication
// refused by the bastion): retrying cannot help, so it is no connection error.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

func isSetupError(err error) bool {
	var s *SetupError
	return errors.As(err, &s)
}

// SSHTunnel is an SSH bastion (jump host) every server connection goes
// through: one SSH connection per client, one channel (direct-tcpip, or
// direct-streamlocal for a Unix socket) per server connection. The server's
// host and port are resolved on the bastion.
type SSHTunnel struct {
	Host string
	Port int
	User string
	// One authentication source: PrivateKey (PEM text), PrivateKeyFile (a
	// path), or Agent (the agent at SSH_AUTH_SOCK).
	PrivateKey           string
	PrivateKeyFile       string
	PrivateKeyPassphrase string
	Agent                bool
	// HostKey, when set, is the bastion's public key (authorized_keys format);
	// otherwise KnownHostsFile ("" = ~/.ssh/known_hosts) must list it.
	KnownHostsFile string
	HostKey        string
}

// Login methods of CloudAuth.
const (
	AuthAWSRDSIAM = "aws_rds_iam"
	AuthGCPIAM    = "gcp_iam"
	AuthAzure     = "azure_identity"
)

// CloudAuth selects a cloud login method: its token is the password of every
// connection (Config.Password is then not used).
type CloudAuth struct {
	Method string // AuthAWSRDSIAM, AuthGCPIAM or AuthAzure

	AWSProfile string // shared config profile ("" = the SDK's default)
	AWSRegion  string // "" = the SDK's configuration, else the RDS host name's
	AWSRoleARN string // role to assume with STS before signing ("" = none)
	// AWSEndpoint is the host[:port] the RDS token is signed for when it is
	// not the one connected to (a tunnel, a proxy): "" = the first host and
	// its port; without a port, the first host's port.
	AWSEndpoint string

	GCPImpersonateServiceAccount string // service account whose token is used ("" = the ADC's own)

	AzureTenantID string
	// AzureEnvironment is the Azure cloud: AzurePublic (""), AzureChina or
	// AzureUSGovernment. It selects the Entra ID authority host and the
	// token scope of Azure Database for PostgreSQL.
	AzureEnvironment string
}

// Azure clouds of CloudAuth.AzureEnvironment (the spelling of the azurerm
// provider's environment argument and ARM_ENVIRONMENT).
const (
	AzurePublic       = "public"
	AzureChina        = "china"
	AzureUSGovernment = "usgovernment"
)

// AzureEnvironments lists the values of CloudAuth.AzureEnvironment.
var AzureEnvironments = []string{AzurePublic, AzureChina, AzureUSGovernment}

// TokenSource gives a login token and the time it expires (zero: unknown).
type TokenSource interface {
	Token(ctx context.Context) (string, time.Time, error)
}

// TokenError is the failure to get a login token. It is a configuration or
// credentials problem, not a lost connection: operations do not retry it.
type TokenError struct {
	Method string
	Err    error
}

func (e *TokenError) Error() string {
	return fmt.Sprintf("getting a login token (%s): %v", e.Method, e.Err)
}

func isTokenError(err error) bool {
	var te *TokenError
	return errors.As(err, &te)
}

// IP types of CloudSQL.IPType.
const (
	CloudSQLIPAuto    = "auto"
	CloudSQLIPPublic  = "public"
	CloudSQLIPPrivate = "private"
	CloudSQLIPPSC     = "psc"
)

// CloudSQLIPTypes lists the values of CloudSQL.IPType.
var CloudSQLIPTypes = []string{CloudSQLIPAuto, CloudSQLIPPublic, CloudSQLIPPrivate, CloudSQLIPPSC}

// CloudSQL names a Cloud SQL instance reached through the connector.
type CloudSQL struct {
	Instance string // project:region:instance (a domain-scoped project too)
	// IPType is the address the connector dials: CloudSQLIPAuto ("": the
	// public IP if the instance has one, else the private IP, as cyrilgdn's
	// connector did), CloudSQLIPPublic, CloudSQLIPPrivate or CloudSQLIPPSC.
	IPType string
	// IAMAuthN enables automatic IAM database authentication: the login's
	// access token is in the ephemeral certificate, and no password is sent.
	IAMAuthN bool
	// ImpersonateServiceAccount, when set, is the service account whose
	// tokens call the Admin API and log in (made by the IAM Service Account
	// Credentials API with the Application Default Credentials).
	ImpersonateServiceAccount string
	// AdminAPIEndpoint replaces the Cloud SQL Admin API's endpoint ("": the library's).
	AdminAPIEndpoint string
}
