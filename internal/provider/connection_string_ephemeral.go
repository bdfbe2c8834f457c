package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ provider.ProviderWithEphemeralResources = (*pgProvider)(nil)

// EphemeralResources lists every ephemeral resource type (Terraform 1.10+),
// sorted by type name.
func (p *pgProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewConnectionStringEphemeralResource,
	}
}

var _ ephemeral.EphemeralResourceWithConfigure = (*connectionStringEphemeral)(nil)

// NewConnectionStringEphemeralResource is the constructor of the
// postgresql_connection_string ephemeral resource.
//
// Why this one: what users hand on from a PostgreSQL provider is its
// connection, to configure another provider (a second postgresql provider
// acting as an application role, a migration tool's provider, a
// kubernetes_secret's write-only data) without a secret in any plan or
// state. A short-lived login role (VALID UNTIL now + TTL, dropped by Close)
// would have to be created while Terraform plans, since ephemeral resources
// are opened in every plan, and this provider changes nothing while
// planning; it would also leave the role behind when a run is interrupted.
// Building the string needs no connection at all.
func NewConnectionStringEphemeralResource() ephemeral.EphemeralResource {
	return &connectionStringEphemeral{}
}

type connectionStringEphemeral struct {
	client *pg.Client
}

func (e *connectionStringEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_connection_string"
}

func (e *connectionStringEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A libpq connection string (keyword/value `dsn` and `url`) built from the provider's resolved connection settings " +
			"(hosts, ports, TLS, `target_session_attrs`, `connect_timeout`) for a database and a role, never stored in the plan or the state " +
			"(Terraform 1.10 or later). For the provider's own role the password is the provider's, or a fresh token when it logs in with a cloud identity " +
			"(AWS RDS IAM, Cloud SQL IAM, Entra ID), only when the provider's configuration sets `expose_credentials = true`. " +
			"Use it to configure another provider or to feed write-only arguments.",
		Attributes: map[string]schema.Attribute{
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to connect to; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
			"username": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The role to log in as; the provider's `username` when not set.",
			},
			"password": schema.StringAttribute{
				Optional: true, Computed: true, Sensitive: true,
				MarkdownDescription: "The role's password. When not set: for the provider's own role, the provider's password (or its cloud login token) " +
					"when the provider's configuration sets `expose_credentials = true`, otherwise none (with a warning); " +
					"for another role, none (the program then needs a password file, a client certificate or another authentication of the server's).",
			},
			"application_name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The `application_name` the program's sessions show in `pg_stat_activity`; none when not set.",
			},
			"check_login": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When true, the provider logs in once with the result (through its own tunnel or proxy, if any) and runs `SELECT 1`, " +
					"so that a wrong password fails here rather than in the program that gets the string. A read: allowed while Terraform plans.",
			},
			"host": schema.StringAttribute{Computed: true, MarkdownDescription: "The host, or the comma-separated hosts, of the provider's configuration."},
			"port": schema.Int64Attribute{Computed: true, MarkdownDescription: "The port (of the first host, when each host has its own)."},
			"sslmode": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The provider's resolved `sslmode`.",
			},
			"dsn": schema.StringAttribute{
				Computed: true, Sensitive: true,
				MarkdownDescription: "The keyword/value connection string: `host=... port=... dbname=... user=... password=... sslmode=...`, values quoted as libpq reads them.",
			},
			"url": schema.StringAttribute{
				Computed: true, Sensitive: true,
				MarkdownDescription: "The same as a URI: `postgresql://user:password@host:port/dbname?sslmode=...` (several hosts separated by commas; " +
					"socket directories as `host` parameters).",
			},
			"expires_at": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "When the password stops being accepted (RFC 3339), for a cloud login token; null for a password. A token lives 15 minutes " +
					"(AWS RDS) to an hour: a program that keeps connecting longer needs a way of its own to get new ones.",
			},
		},
	}
}

func (e *connectionStringEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (e *connectionStringEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m connectionStringModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if e.client == nil {
		resp.Diagnostics.AddError("Provider not configured", "The provider must be configured to build a connection string.")
		return
	}
	cs, err := e.client.ConnectionString(ctx, pgconn.ConnectionParams{
		Database: m.Database.ValueString(), Username: m.Username.ValueString(), Password: m.Password.ValueString(), ApplicationName: m.ApplicationName.ValueString(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Could not build the connection string", err.Error())
		return
	}
	for _, w := range cs.Warnings {
		resp.Diagnostics.AddWarning("Connection string", strings.ToUpper(w[:1])+w[1:]+".")
	}
	if m.CheckLogin.ValueBool() {
		if err := e.client.CheckLogin(ctx, cs); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("check_login"), "Login failed", "The connection string does not work: "+err.Error())
			return
		}
	}
	m.Database = types.StringValue(cs.Database)
	m.Username = types.StringValue(cs.Username)
	m.Password = types.StringNull()
	if cs.Password != "" {
		m.Password = types.StringValue(cs.Password)
	}
	m.Host = types.StringValue(strings.Join(cs.Hosts, ","))
	m.Port = types.Int64Value(int64(cs.Ports[0]))
	m.SSLMode = types.StringValue(cs.SSLMode)
	m.DSN = types.StringValue(cs.Keyword)
	m.URL = types.StringValue(cs.URL)
	m.ExpiresAt = types.StringNull()
	if !cs.Expires.IsZero() {
		m.ExpiresAt = types.StringValue(cs.Expires.UTC().Format(time.RFC3339))
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

type connectionStringModel struct {
	Database        types.String `tfsdk:"database"`
	Username        types.String `tfsdk:"username"`
	Password        types.String `tfsdk:"password"`
	ApplicationName types.String `tfsdk:"application_name"`
	CheckLogin      types.Bool   `tfsdk:"check_login"`
	Host            types.String `tfsdk:"host"`
	Port            types.Int64  `tfsdk:"port"`
	SSLMode         types.String `tfsdk:"sslmode"`
	DSN             types.String `tfsdk:"dsn"`
	URL             types.String `tfsdk:"url"`
	ExpiresAt       types.String `tfsdk:"expires_at"`
}
