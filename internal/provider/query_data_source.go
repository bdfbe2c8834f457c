package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ datasource.DataSourceWithConfigure = (*queryDataSource)(nil)

// NewQueryDataSource is the constructor of the postgresql_query data source.
func NewQueryDataSource() datasource.DataSource { return &queryDataSource{} }

type queryDataSource struct {
	client *pg.Client
}

// Defaults of postgresql_query.
const (
	defaultQueryTimeout = 30 // seconds
	defaultQueryMaxRows = 1000
)

var queryColumnType = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "type": types.StringType}}

var queryRowType = types.MapType{ElemType: types.StringType}

func (d *queryDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_query"
}

func (d *queryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs one read-only query in a database and returns its rows (each a map from column name to the value as text) " +
			"and its columns' names and types. The query is one `SELECT`, `WITH`, `VALUES` or `TABLE` statement, sent over the extended protocol " +
			"(a second statement is refused), run in a `READ ONLY` transaction with a statement timeout and rolled back: PostgreSQL refuses any write, " +
			"DDL or DCL in it, those of the functions it calls included. Values of `args` are bound as parameters (`$1`, `$2`, ...), never spliced into the text. " +
			"Terraform reads it while planning when every argument is known, otherwise during apply (never with unknown values).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The database the query ran in."},
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to run the query in; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
			"query": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The query: one `SELECT`, `WITH`, `VALUES` or `TABLE` statement (one trailing semicolon allowed), with `$1`, `$2`, ... " +
					"for the values of `args`. Statements of other kinds, a second statement, and writes (`INSERT`, `UPDATE`, `DELETE`, `SELECT ... INTO`, " +
					"`nextval()`, a function that writes) fail.",
				Validators: []validator.String{queryValidator{}},
			},
			"args": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "The values of the query's parameters, in order (`$1` is the first); `null` elements are SQL `NULL`. " +
					"Each is sent as text and PostgreSQL infers its type from where it is used (`$1::int` or `$1::uuid` to say it).",
			},
			"statement_timeout": schema.Int64Attribute{
				Optional: true, Computed: true,
				MarkdownDescription: fmt.Sprintf("Seconds the query may run before the server cancels it (`statement_timeout` of its transaction). Defaults to `%d`.", defaultQueryTimeout),
				Validators:          []validator.Int64{int64validator.Between(1, 86400)},
			},
			"max_rows": schema.Int64Attribute{
				Optional: true, Computed: true,
				MarkdownDescription: fmt.Sprintf("Most rows the query may return: more is an error (the rows go into the state). Defaults to `%d`.", defaultQueryMaxRows),
				Validators:          []validator.Int64{int64validator.Between(1, 1000000)},
			},
			"columns": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The result's columns, in order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Computed: true, MarkdownDescription: "The column's name."},
					"type": schema.StringAttribute{Computed: true, MarkdownDescription: "The column's type, as `format_type` spells it (e.g. `integer`, `character varying(20)`, `text[]`)."},
				}},
			},
			"rows": schema.ListAttribute{
				ElementType: queryRowType,
				Computed:    true,
				MarkdownDescription: "The rows, in the order the query returns them, each a map from column name to the value as PostgreSQL prints it " +
					"(`t`/`f` for booleans, arrays as `{a,b}`, timestamps in the session's `DateStyle` and `TimeZone`); `null` for SQL `NULL`. " +
					"Column names must be unique (alias them with `AS`).",
			},
		},
	}
}

func (d *queryDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *queryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m queryDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Query.IsUnknown() || m.Args.IsUnknown() || m.Database.IsUnknown() || m.StatementTimeout.IsUnknown() || m.MaxRows.IsUnknown() {
		// Terraform defers such a read to the apply; never run a query on a guess
		m.Columns = types.ListUnknown(queryColumnType)
		m.Rows = types.ListUnknown(queryRowType)
		m.ID = types.StringUnknown()
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		return
	}
	var args []*string
	if !m.Args.IsNull() {
		for i, e := range m.Args.Elements() {
			s, ok := e.(types.String)
			if !ok || s.IsUnknown() {
				resp.Diagnostics.AddAttributeError(path.Root("args").AtListIndex(i), "Unknown argument", "The argument is not known yet.")
				return
			}
			if s.IsNull() {
				args = append(args, nil)
			} else {
				v := s.ValueString()
				args = append(args, &v)
			}
		}
	}
	if m.StatementTimeout.IsNull() {
		m.StatementTimeout = types.Int64Value(defaultQueryTimeout)
	}
	if m.MaxRows.IsNull() {
		m.MaxRows = types.Int64Value(defaultQueryMaxRows)
	}
	m.Database = dataSourceDatabase(m.Database, d.client)
	db := m.Database.ValueString()
	res, err := d.client.RunReadOnlyQuery(ctx, db, m.Query.ValueString(), args,
		time.Duration(m.StatementTimeout.ValueInt64())*time.Second, int(m.MaxRows.ValueInt64()))
	if err != nil {
		where := path.Root("query")
		if errors.Is(err, pg.ErrTooManyRows) {
			where = path.Root("max_rows")
		}
		resp.Diagnostics.AddAttributeError(where, "Query failed", fmt.Sprintf("The query in database %q failed: %s", db, err))
		return
	}
	cols := make([]attr.Value, len(res.Columns))
	seen := map[string]bool{}
	for i, c := range res.Columns {
		if seen[c.Name] {
			resp.Diagnostics.AddAttributeError(path.Root("query"), "Duplicate column name",
				fmt.Sprintf("The query in database %q returns two columns named %q; each row is a map by column name, so name them apart (AS).", db, c.Name))
			return
		}
		seen[c.Name] = true
		cols[i] = types.ObjectValueMust(queryColumnType.AttrTypes, map[string]attr.Value{"name": types.StringValue(c.Name), "type": types.StringValue(c.Type)})
	}
	rows := make([]attr.Value, len(res.Rows))
	for i, r := range res.Rows {
		vals := make(map[string]attr.Value, len(r))
		for j, v := range r {
			if v == nil {
				vals[res.Columns[j].Name] = types.StringNull()
			} else {
				vals[res.Columns[j].Name] = types.StringValue(*v)
			}
		}
		rows[i] = types.MapValueMust(types.StringType, vals)
	}
	m.Columns = types.ListValueMust(queryColumnType, cols)
	m.Rows = types.ListValueMust(queryRowType, rows)
	m.ID = m.Database
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// queryValidator refuses, at validate time, a query that is not one read
// statement (pg.CheckQuery).
type queryValidator struct{}

func (queryValidator) Description(context.Context) string {
	return "must be one SELECT, WITH, VALUES or TABLE statement"
}

func (v queryValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (queryValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := pg.CheckQuery(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid query", "The query "+err.Error()+".")
	}
}

type queryDataSourceModel struct {
	ID               types.String `tfsdk:"id"`
	Database         types.String `tfsdk:"database"`
	Query            types.String `tfsdk:"query"`
	Args             types.List   `tfsdk:"args"`
	StatementTimeout types.Int64  `tfsdk:"statement_timeout"`
	MaxRows          types.Int64  `tfsdk:"max_rows"`
	Columns          types.List   `tfsdk:"columns"`
	Rows             types.List   `tfsdk:"rows"`
}
