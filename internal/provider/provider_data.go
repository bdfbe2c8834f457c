package provider

// What the provider hands to its resources, data sources, actions, list and
// ephemeral resources (providerData: the client and the provider's options),
// how they take it (withClient, clientFrom), and the options themselves: the
// seams tests inject through New.

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn/cloudlogin"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn/tunnel"
)

// withClient holds the provider's client; resources and data sources embed
// it for their Configure.
type withClient struct {
	client *pg.Client
	opts   *options // the provider's seams (nil before Configure)
	// plans is what the plans of this provider instance manage (grant_overlap.go; nil before Configure)
	plans *grantPlans
}

// pgClient is the resource's client (nil before Configure): clientUser.
func (w *withClient) pgClient() *pg.Client { return w.client }

// clientUser is a resource with a client (withClient).
type clientUser interface{ pgClient() *pg.Client }

func (w *withClient) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	w.client = clientFrom(req.ProviderData, &resp.Diagnostics)
	if d, ok := req.ProviderData.(*providerData); ok {
		w.opts, w.plans = d.opts, d.plans
	}
}

// providerOptions are the provider's seams (never nil).
func (w *withClient) providerOptions() *options {
	if w.opts == nil {
		return &options{}
	}
	return w.opts
}

// clientFrom extracts the *pg.Client of the providerData that Configure hands
// to resources and data sources (req.ProviderData); nil before the provider
// is configured.
func clientFrom(data any, diags *diag.Diagnostics) *pg.Client {
	if data == nil {
		return nil // ValidateResourceConfig and friends run before Configure
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider", data))
		return nil
	}
	return d.client
}

// Option adjusts a provider made by New. The released provider takes none:
// they are the seams tests inject (as terraform-provider-time injects its
// clock), never package-level variables.
type Option func(*options)

// options are a provider's seams; the zero value is the released behaviour.
type options struct {
	// readBackFault, when set, is called by tfkit.FinishCreate between recording a
	// new object and reading it back; a non-nil error stands in for a
	// read-back that failed (connection lost, timeout). what names the object.
	readBackFault func(what string) error
	// outcomes, when set, counts the writes with an unknown outcome that the
	// skeleton settled.
	outcomes *OutcomeCounts
	// maxConnIdleTime, when set, is how long the pools keep idle connections.
	maxConnIdleTime time.Duration
	// defaultMaxConnections, when set, replaces the default of max_connections (20).
	defaultMaxConnections int
	// cloudLogin adjusts the cloud logins (a clock, an HTTP client); a
	// provider given any gets a client of its own rather than a shared one.
	cloudLogin []cloudlogin.Option
}

// OutcomeCounts counts the writes with an unknown outcome that the skeleton
// settled by adopting the object it found, or by running the write once more.
type OutcomeCounts struct {
	Adopted, Repeated atomic.Int64
}

// WithReadBackFault makes every Create call fault(what) between recording the
// new object and reading it back; an error stands in for a failed read-back.
func WithReadBackFault(fault func(what string) error) Option {
	return func(o *options) { o.readBackFault = fault }
}

// WithOutcomeCounts counts the settled writes with an unknown outcome into c.
func WithOutcomeCounts(c *OutcomeCounts) Option {
	return func(o *options) { o.outcomes = c }
}

// WithMaxConnIdleTime sets how long the pools keep idle connections (the
// acceptance tests serve hundreds of provider instances in one process and
// never close their pools).
func WithMaxConnIdleTime(d time.Duration) Option {
	return func(o *options) { o.maxConnIdleTime = d }
}

// WithDefaultMaxConnections replaces the default of max_connections (20) when
// the configuration leaves it unset (in the tests one shared client serves
// every test running in parallel, where in real use each Terraform run has
// its own).
func WithDefaultMaxConnections(n int) Option {
	return func(o *options) { o.defaultMaxConnections = n }
}

// WithCloudLogin adjusts the cloud logins of the provider's client.
func WithCloudLogin(opts ...cloudlogin.Option) Option {
	return func(o *options) { o.cloudLogin = append(o.cloudLogin, opts...) }
}

// connectors make the routes (SSH bastion, SOCKS5 proxy, Cloud SQL
// connector) and cloud logins a configuration asks for.
func (o *options) connectors() pgconn.Connectors {
	return pgconn.Connectors{Network: tunnel.New, CloudSQL: cloudlogin.NewConnector, Login: cloudlogin.Logins(o.cloudLogin...)}
}

// client returns the client of cfg: the one shared by every provider
// instance of the process with the same configuration, or, with cloud login
// seams, one of its own.
func (o *options) client(cfg pgconn.Config) *pg.Client {
	if len(o.cloudLogin) > 0 {
		return pg.NewClient(cfg, pgconn.WithConnectors(o.connectors()))
	}
	return pg.SharedClient(cfg, pgconn.WithConnectors(o.connectors()))
}

// providerData is what Configure hands to resources, data sources, actions,
// list and ephemeral resources.
type providerData struct {
	client *pg.Client
	opts   *options
	// plans: what this instance's plans manage (grant_overlap.go); Terraform
	// configures a new instance for every command
	plans *grantPlans
}
