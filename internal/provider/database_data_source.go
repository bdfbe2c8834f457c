package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// NewDatabaseDataSource is the constructor of the postgresql_database data source.
func NewDatabaseDataSource() datasource.DataSource {
	return &namedObjectDataSource[databaseDataSourceModel, *databaseDataSourceModel, pg.Database]{
		kind:        "database",
		description: "The attributes of an existing database, by name (from `pg_database`). Reading a database that does not exist is an error.",
		attributes: map[string]schema.Attribute{
			"owner":             schema.StringAttribute{Computed: true, MarkdownDescription: "The role owning the database."},
			"encoding":          schema.StringAttribute{Computed: true, MarkdownDescription: "The character set, e.g. `UTF8`."},
			"lc_collate":        schema.StringAttribute{Computed: true, MarkdownDescription: "The collation order (`LC_COLLATE`)."},
			"lc_ctype":          schema.StringAttribute{Computed: true, MarkdownDescription: "The character classification (`LC_CTYPE`)."},
			"is_template":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the database can be cloned by any role with `CREATEDB`."},
			"allow_connections": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether connections to the database are allowed."},
			"connection_limit":  schema.Int64Attribute{Computed: true, MarkdownDescription: "Maximum concurrent connections; `-1` means no limit."},
			"tablespace_name":   schema.StringAttribute{Computed: true, MarkdownDescription: "The default tablespace of the database."},
		},
		lookup: (*pg.Client).ReadDatabase,
		fill: func(_ context.Context, m *databaseDataSourceModel, db *pg.Database, _ *diag.Diagnostics) {
			m.OID = types.Int64Value(int64(db.OID))
			m.Owner = types.StringValue(db.Owner)
			m.Encoding = types.StringValue(db.Encoding)
			m.LCCollate = types.StringValue(db.Collate)
			m.LCCtype = types.StringValue(db.Ctype)
			m.IsTemplate = types.BoolValue(db.IsTemplate)
			m.AllowConnections = types.BoolValue(db.AllowConn)
			m.ConnectionLimit = types.Int64Value(db.ConnLimit)
			m.Tablespace = types.StringValue(db.Tablespace)
		},
	}
}

type databaseDataSourceModel struct {
	namedObjectBase
	Owner            types.String `tfsdk:"owner"`
	Encoding         types.String `tfsdk:"encoding"`
	LCCollate        types.String `tfsdk:"lc_collate"`
	LCCtype          types.String `tfsdk:"lc_ctype"`
	IsTemplate       types.Bool   `tfsdk:"is_template"`
	AllowConnections types.Bool   `tfsdk:"allow_connections"`
	ConnectionLimit  types.Int64  `tfsdk:"connection_limit"`
	Tablespace       types.String `tfsdk:"tablespace_name"`
}
