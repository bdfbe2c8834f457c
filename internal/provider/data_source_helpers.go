package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// The catalog list data sources (postgresql_schemas, _tables, _sequences)
// share one implementation: cyrilgdn's name patterns, an optional database
// (the provider's by default, also the id), and a list call of their own.

// catalogListBase is the part of a catalog list model every one of them has.
type catalogListBase struct {
	nameFilterModel
	ID       types.String `tfsdk:"id"`
	Database types.String `tfsdk:"database"`
}

func (b *catalogListBase) base() *catalogListBase { return b }

// catalogListModel is a pointer to the model M of a catalog list data source,
// which embeds catalogListBase.
type catalogListModel[M any] interface {
	*M
	base() *catalogListBase
}

// catalogListDataSource is postgresql_<name>: it lists what list returns
// into the model (list reports failures in diags).
type catalogListDataSource[M any, P catalogListModel[M]] struct {
	client      *pg.Client
	name        string
	description string
	// subject names what the patterns match, e.g. "table names".
	subject    string
	attributes map[string]dsschema.Attribute
	list       func(ctx context.Context, c *pg.Client, database string, f pg.NameFilter, m P, diags *diag.Diagnostics)
}

var _ datasource.DataSourceWithConfigure = (*catalogListDataSource[schemasDataSourceModel, *schemasDataSourceModel])(nil)

func (d *catalogListDataSource[M, P]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.name
}

func (d *catalogListDataSource[M, P]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dsschema.Schema{
		MarkdownDescription: d.description,
		Attributes: mergeAttributes(nameFilterAttributes(d.subject), map[string]dsschema.Attribute{
			"id": dsschema.StringAttribute{Computed: true, MarkdownDescription: "The database name."},
			"database": dsschema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to list; the provider's `database` when not set.",
				Validators:          []validator.String{validators.Name()},
			},
		}, d.attributes),
	}
}

func (d *catalogListDataSource[M, P]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *catalogListDataSource[M, P]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m := P(new(M))
	resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b := m.base()
	b.Database = dataSourceDatabase(b.Database, d.client)
	f := b.filter(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	d.list(ctx, d.client, b.Database.ValueString(), f, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	b.ID = b.Database
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// nameFilterAttributes are cyrilgdn's pattern arguments of the catalog list
// data sources; what names them is `subject` (e.g. "table names").
func nameFilterAttributes(subject string) map[string]dsschema.Attribute {
	return map[string]dsschema.Attribute{
		"like_any_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching at least one of these `LIKE` patterns (`%` any string, `_` one character, `\\` escapes). " +
				"Patterns are sent as query parameters, never spliced into SQL.",
		},
		"like_all_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching every one of these `LIKE` patterns.",
		},
		"not_like_all_patterns": dsschema.ListAttribute{
			ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Drop " + subject + " matching any of these `LIKE` patterns (`NOT LIKE ALL`).",
		},
		"regex_pattern": dsschema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Keep " + subject + " matching this POSIX regular expression (`~`).",
		},
	}
}

type nameFilterModel struct {
	LikeAny    types.List   `tfsdk:"like_any_patterns"`
	LikeAll    types.List   `tfsdk:"like_all_patterns"`
	NotLikeAll types.List   `tfsdk:"not_like_all_patterns"`
	Regex      types.String `tfsdk:"regex_pattern"`
}

func (f nameFilterModel) filter(ctx context.Context, diags *diag.Diagnostics) pg.NameFilter {
	list := func(l types.List) []string {
		var out []string
		if !l.IsNull() && !l.IsUnknown() {
			diags.Append(l.ElementsAs(ctx, &out, false)...)
		}
		return out
	}
	return pg.NameFilter{LikeAny: list(f.LikeAny), LikeAll: list(f.LikeAll), NotLikeAll: list(f.NotLikeAll), Regex: f.Regex.ValueString()}
}

// dataSourceDatabase resolves the database argument of a data source.
func dataSourceDatabase(v types.String, client *pg.Client) types.String {
	if isKnown(v) && v.ValueString() != "" {
		return v
	}
	return types.StringValue(client.DefaultDatabase())
}

