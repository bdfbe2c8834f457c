package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*roleDataSource)(nil)

// NewRoleDataSource is the constructor of the postgresql_role data source.
func NewRoleDataSource() datasource.DataSource { return &roleDataSource{} }

type roleDataSource struct {
	client *pg.Client
}

func (d *roleDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_role"
}

func (d *roleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	b := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The attributes of an existing role, by name. Reading a role that does not exist is an error.",
		Attributes: map[string]schema.Attribute{
			"id":                        schema.StringAttribute{Computed: true, MarkdownDescription: "The role name."},
			"name":                      schema.StringAttribute{Required: true, MarkdownDescription: "The role name.", Validators: []validator.String{validators.Name()}},
			"oid":                       schema.Int64Attribute{Computed: true, MarkdownDescription: "The role's OID."},
			"superuser":                 b("Whether the role is a superuser."),
			"create_database":           b("Whether the role may create databases (`CREATEDB`)."),
			"create_role":               b("Whether the role may create roles (`CREATEROLE`)."),
			"inherit":                   b("Whether the role uses the privileges of its roles without `SET ROLE`."),
			"login":                     b("Whether the role may log in."),
			"replication":               b("Whether the role may start replication (`REPLICATION`)."),
			"bypass_row_level_security": b("Whether the role bypasses row-level security (`BYPASSRLS`)."),
			"connection_limit":          schema.Int64Attribute{Computed: true, MarkdownDescription: "Maximum concurrent connections; `-1` means no limit."},
			"valid_until":               schema.StringAttribute{Computed: true, MarkdownDescription: "When the password expires, as the server renders it; `infinity` means never."},
			"roles": schema.SetAttribute{
				ElementType: types.StringType, Computed: true,
				MarkdownDescription: "The roles this role is a member of.",
			},
			"search_path": schema.ListAttribute{
				ElementType: types.StringType, Computed: true,
				MarkdownDescription: "The role's own `search_path` setting (empty when not set).",
			},
		},
	}
}

func (d *roleDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *roleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m roleDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r, err := d.client.ReadRole(ctx, m.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read role", err.Error())
		return
	}
	if r == nil {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Role not found", fmt.Sprintf("There is no role named %q on the server.", m.Name.ValueString()))
		return
	}
	m.ID = types.StringValue(r.Name)
	m.OID = types.Int64Value(int64(r.OID))
	m.Superuser = types.BoolValue(r.Superuser)
	m.CreateDatabase = types.BoolValue(r.CreateDB)
	m.CreateRole = types.BoolValue(r.CreateRole)
	m.Inherit = types.BoolValue(r.Inherit)
	m.Login = types.BoolValue(r.Login)
	m.Replication = types.BoolValue(r.Replication)
	m.BypassRLS = types.BoolValue(r.BypassRLS)
	m.ConnectionLimit = types.Int64Value(r.ConnLimit)
	m.ValidUntil = types.StringValue(r.ValidUntil)
	var diags diag.Diagnostics
	m.Roles, diags = types.SetValueFrom(ctx, types.StringType, append([]string{}, r.MemberOf...))
	resp.Diagnostics.Append(diags...)
	sp := []string{}
	if v, ok := r.Settings["search_path"]; ok {
		sp = pg.ParseSearchPath(v)
	}
	m.SearchPath, diags = types.ListValueFrom(ctx, types.StringType, sp)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type roleDataSourceModel struct {
	ID              types.String `tfsdk:"id"`
	Name            types.String `tfsdk:"name"`
	OID             types.Int64  `tfsdk:"oid"`
	Superuser       types.Bool   `tfsdk:"superuser"`
	CreateDatabase  types.Bool   `tfsdk:"create_database"`
	CreateRole      types.Bool   `tfsdk:"create_role"`
	Inherit         types.Bool   `tfsdk:"inherit"`
	Login           types.Bool   `tfsdk:"login"`
	Replication     types.Bool   `tfsdk:"replication"`
	BypassRLS       types.Bool   `tfsdk:"bypass_row_level_security"`
	ConnectionLimit types.Int64  `tfsdk:"connection_limit"`
	ValidUntil      types.String `tfsdk:"valid_until"`
	Roles           types.Set    `tfsdk:"roles"`
	SearchPath      types.List   `tfsdk:"search_path"`
}
