// Package provider wires the PostgreSQL provider: its configuration, and the
// list of resources and data sources.
package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var _ provider.Provider = (*pgProvider)(nil)
var _ provider.ProviderWithValidateConfig = (*pgProvider)(nil)

// New returns a constructor for the provider at the given version. The
// released provider takes no options; tests inject their seams through them.
func New(version string, opts ...Option) func() provider.Provider {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return func() provider.Provider { return &pgProvider{version: version, opts: &o} }
}

// providerTypeName is the provider's type name, the prefix of every type it serves.
const providerTypeName = "postgresql"

type pgProvider struct {
	version string
	opts    *options
}

var sslModes = []string{"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}

func (p *pgProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = providerTypeName
	resp.Version = p.version
}

func (p *pgProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages PostgreSQL roles, databases, schemas, privileges and other objects. " +
			"The provider never connects while it is configured: connections open on first use, one pool per database.",
		Attributes: map[string]schema.Attribute{
			"host": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Server host name, address or Unix socket directory, or a comma-separated list of them, as libpq: the hosts are tried in order until one " +
					"accepts the connection and matches `target_session_attrs` (a primary and its standbys, for failover). " +
					"With `scheme = \"gcppostgres\"`, a Cloud SQL instance connection name (`project:region:instance` or `project/region/instance`) connects through the Cloud SQL connector. " +
					"Defaults to `PGHOST`, then `localhost`.",
			},
			"port": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Server port, as a number (`port = 5432`), or, with several hosts, a comma-separated list with one port per host (`port = \"5432,5433\"`); one port applies to every host. " +
					"Not used with a Cloud SQL instance connection name. Defaults to `PGPORT`, then `5432`.",
				Validators: []validator.String{stringvalidator.RegexMatches(portsRe, "must be a port (1 to 65535), or a comma-separated list of ports")},
			},
			"target_session_attrs": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Which server of several `host`s to use, as libpq: `any` (the first that accepts the connection), `read-write` (one that accepts writes: the primary), " +
					"`read-only`, `primary`, `standby`, or `prefer-standby` (a standby if there is one, else any). A provider that changes objects wants `read-write` (or `primary`): " +
					"whichever host is listed first, writes then go to the primary, and after a failover to the promoted standby with no change to the configuration. " +
					"Defaults to `PGTARGETSESSIONATTRS`, then `any`.",
				Validators: []validator.String{stringvalidator.OneOf(pgconn.TargetSessionAttrs...)},
			},
			"database": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Database the provider connects to for cluster-wide objects (roles, databases). Defaults to `PGDATABASE`, then `postgres`. Database-scoped resources connect to their own `database`.",
			},
			"username": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Role to connect as. Defaults to `PGUSER`, then `postgres`.",
			},
			"database_username": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Database role name of the connecting user when it differs from `username` (user name maps, e.g. Azure's `user@server`). Used where the provider compares a role with itself.",
			},
			"password": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "Password for password authentication. Defaults to `PGPASSWORD`.",
			},
			"sslmode": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "TLS mode, as libpq: one of `" + strings.Join(sslModes, "`, `") + "`. Defaults to `PGSSLMODE`, then `prefer` (`require` with a cloud IAM login or a cloud `scheme`).",
				Validators:          []validator.String{stringvalidator.OneOf(sslModes...), stringvalidator.ConflictsWith(path.MatchRoot("ssl_mode"))},
			},
			"ssl_mode": schema.StringAttribute{
				Optional:            true,
				DeprecationMessage:  "Use sslmode instead.",
				MarkdownDescription: "Deprecated spelling of `sslmode`.",
				Validators:          []validator.String{stringvalidator.OneOf(sslModes...)},
			},
			"sslrootcert": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Path of a PEM file with the certificate authorities that sign the server's certificate (`verify-ca`, `verify-full`). Defaults to `PGSSLROOTCERT`.",
			},
			"connect_timeout": nonNegativeInt64("Seconds to wait for a connection; `0` waits indefinitely. Defaults to `PGCONNECT_TIMEOUT`, then `180`."),
			"max_retry_duration": nonNegativeInt64("Seconds an operation keeps retrying after losing its connection (a terminated backend, a server restart or failover, a reset socket, a server still starting up) " +
				"or after the server refused a new connection for a connection limit (SQLSTATE `53300`: a database's `connection_limit`, the role's, `max_connections`) before it fails. " +
				"Reads, and writes that were not sent or whose transaction had not reached `COMMIT`, are retried on a fresh connection with a growing backoff; see the provider page for what happens when the outcome of a write is unknown. " +
				"Defaults to `PGTF_MAX_RETRY_DURATION`, then `120`. `0` disables retries after connection failures."),
			"statement_timeout": nonNegativeInt64("Seconds any statement of the provider may run before the server cancels it (`statement_timeout` of the provider's sessions); `0` means no limit. Defaults to `0`."),
			"lock_timeout": nonNegativeInt64("Seconds a statement of the provider waits for a lock held by another session (a long transaction, a migration, a `LOCK TABLE`) before failing with an error naming the sessions holding strong locks (`lock_timeout` of the provider's sessions); `0` waits forever. " +
				"Defaults to `60`."),
			"max_connections": nonNegativeInt64("Most server connections the provider holds at once, across all databases; `0` means unlimited. Defaults to `20`."),
			"superuser": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether the provider may use superuser-only features. Set `false` on managed services (AWS RDS, Cloud SQL, Azure) where the admin role is not superuser. " +
					"The provider also detects the connected role's attributes; superuser-only features need both. Defaults to `PGSUPERUSER`, then `true`.",
			},
			"expected_version": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "PostgreSQL version the configuration expects (e.g. `15`, `15.4`). The provider detects the real version on first connection and reports an error when the server is older than this.",
				Validators:          []validator.String{stringvalidator.RegexMatches(versionRe, "must be a version such as 15 or 15.4")},
			},
			"proxy_url": proxyURLAttribute(),
			"expose_credentials": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether the ephemeral resource `postgresql_connection_string` may hand out this provider's own credentials: its password " +
					"(or a fresh cloud login token) for a connection string of the provider's own role, and its client certificate and key. " +
					"Any module given this provider configuration can open that ephemeral resource, so they are handed out only when the root " +
					"configuration says so. Defaults to `false`: the connection string then carries no password for the provider's role " +
					"(unless its `password` argument gives one) and no client certificate, and says so in a warning.",
			},
		},
		Blocks: map[string]schema.Block{
			"ssh_tunnel": sshTunnelBlock(),
			"clientcert": schema.ListNestedBlock{
				MarkdownDescription: "TLS client certificate.",
				Validators:          []validator.List{listvalidator.SizeAtMost(1)},
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"cert": schema.StringAttribute{Required: true, MarkdownDescription: "Path of the PEM client certificate, or the PEM itself when `sslinline` is true."},
						"key":  schema.StringAttribute{Required: true, Sensitive: true, MarkdownDescription: "Path of the PEM private key, or the PEM itself when `sslinline` is true."},
						"sslinline": schema.BoolAttribute{
							Optional:            true,
							MarkdownDescription: "Whether `cert` and `key` hold PEM text rather than file paths.",
						},
					},
				},
			},
		},
	}
	maps.Copy(resp.Schema.Attributes, cloudAuthAttributes())
}

