package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*tablesDataSource)(nil)

// NewTablesDataSource is the constructor of the postgresql_tables data source.
func NewTablesDataSource() datasource.DataSource { return &tablesDataSource{} }

type tablesDataSource struct {
	client *pg.Client
}

var tableObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"object_name": types.StringType, "schema_name": types.StringType, "table_type": types.StringType,
}}

func (d *tablesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_tables"
}

func (d *tablesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The tables (and views, foreign tables) of a database that the provider's role can see in `information_schema.tables`, filtered by patterns on the table name.",
		Attributes: mergeAttributes(nameFilterAttributes("table names"), map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The database name."},
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to list; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
			"schemas": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these schemas. By default every schema except `pg_catalog` and `information_schema`.",
			},
			"table_types": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these `information_schema` table types: `BASE TABLE` (tables, partitioned tables), `VIEW`, `FOREIGN`, `LOCAL TEMPORARY`. All by default.",
			},
			"tables": schema.ListAttribute{
				ElementType: tableObjectType, Computed: true,
				MarkdownDescription: "The matching tables, sorted by schema and name: `object_name`, `schema_name`, `table_type`.",
			},
		}),
	}
}

func (d *tablesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *tablesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m tablesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Database = dataSourceDatabase(m.Database, d.client)
	f := m.filter(ctx, &resp.Diagnostics)
	schemas := listStrings(ctx, m.Schemas, &resp.Diagnostics)
	tableTypes := listStrings(ctx, m.TableTypes, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rows, err := d.client.ListTables(ctx, m.Database.ValueString(), f, schemas, tableTypes)
	if err != nil {
		resp.Diagnostics.AddError("Could not list tables", err.Error())
		return
	}
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		elems[i] = types.ObjectValueMust(tableObjectType.AttrTypes, map[string]attr.Value{
			"object_name": types.StringValue(r.Name), "schema_name": types.StringValue(r.Schema), "table_type": types.StringValue(r.Type),
		})
	}
	m.Tables = types.ListValueMust(tableObjectType, elems)
	m.ID = m.Database
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type tablesDataSourceModel struct {
	nameFilterModel
	ID         types.String `tfsdk:"id"`
	Database   types.String `tfsdk:"database"`
	Schemas    types.List   `tfsdk:"schemas"`
	TableTypes types.List   `tfsdk:"table_types"`
	Tables     types.List   `tfsdk:"tables"`
}
