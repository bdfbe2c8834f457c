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

var tableObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"object_name": types.StringType, "schema_name": types.StringType, "table_type": types.StringType,
}}

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
				ElementType: tableObjectType, Computed: true,
				MarkdownDescription: "The matching tables, sorted by schema and name: `object_name`, `schema_name`, `table_type`.",
			},
		},
		list: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, m *tablesDataSourceModel, diags *diag.Diagnostics) {
			schemas := listStrings(ctx, m.Schemas, diags)
			tableTypes := listStrings(ctx, m.TableTypes, diags)
			if diags.HasError() {
				return
			}
			rows, err := c.ListTables(ctx, db, f, schemas, tableTypes)
			if err != nil {
				diags.AddError("Could not list tables", err.Error())
				return
			}
			m.Tables = objectList(tableObjectType, rows, func(r pg.TableInfo) map[string]attr.Value {
				return map[string]attr.Value{"object_name": types.StringValue(r.Name), "schema_name": types.StringValue(r.Schema), "table_type": types.StringValue(r.Type)}
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