type providerModel struct {
	Host                     types.String      `tfsdk:"host"`
	Port                     types.String      `tfsdk:"port"`
	TargetSessionAttrs       types.String      `tfsdk:"target_session_attrs"`
	Database                 types.String      `tfsdk:"database"`
	Username                 types.String      `tfsdk:"username"`
	DatabaseUsername         types.String      `tfsdk:"database_username"`
	Password                 types.String      `tfsdk:"password"`
	SSLMode                  types.String      `tfsdk:"sslmode"`
	SSLModeDeprecated        types.String      `tfsdk:"ssl_mode"`
	SSLRootCert              types.String      `tfsdk:"sslrootcert"`
	ConnectTimeout           types.Int64       `tfsdk:"connect_timeout"`
	MaxConnections           types.Int64       `tfsdk:"max_connections"`
	MaxRetryDuration         types.Int64       `tfsdk:"max_retry_duration"`
	StatementTimeout         types.Int64       `tfsdk:"statement_timeout"`
	LockTimeout              types.Int64       `tfsdk:"lock_timeout"`
	Superuser                types.Bool        `tfsdk:"superuser"`
	ExpectedVersion          types.String      `tfsdk:"expected_version"`
	Scheme                   types.String      `tfsdk:"scheme"`
	AWSRDSIAMAuth            types.Bool        `tfsdk:"aws_rds_iam_auth"`
	AWSRDSIAMProfile         types.String      `tfsdk:"aws_rds_iam_profile"`
	AWSRDSIAMRegion          types.String      `tfsdk:"aws_rds_iam_region"`
	AWSRDSIAMProviderRoleARN types.String      `tfsdk:"aws_rds_iam_provider_role_arn"`
	AzureIdentityAuth        types.Bool        `tfsdk:"azure_identity_auth"`
	AWSRDSIAMEndpoint        types.String      `tfsdk:"aws_rds_iam_endpoint"`
	AzureTenantID            types.String      `tfsdk:"azure_tenant_id"`
	AzureEnvironment         types.String      `tfsdk:"azure_environment"`
	GCPIAMImpersonateSA      types.String      `tfsdk:"gcp_iam_impersonate_service_account"`
	GCPIPType                types.String      `tfsdk:"gcp_ip_type"`
	ClientCert               []clientCertModel `tfsdk:"clientcert"`
	ProxyURL                 types.String      `tfsdk:"proxy_url"`
	SSHTunnel                []sshTunnelModel  `tfsdk:"ssh_tunnel"`
	ExposeCredentials        types.Bool        `tfsdk:"expose_credentials"`
}

