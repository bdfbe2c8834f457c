package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// List resources (Terraform 1.14+, `terraform query`): every object of a
// type that the filters keep, with its identity, a display name and, when
// asked (`include_resource`, `-generate-config-out`), the whole resource. An
// object is found as an import by identity finds it: its names go into an
// empty state and the resource's own read completes it, so a listed
// resource is exactly what an import and a refresh record.

// catalogList is postgresql_<kind>'s list resource. names lists the objects
// the filters keep, each as the state attributes that name it (its identity);
// display names one for people.
type catalogList[M any] struct {
	client      *pg.Client
	kind        string
	newResource func() resource.Resource
	// database: the list has a `database` argument (the provider's by default)
	database      bool
	systemObjects string // what include_system adds, for its description
	names         func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, includeSystem bool) ([]map[string]string, error)
	display       func(names map[string]string) string
}

type catalogListConfig struct {
	nameFilterModel
	Database      types.String `tfsdk:"database"`
	IncludeSystem types.Bool   `tfsdk:"include_system"`
}

func (l *catalogList[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + l.kind
}

func (l *catalogList[M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		l.client = clientFrom(req.ProviderData, &resp.Diagnostics)
	}
}

func (l *catalogList[M]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	subject := l.kind + " names"
	attrs := map[string]listschema.Attribute{
		"like_any_patterns": listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching at least one of these `LIKE` patterns (sent as query parameters)."},
		"like_all_patterns": listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching every one of these `LIKE` patterns."},
		"not_like_all_patterns": listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Drop " + subject + " matching any of these `LIKE` patterns."},
		"regex_pattern": listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Keep " + subject + " matching this POSIX regular expression."},
		"include_system": listschema.BoolAttribute{Optional: true,
			MarkdownDescription: "Also list " + l.systemObjects + " (left out by default)."},
		"database": listschema.StringAttribute{Optional: true,
			MarkdownDescription: "The database to list in; the provider's `database` when not set.",
			Validators:          []validator.String{validators.Name()}},
	}
	if !l.database {
		delete(attrs, "database")
	}
	resp.Schema = listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Every `postgresql_%s` the filters keep, for `terraform query` (Terraform 1.14+): its identity, its name and, with `include_resource`, the resource as an import reads it.", l.kind),
		Attributes:          attrs,
	}
}

func (l *catalogList[M]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var cfg catalogListConfig
	if l.database {
		diags.Append(req.Config.Get(ctx, &cfg)...)
	} else {
		var c struct {
			nameFilterModel
			IncludeSystem types.Bool `tfsdk:"include_system"`
		}
		diags.Append(req.Config.Get(ctx, &c)...)
		cfg.nameFilterModel, cfg.IncludeSystem = c.nameFilterModel, c.IncludeSystem
	}
	f := cfg.filter(ctx, &diags)
	if diags.HasError() || l.client == nil {
		if l.client == nil {
			diags.AddError("Provider not configured", "The provider must be configured to list objects.")
		}
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	db := l.client.DefaultDatabase()
	if isKnown(cfg.Database) {
		db = cfg.Database.ValueString()
	}
	found, err := l.names(ctx, l.client, db, f, cfg.IncludeSystem.ValueBool())
	if err != nil {
		diags.AddError("Could not list "+l.kind+"s", err.Error())
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	res := l.newResource()
	if c, ok := res.(resource.ResourceWithConfigure); ok {
		var cr resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: l.client}, &cr)
	}
	obj := res.(object[M])
	stream.Results = func(push func(list.ListResult) bool) {
		for i, names := range found {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = l.display(names)
			ok, d := listedObject(ctx, obj, res, req, names, &result)
			result.Diagnostics.Append(d...)
			if !ok && !result.Diagnostics.HasError() {
				continue // dropped since it was listed
			}
			if !push(result) {
				return
			}
		}
	}
}

// listedObject reads one listed object as an import by identity would: its
// names in an empty state, completed by the resource's read. It fills the
// result's identity and, when asked for, its resource.
func listedObject[M any](ctx context.Context, obj object[M], res resource.Resource, req list.ListRequest, names map[string]string, result *list.ListResult) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	st := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	for a, v := range names {
		diags.Append(st.SetAttribute(ctx, path.Root(a), v)...)
	}
	var m M
	if diags.Append(st.Get(ctx, &m)...); diags.HasError() {
		return false, diags
	}
	found, d := obj.read(ctx, &call{op: opRead}, &m)
	if diags.Append(d...); diags.HasError() || !found {
		return false, diags
	}
	if diags.Append(recordState(ctx, &st, &m)...); diags.HasError() {
		return false, diags
	}
	diags.Append(setIdentity(ctx, res, st, result.Identity)...)
	if req.IncludeResource {
		result.Resource.Raw = st.Raw
	}
	return true, diags
}

// oneName and dbAndName turn listed names into the attributes that name the
// object.
func oneName(attr string, names []string) []map[string]string {
	out := make([]map[string]string, len(names))
	for i, n := range names {
		out[i] = map[string]string{attr: n}
	}
	return out
}

func dbAndName(db string, names []string) []map[string]string {
	out := make([]map[string]string, len(names))
	for i, n := range names {
		out[i] = map[string]string{"database": db, "name": n}
	}
	return out
}

func (p *pgProvider) ListResources(_ context.Context) []func() list.ListResource {
	byName := func(m map[string]string) string { return m["name"] }
	dbDotName := func(m map[string]string) string { return m["database"] + "." + m["name"] }
	return []func() list.ListResource{
		func() list.ListResource {
			return &catalogList[databaseModel]{kind: "database", newResource: NewDatabaseResource, systemObjects: "`template0` and `template1`", display: byName,
				names: func(ctx context.Context, c *pg.Client, _ string, f pg.NameFilter, sys bool) ([]map[string]string, error) {
					n, err := c.ListDatabaseNames(ctx, f, sys)
					return oneName("name", n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[extensionModel]{kind: "extension", newResource: NewExtensionResource, database: true, systemObjects: "`plpgsql`", display: dbDotName,
				names: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, sys bool) ([]map[string]string, error) {
					n, err := c.ListExtensionNames(ctx, db, f, sys)
					return dbAndName(db, n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[roleModel]{kind: "role", newResource: NewRoleResource, systemObjects: "PostgreSQL's predefined roles (`pg_*`)", display: byName,
				names: func(ctx context.Context, c *pg.Client, _ string, f pg.NameFilter, sys bool) ([]map[string]string, error) {
					n, err := c.ListRoleNames(ctx, f, sys)
					return oneName("name", n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[schemaModel]{kind: "schema", newResource: NewSchemaResource, database: true, systemObjects: "`pg_*` schemas and `information_schema`", display: dbDotName,
				names: func(ctx context.Context, c *pg.Client, db string, f pg.NameFilter, sys bool) ([]map[string]string, error) {
					n, err := c.ListSchemas(ctx, db, f, sys)
					return dbAndName(db, n), err
				}}
		},
	}
}
