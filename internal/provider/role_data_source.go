package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// NewRoleDataSource is the constructor of the postgresql_role data source.
func NewRoleDataSource() datasource.DataSource {
	b := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	}
	return &namedObjectDataSource[roleDataSourceModel, *roleDataSourceModel, pg.Role]{
		kind:        "role",
		description: "The attributes of an existing role, by name. Reading a role that does not exist is an error.",
		attributes: map[string]schema.Attribute{
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
		lookup: (*pg.Client).ReadRole,
		fill: func(ctx context.Context, m *roleDataSourceModel, r *pg.Role, diags *diag.Diagnostics) {
			m.OID = types.Int64Value(int64(r.OID))
			m.read(r)
			m.ValidUntil = types.StringValue(r.ValidUntil)
			var d diag.Diagnostics
			m.Roles, d = types.SetValueFrom(ctx, types.StringType, append([]string{}, r.MemberOf...))
			diags.Append(d...)
			sp := []string{}
			if v, ok := r.Settings["search_path"]; ok {
				sp = pg.ParseSearchPath(v)
			}
			m.SearchPath, d = types.ListValueFrom(ctx, types.StringType, sp)
			diags.Append(d...)
		},
	}
}

type roleDataSourceModel struct {
	namedObjectBase
	roleAttributes
	ValidUntil types.String `tfsdk:"valid_until"`
	Roles      types.Set    `tfsdk:"roles"`
	SearchPath types.List   `tfsdk:"search_path"`
}