type clientCertModel struct {
	Cert      types.String `tfsdk:"cert"`
	Key       types.String `tfsdk:"key"`
	SSLInline types.Bool   `tfsdk:"sslinline"`
}

func (p *pgProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateCloudAuth(m, &resp.Diagnostics)
	validateHosts(m, &resp.Diagnostics)
	resp.Diagnostics.Append(validateNetwork(m)...)
}

// Configure resolves the configuration into a client. It never connects.
func (p *pgProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg, diagErr := configureConfig(m, os.Getenv, p.opts)
	if diagErr != nil {
		resp.Diagnostics.AddAttributeError(diagErr.path, diagErr.summary, diagErr.detail)
		return
	}
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "password")
	fields := map[string]any{
		"host": cfg.Host, "port": cfg.PortList(), "target_session_attrs": cfg.TargetSessionAttrs, "database": cfg.Database, "username": cfg.Username,
		"sslmode": cfg.SSLMode, "max_connections": cfg.MaxConnections, "unknown": cfg.Unknown,
		"cloud_login": cloudLoginName(cfg), "max_retry_duration": cfg.MaxRetryDuration.String(), "statement_timeout": cfg.StatementTimeout.String(), "lock_timeout": cfg.LockTimeout.String(),
	}
	maps.Copy(fields, networkLogFields(cfg))
	tflog.Debug(ctx, "configured PostgreSQL provider", fields)
	// one catalog snapshot and one registry of creates per configured instance:
	// Terraform configures a new one for every command, so neither outlives the
	// command (pg/snapshot.go, pg/pending.go)
	data := &providerData{client: p.opts.client(cfg).ForInstance(), opts: p.opts, plans: &grantPlans{}}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
	resp.EphemeralResourceData = data
}

// configureConfig is resolveConfig with the seams of o applied (a default
// max_connections, an idle time), as Configure uses it: the configuration that
// keys the shared client.
func configureConfig(m providerModel, getenv func(string) string, o *options) (pgconn.Config, *configError) {
	cfg, diagErr := resolveConfig(m, getenv)
	if diagErr == nil && o.defaultMaxConnections > 0 && m.MaxConnections.IsNull() {
		cfg.MaxConnections = o.defaultMaxConnections
	}
	cfg.MaxConnIdleTime = o.maxConnIdleTime
	return cfg, diagErr
}

type configError struct {
	path            path.Path
	summary, detail string
}

// mustRegexp compiles a regular expression of the provider's own source.
func mustRegexp(s string) *regexp.Regexp { return regexp.MustCompile(s) }

var versionRe = mustRegexp(`^[0-9]+(\.[0-9]+){0,2}$`)

// portsRe is a port or a comma-separated list of ports (their range is checked with the hosts).
var portsRe = mustRegexp(`^\s*[0-9]{1,5}(\s*,\s*[0-9]{1,5})*\s*$`)

