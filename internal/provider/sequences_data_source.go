package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

var sequenceObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"object_name": types.StringType, "schema_name": types.StringType, "data_type": types.StringType,
}}

// NewSequencesDataSource is the constructor of the postgresql_sequences data source.
func NewSequencesDataSource() datasource.DataSource {
	return &catalogListDataSource[sequencesDataSourceModel, *sequencesDataSourceModel]{
		name:        "sequences",
		description: "The sequences of a database that the provider's role can see in `information_schema.sequences`, filtered by patterns on the sequence name.",
		subject:     "sequence names",
		attributes: map[string]schema.Attribute{
			"schemas": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these schemas; all by default.",
			},
			"sequences": schema.ListAttribute{
				ElementType: sequenceObjectType, Computed: true,
				MarkdownDescription: "The matching sequences, sorted by schema and name: `object_name`, `schema_name`, `data_type` (`smallint`, `integer` or `bigint`).",
			},
		},
		list: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, m *sequencesDataSourceModel, diags *diag.Diagnostics) {
			schemas := listStrings(ctx, m.Schemas, diags)
			if diags.HasError() {
				return
			}
			rows, err := c.ListSequences(ctx, db, f, schemas)
			if err != nil {
				diags.AddError("Could not list sequences", err.Error())
				return
			}
			m.Sequences = objectList(sequenceObjectType, rows, func(r pg.SequenceInfo) map[string]attr.Value {
				return map[string]attr.Value{"object_name": types.StringValue(r.Name), "schema_name": types.StringValue(r.Schema), "data_type": types.StringValue(r.DataType)}
			})
		},
	}
}

type sequencesDataSourceModel struct {
	catalogListBase
	Schemas   types.List `tfsdk:"schemas"`
	Sequences types.List `tfsdk:"sequences"`
}
