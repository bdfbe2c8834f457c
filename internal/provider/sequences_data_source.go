package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

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
				ElementType: schemaObjectType("data_type"), Computed: true,
				MarkdownDescription: "The matching sequences, sorted by schema and name: `object_name`, `schema_name`, `data_type` (`smallint`, `integer` or `bigint`).",
			},
		},
		list: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, m *sequencesDataSourceModel, diags *diag.Diagnostics) {
			m.Sequences = listInSchemas(ctx, m.Schemas, "data_type", "sequences", diags, func(schemas []string) ([]pg.SchemaObject, error) {
				return c.ListSequences(ctx, db, f, schemas)
			})
		},
	}
}

type sequencesDataSourceModel struct {
	catalogListBase
	Schemas   types.List `tfsdk:"schemas"`
	Sequences types.List `tfsdk:"sequences"`
}
