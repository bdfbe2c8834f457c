package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*databaseDataSource)(nil)

// NewDatabaseDataSource is the constructor of the postgresql_database data source.
func NewDatabaseDataSource() datasource.DataSource { return &databaseDataSource{} }

type databaseDataSource struct {
	client *pg.Client
}

func (d *databaseDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_database"
}

func (d *databaseDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The attributes of an existing database, by name (from `pg_database`). Reading a database that does not exist is an error.",
		Attributes: map[string]schema.Attribute{
			"id":                schema.StringAttribute{Computed: true, MarkdownDescription: "The database name."},
			"name":              schema.StringAttribute{Required: true, MarkdownDescription: "The database name.", Validators: []validator.String{validators.Name()}},
			"oid":               schema.Int64Attribute{Computed: true, MarkdownDescription: "The database's OID."},
			"owner":             schema.StringAttribute{Computed: true, MarkdownDescription: "The role owning the database."},
			"encoding":          schema.StringAttribute{Computed: true, MarkdownDescription: "The character set, e.g. `UTF8`."},
			"lc_collate":        schema.StringAttribute{Computed: true, MarkdownDescription: "The collation order (`LC_COLLATE`)."},
			"lc_ctype":          schema.StringAttribute{Computed: true, MarkdownDescription: "The character classification (`LC_CTYPE`)."},
			"is_template":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the database can be cloned by any role with `CREATEDB`."},
			"allow_connections": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether connections to the database are allowed."},
			"connection_limit":  schema.Int64Attribute{Computed: true, MarkdownDescription: "Maximum concurrent connections; `-1` means no limit."},
			"tablespace_name":   schema.StringAttribute{Computed: true, MarkdownDescription: "The default tablespace of the database."},
		},
	}
}

func (d *databaseDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *databaseDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m databaseDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	db, err := d.client.ReadDatabaseFacts(ctx, m.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read database", err.Error())
		return
	}
	if db == nil {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Database not found", fmt.Sprintf("There is no database named %q on the server.", m.Name.ValueString()))
		return
	}
	m.ID = types.StringValue(db.Name)
	m.OID = types.Int64Value(int64(db.OID))
	m.Owner = types.StringValue(db.Owner)
	m.Encoding = types.StringValue(db.Encoding)
	m.LCCollate = types.StringValue(db.LCCollate)
	m.LCCtype = types.StringValue(db.LCCtype)
	m.IsTemplate = types.BoolValue(db.IsTemplate)
	m.AllowConnections = types.BoolValue(db.AllowConnections)
	m.ConnectionLimit = types.Int64Value(db.ConnectionLimit)
	m.Tablespace = types.StringValue(db.Tablespace)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type databaseDataSourceModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	OID              types.Int64  `tfsdk:"oid"`
	Owner            types.String `tfsdk:"owner"`
	Encoding         types.String `tfsdk:"encoding"`
	LCCollate        types.String `tfsdk:"lc_collate"`
	LCCtype          types.String `tfsdk:"lc_ctype"`
	IsTemplate       types.Bool   `tfsdk:"is_template"`
	AllowConnections types.Bool   `tfsdk:"allow_connections"`
	ConnectionLimit  types.Int64  `tfsdk:"connection_limit"`
	Tablespace       types.String `tfsdk:"tablespace_name"`
}