// schemaObjectType is the element type of the lists of postgresql_tables and
// _sequences: object_name, schema_name and the object's kind, named kind
// (e.g. `table_type`).
func schemaObjectType(kind string) types.ObjectType {
	return types.ObjectType{AttrTypes: map[string]attr.Type{
		"object_name": types.StringType, "schema_name": types.StringType, kind: types.StringType,
	}}
}

// listInSchemas is the list of schemaObjectType(kind) that list finds in the
// configured schemas; what (e.g. "tables") names them in the error.
func listInSchemas(ctx context.Context, schemas types.List, kind, what string, diags *diag.Diagnostics, list func(schemas []string) ([]pg.SchemaObject, error)) types.List {
	t := schemaObjectType(kind)
	names := tfkit.ListStrings(ctx, schemas, diags)
	if diags.HasError() {
		return types.ListNull(t)
	}
	rows, err := list(names)
	if err != nil {
		diags.AddError("Could not list "+what, err.Error())
		return types.ListNull(t)
	}
	elems := make([]attr.Value, len(rows))
	for i, o := range rows {
		elems[i] = types.ObjectValueMust(t.AttrTypes, map[string]attr.Value{
			"object_name": types.StringValue(o.Name), "schema_name": types.StringValue(o.Schema), kind: types.StringValue(o.Kind),
		})
	}
	return types.ListValueMust(t, elems)
}

func mergeAttributes(maps ...map[string]dsschema.Attribute) map[string]dsschema.Attribute {
	out := map[string]dsschema.Attribute{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// The data sources that read one object by name (postgresql_role,
// postgresql_database) share one implementation as well: the configured
// `name`, a lookup, an error on `name` when there is no such object, and the
// model filled from what the lookup found.

// namedObjectBase is the part of a named object's model every one of them has.
type namedObjectBase struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
	OID  types.Int64  `tfsdk:"oid"`
}

func (b *namedObjectBase) base() *namedObjectBase { return b }

// namedObjectModel is a pointer to the model M of a named object data source,
// which embeds namedObjectBase.
type namedObjectModel[M any] interface {
	*M
	base() *namedObjectBase
}

// namedObjectDataSource is postgresql_<kind>: lookup (a pg.Client method)
// finds the object O, nil when there is none, and fill copies it into the
// model, its OID included (failures in diags).
type namedObjectDataSource[M any, P namedObjectModel[M], O any] struct {
	client      *pg.Client
	kind        string
	description string
	attributes  map[string]dsschema.Attribute
	lookup      func(c *pg.Client, ctx context.Context, name string) (*O, error)
	fill        func(ctx context.Context, m P, o *O, diags *diag.Diagnostics)
}

func (d *namedObjectDataSource[M, P, O]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.kind
}

func (d *namedObjectDataSource[M, P, O]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dsschema.Schema{
		MarkdownDescription: d.description,
		Attributes: mergeAttributes(map[string]dsschema.Attribute{
			"id":   dsschema.StringAttribute{Computed: true, MarkdownDescription: "The " + d.kind + " name."},
			"name": dsschema.StringAttribute{Required: true, MarkdownDescription: "The " + d.kind + " name.", Validators: []validator.String{validators.Name()}},
			"oid":  dsschema.Int64Attribute{Computed: true, MarkdownDescription: "The " + d.kind + "'s OID."},
		}, d.attributes),
	}
}

func (d *namedObjectDataSource[M, P, O]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *namedObjectDataSource[M, P, O]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m := P(new(M))
	resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b := m.base()
	o, err := d.lookup(d.client, ctx, b.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read "+d.kind, err.Error())
		return
	}
	if o == nil {
		resp.Diagnostics.AddAttributeError(path.Root("name"), strings.ToUpper(d.kind[:1])+d.kind[1:]+" not found",
			fmt.Sprintf("There is no %s named %q on the server.", d.kind, b.Name.ValueString()))
		return
	}
	b.ID = b.Name
	d.fill(ctx, m, o, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