// resolveConfig applies environment fallbacks and defaults. Unknown values
// are recorded, never replaced by defaults.
func resolveConfig(m providerModel, getenv func(string) string) (pgconn.Config, *configError) {
	var cfg pgconn.Config
	str := func(name string, v types.String, env, def string) string {
		if v.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, name)
			return ""
		}
		if !v.IsNull() {
			return v.ValueString()
		}
		if env != "" {
			if e := getenv(env); e != "" {
				return e
			}
		}
		return def
	}
	cfg.Host = str("host", m.Host, "PGHOST", "localhost")
	ports := str("port", m.Port, "PGPORT", "5432")
	cfg.TargetSessionAttrs = str("target_session_attrs", m.TargetSessionAttrs, "PGTARGETSESSIONATTRS", "")
	if cfg.TargetSessionAttrs != "" && !slices.Contains(pgconn.TargetSessionAttrs, cfg.TargetSessionAttrs) {
		return cfg, &configError{path.Root("target_session_attrs"), "Invalid target_session_attrs", fmt.Sprintf("target_session_attrs %q (from PGTARGETSESSIONATTRS) must be one of %s.", cfg.TargetSessionAttrs, strings.Join(pgconn.TargetSessionAttrs, ", "))}
	}
	if cerr := resolvePorts(&cfg, m, ports); cerr != nil {
		return cfg, cerr
	}
	cfg.Database = str("database", m.Database, "PGDATABASE", "postgres")
	cfg.Username = str("username", m.Username, "PGUSER", "postgres")
	cfg.DatabaseUsername = str("database_username", m.DatabaseUsername, "", "")
	cfg.Password = str("password", m.Password, "PGPASSWORD", "")
	cfg.SSLRootCert = str("sslrootcert", m.SSLRootCert, "PGSSLROOTCERT", "")
	cfg.ExpectedVersion = str("expected_version", m.ExpectedVersion, "", "")
	// unknown (a value from a resource not applied yet) hands out nothing
	cfg.ExposeCredentials = m.ExposeCredentials.ValueBool()
	sslmode := m.SSLMode
	if sslmode.IsNull() {
		sslmode = m.SSLModeDeprecated
	}
	cfg.SSLMode = str("sslmode", sslmode, "PGSSLMODE", "prefer")
	if !slices.Contains(sslModes, cfg.SSLMode) && !sslmode.IsUnknown() {
		return cfg, &configError{path.Root("sslmode"), "Invalid sslmode", fmt.Sprintf("sslmode %q (from PGSSLMODE) must be one of %s.", cfg.SSLMode, strings.Join(sslModes, ", "))}
	}

	intVal := func(name string, v types.Int64, env string, def int64) (int64, *configError) {
		if v.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, name)
			return def, nil
		}
		if !v.IsNull() {
			return v.ValueInt64(), nil
		}
		if env != "" {
			if e := getenv(env); e != "" {
				n, err := strconv.ParseInt(e, 10, 64)
				if err != nil {
					return 0, &configError{path.Root(name), "Invalid " + env, fmt.Sprintf("%s=%q is not a whole number.", env, e)}
				}
				return n, nil
			}
		}
		return def, nil
	}
	seconds := func(d *time.Duration) func(int64) *configError {
		return func(n int64) *configError {
			*d = time.Duration(n) * time.Second
			return nil
		}
	}
	// The whole-number settings, in the order their errors are reported:
	// set checks the value and stores it in cfg.
	for _, s := range []struct {
		name string
		v    types.Int64
		env  string
		def  int64
		set  func(n int64) *configError
	}{
		{"connect_timeout", m.ConnectTimeout, "PGCONNECT_TIMEOUT", 180, seconds(&cfg.ConnectTimeout)},
		{"max_connections", m.MaxConnections, "", 20, func(n int64) *configError {
			cfg.MaxConnections = int(n)
			return nil
		}},
		{"max_retry_duration", m.MaxRetryDuration, "PGTF_MAX_RETRY_DURATION", int64(pgconn.DefaultMaxRetryDuration / time.Second), func(retrySecs int64) *configError {
			if retrySecs < 0 {
				return &configError{path.Root("max_retry_duration"), "Invalid max_retry_duration", fmt.Sprintf("max_retry_duration %d (from PGTF_MAX_RETRY_DURATION) must be 0 or more.", retrySecs)}
			}
			cfg.MaxRetryDuration = time.Duration(retrySecs) * time.Second
			if retrySecs == 0 {
				cfg.MaxRetryDuration = -1 // no retries after connection failures
			}
			return nil
		}},
		{"statement_timeout", m.StatementTimeout, "", 0, seconds(&cfg.StatementTimeout)},
		{"lock_timeout", m.LockTimeout, "", 60, seconds(&cfg.LockTimeout)},
	} {
		n, cerr := intVal(s.name, s.v, s.env, s.def)
		if cerr == nil {
			cerr = s.set(n)
		}
		if cerr != nil {
			return cfg, cerr
		}
	}
	// As libpq: PGAPPNAME names the provider's sessions in pg_stat_activity.
	cfg.ApplicationName = getenv("PGAPPNAME")

	switch {
	case m.Superuser.IsUnknown():
		cfg.Unknown = append(cfg.Unknown, "superuser")
	case !m.Superuser.IsNull():
		cfg.Superuser = m.Superuser.ValueBool()
	default:
		cfg.Superuser = true
		if e := getenv("PGSUPERUSER"); e != "" {
			b, err := strconv.ParseBool(e)
			if err != nil {
				return cfg, &configError{path.Root("superuser"), "Invalid PGSUPERUSER", fmt.Sprintf("PGSUPERUSER=%q is not a boolean.", e)}
			}
			cfg.Superuser = b
		}
	}

	if len(m.ClientCert) == 1 {
		cc := m.ClientCert[0]
		if cc.Cert.IsUnknown() || cc.Key.IsUnknown() || cc.SSLInline.IsUnknown() {
			cfg.Unknown = append(cfg.Unknown, "clientcert")
		} else {
			cfg.ClientCert = &pgconn.ClientCert{Cert: cc.Cert.ValueString(), Key: cc.Key.ValueString(), Inline: cc.SSLInline.ValueBool()}
		}
	}

	if cerr := resolveNetwork(m, getenv, &cfg); cerr != nil {
		return cfg, cerr
	}
	if cerr := resolveCloudAuth(m, &cfg, getenv); cerr != nil {
		return cfg, cerr
	}
	return cfg, nil
}

