package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// NewTablesDataSource is the constructor of the postgresql_tables data source.
func NewTablesDataSource() datasource.DataSource {
	return &catalogListDataSource[tablesDataSourceModel, *tablesDataSourceModel]{
		name:        "tables",
		description: "The tables (and views, foreign tables) of a database that the provider's role can see in `information_schema.tables`, filtered by patterns on the table name.",
		subject:     "table names",
		attributes: map[string]schema.Attribute{
			"schemas": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these schemas. By default every schema except `pg_catalog` and `information_schema`.",
			},
			"table_types": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Only these `information_schema` table types: `BASE TABLE` (tables, partitioned tables), `VIEW`, `FOREIGN`, `LOCAL TEMPORARY`. All by default.",
			},
			"tables": schema.ListAttribute{
				ElementType: schemaObjectType("table_type"), Computed: true,
				MarkdownDescription: "The matching tables, sorted by schema and name: `object_name`, `schema_name`, `table_type`.",
			},
		},
		list: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, m *tablesDataSourceModel, diags *diag.Diagnostics) {
			tableTypes := tfkit.ListStrings(ctx, m.TableTypes, diags)
			m.Tables = listInSchemas(ctx, m.Schemas, "table_type", "tables", diags, func(schemas []string) ([]pg.SchemaObject, error) {
				return c.ListTables(ctx, db, f, schemas, tableTypes)
			})
		},
	}
}

type tablesDataSourceModel struct {
	catalogListBase
	Schemas    types.List `tfsdk:"schemas"`
	TableTypes types.List `tfsdk:"table_types"`
	Tables     types.List `tfsdk:"tables"`
}
