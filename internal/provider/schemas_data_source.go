package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*schemasDataSource)(nil)

// NewSchemasDataSource is the constructor of the postgresql_schemas data source.
func NewSchemasDataSource() datasource.DataSource { return &schemasDataSource{} }

type schemasDataSource struct {
	client *pg.Client
}

func (d *schemasDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_schemas"
}

func (d *schemasDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The names of the schemas of a database, filtered by patterns.",
		Attributes: mergeAttributes(nameFilterAttributes("schema names"), map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The database name."},
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to list; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
			"include_system_schemas": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Also list the system schemas (`pg_catalog`, `pg_toast`, other `pg_*` schemas and `information_schema`). `public` is never a system schema.",
			},
			"schemas": schema.SetAttribute{
				ElementType: types.StringType, Computed: true,
				MarkdownDescription: "The matching schema names.",
			},
		}),
	}
}

func (d *schemasDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *schemasDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m schemasDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Database = dataSourceDatabase(m.Database, d.client)
	f := m.filter(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	names, err := d.client.ListSchemas(ctx, m.Database.ValueString(), f, m.IncludeSystemSchemas.ValueBool())
	if err != nil {
		resp.Diagnostics.AddError("Could not list schemas", err.Error())
		return
	}
	set, diags := types.SetValueFrom(ctx, types.StringType, append([]string{}, names...))
	resp.Diagnostics.Append(diags...)
	m.Schemas = set
	m.ID = m.Database
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type schemasDataSourceModel struct {
	nameFilterModel
	ID                   types.String `tfsdk:"id"`
	Database             types.String `tfsdk:"database"`
	IncludeSystemSchemas types.Bool   `tfsdk:"include_system_schemas"`
	Schemas              types.Set    `tfsdk:"schemas"`
}
