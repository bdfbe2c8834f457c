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

var _ datasource.DataSourceWithConfigure = (*sequencesDataSource)(nil)

// NewSequencesDataSource is the constructor of the postgresql_sequences data source.
func NewSequencesDataSource() datasource.DataSource { return &sequencesDataSource{} }

type sequencesDataSource struct {
	client *pg.Client
}

var sequenceObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"object_name": types.StringType, "schema_name": types.StringType, "data_type": types.StringType,
}}

func (d *sequencesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sequences"
}

func (d *sequencesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The sequences of a database that the provider's role can see in `information_schema.sequences`, filtered by patterns on the sequence name.",
		Attributes: mergeAttributes(nameFilterAttributes("sequence names"), map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The database name."},
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to list; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
			"schemas": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these schemas; all by default.",
			},
			"sequences": schema.ListAttribute{
				ElementType: sequenceObjectType, Computed: true,
				MarkdownDescription: "The matching sequences, sorted by schema and name: `object_name`, `schema_name`, `data_type` (`smallint`, `integer` or `bigint`).",
			},
		}),
	}
}

func (d *sequencesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *sequencesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m sequencesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Database = dataSourceDatabase(m.Database, d.client)
	f := m.filter(ctx, &resp.Diagnostics)
	schemas := listStrings(ctx, m.Schemas, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rows, err := d.client.ListSequences(ctx, m.Database.ValueString(), f, schemas)
	if err != nil {
		resp.Diagnostics.AddError("Could not list sequences", err.Error())
		return
	}
	elems := make([]attr.Value, len(rows))
	for i, r := range rows {
		elems[i] = types.ObjectValueMust(sequenceObjectType.AttrTypes, map[string]attr.Value{
			"object_name": types.StringValue(r.Name), "schema_name": types.StringValue(r.Schema), "data_type": types.StringValue(r.DataType),
		})
	}
	m.Sequences = types.ListValueMust(sequenceObjectType, elems)
	m.ID = m.Database
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type sequencesDataSourceModel struct {
	nameFilterModel
	ID        types.String `tfsdk:"id"`
	Database  types.String `tfsdk:"database"`
	Schemas   types.List   `tfsdk:"schemas"`
	Sequences types.List   `tfsdk:"sequences"`
}
