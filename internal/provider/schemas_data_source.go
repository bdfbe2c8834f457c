package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// NewSchemasDataSource is the constructor of the postgresql_schemas data source.
func NewSchemasDataSource() datasource.DataSource {
	return &catalogListDataSource[schemasDataSourceModel, *schemasDataSourceModel]{
		name:        "schemas",
		description: "The names of the schemas of a database, filtered by patterns.",
		subject:     "schema names",
		attributes: map[string]schema.Attribute{
			"include_system_schemas": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Also list the system schemas (`pg_catalog`, `pg_toast`, other `pg_*` schemas and `information_schema`). `public` is never a system schema.",
			},
			"schemas": schema.SetAttribute{
				ElementType: types.StringType, Computed: true,
				MarkdownDescription: "The matching schema names.",
			},
		},
		list: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, m *schemasDataSourceModel, diags *diag.Diagnostics) {
			names, err := c.ListSchemas(ctx, db, f, m.IncludeSystemSchemas.ValueBool())
			if err != nil {
				diags.AddError("Could not list schemas", err.Error())
				return
			}
			set, d := types.SetValueFrom(ctx, types.StringType, append([]string{}, names...))
			diags.Append(d...)
			m.Schemas = set
		},
	}
}

type schemasDataSourceModel struct {
	catalogListBase
	IncludeSystemSchemas types.Bool `tfsdk:"include_system_schemas"`
	Schemas              types.Set  `tfsdk:"schemas"`
}