// Resources lists every resource type, sorted by type name.
func (p *pgProvider) Resources(_ context.Context) []func() resource.Resource {
	rs := p.resources()
	if benchFloor {
		for i, f := range rs {
			rs[i] = floorResource(f)
		}
	}
	return rs
}

func (p *pgProvider) resources() []func() resource.Resource {
	return []func() resource.Resource{
		NewCommentResource,
		NewDatabaseResource,
		NewDatabaseSettingResource,
		NewDefaultPrivilegesResource,
		NewDefaultPrivilegesAdditiveResource,
		NewEventTriggerResource,
		NewExtensionResource,
		NewFunctionResource,
		NewGrantResource,
		NewGrantAdditiveResource,
		NewGrantRoleResource,
		NewObjectOwnerResource,
		NewPhysicalReplicationSlotResource,
		NewPolicyResource,
		NewPublicationResource,
		NewReplicationSlotResource,
		NewRoleResource,
		NewRoleSettingResource,
		NewSchemaResource,
		NewSecurityLabelResource,
		NewServerResource,
		NewSubscriptionResource,
		NewTableRLSResource,
		NewUserMappingResource,
	}
}

// DataSources lists every data source type, sorted by type name.
func (p *pgProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewDatabaseDataSource,
		NewQueryDataSource,
		NewRoleDataSource,
		NewSchemasDataSource,
		NewSequencesDataSource,
		NewTablesDataSource,
	}
}

// nonNegativeInt64 is an optional provider argument of a count or a number of
// seconds (0 or more).
func nonNegativeInt64(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: desc,
		Validators:          []validator.Int64{int64validator.AtLeast(0)},
	}
}

// resolvePorts sets cfg.Port (and cfg.Ports with one port per host) from the
// port argument or PGPORT (raw), checking them against the hosts.
func resolvePorts(cfg *pgconn.Config, m providerModel, raw string) *configError {
	if m.Port.IsUnknown() {
		cfg.Port = 5432 // never used: the client does not connect
		return nil
	}
	hosts := len(cfg.HostList())
	if m.Host.IsUnknown() {
		hosts = len(strings.Split(raw, ","))
	}
	from := ""
	if m.Port.IsNull() {
		from = " (from PGPORT)"
	}
	ports, err := pgconn.ParsePorts(raw, hosts)
	if err != nil {
		return &configError{path.Root("port"), "Invalid port", fmt.Sprintf("port %q%s: %s.", raw, from, err)}
	}
	cfg.Port = ports[0]
	if len(ports) > 1 {
		cfg.Ports = ports
	}
	return nil
}

// validateHosts checks host and port at validate time, when they are known:
// no empty entry in a host list, and one port for all hosts or one per host.
func validateHosts(m providerModel, diags *diag.Diagnostics) {
	if !m.Host.IsNull() && !m.Host.IsUnknown() {
		if err := pgconn.CheckHosts(m.Host.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("host"), "Invalid host", err.Error()+".")
			return
		}
	}
	if m.Port.IsNull() || m.Port.IsUnknown() || m.Host.IsUnknown() {
		return
	}
	hosts := 1
	if !m.Host.IsNull() {
		hosts = len(strings.Split(m.Host.ValueString(), ","))
	}
	if _, err := pgconn.ParsePorts(m.Port.ValueString(), hosts); err != nil {
		diags.AddAttributeError(path.Root("port"), "Invalid port", fmt.Sprintf("port %q: %s.", m.Port.ValueString(), err))
	}
}

// ProtocolServer returns the provider's protocol 6 server: the plugin
// framework's, with the request contexts of its per-object calls released
// when the call returns (tfkit.ReleaseContexts: a workaround tied to
// terraform-plugin-framework v1.19).
func ProtocolServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		return tfkit.ReleaseContexts(providerserver.NewProtocol6(New(version)())())
	}
}
