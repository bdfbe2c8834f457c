package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// List resources (Terraform 1.14+, `terraform query`): every object of a
// type that the filters keep, with its identity, a display name and, when
// asked (`include_resource`, `-generate-config-out`), the whole resource. An
// object is found as an import by identity finds it: its names go into an
// empty state and the resource's own read completes it, so a listed
// resource is exactly what an import and a refresh record.

// listed is one listed object: the state attributes that name it (its
// identity), each a string, or a []string for a set attribute; keys that
// start with "_" are for the display name only.
type listed map[string]any

// s is attribute k's string ("" when unset).
func (l listed) s(k string) string {
	v, _ := l[k].(string)
	return v
}

// catalogList is postgresql_<kind>'s list resource. list lists the objects
// the filters keep, each as the state attributes that name it (its identity);
// display names one for people.
type catalogList[M any] struct {
	client      *pg.Client
	data        any // what Configure got, handed on to the resource that reads each listed object
	kind        string
	newResource func() resource.Resource
	// nameFilter: the list has the LIKE/regex name filters, on subject
	// (default: "<kind> names")
	nameFilter bool
	subject    string
	// database: the list has a `database` argument (the provider's by default)
	database bool
	// systemObjects: what include_system adds, for its description (no
	// include_system when empty)
	systemObjects string
	// filters are the kind's own string arguments (empty when unset)
	filters map[string]listschema.StringAttribute
	// flags are the kind's own bool arguments (false when unset)
	flags map[string]listschema.BoolAttribute
	// clusterWide, when set, names the cluster-wide objects the kind also
	// lists, by default only in the provider's database (cluster_wide)
	clusterWide string
	// adjust, when set, changes a listed object after its read: it leaves
	// out what another resource owns (one fact, one owner)
	adjust func(m *M, a listArgs)
	// about is said of the kind on its page, after what every list says
	about   string
	list    func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error)
	display func(names listed) string
	// imported, when set, turns listed names into what the resource's import
	// by ID records: state attributes and private state (postgresql_function)
	imported func(names listed) (listed, map[string][]byte, error)
}

// listArgs is a list resource's configuration.
type listArgs struct {
	db            string
	filter        pg.NameFilter
	includeSystem bool
	str           map[string]string // the kind's own filters, "" when unset
	flag          map[string]bool   // the kind's own flags, false when unset
	// clusterWide: list the cluster-wide objects too
	clusterWide bool
}

func (l *catalogList[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + l.kind
}

func (l *catalogList[M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		l.client = clientFrom(req.ProviderData, &resp.Diagnostics)
		l.data = req.ProviderData
	}
}

func (l *catalogList[M]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	subject := l.kind + " names"
	if l.subject != "" {
		subject = l.subject
	}
	attrs := map[string]listschema.Attribute{}
	if l.nameFilter {
		attrs["like_any_patterns"] = listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching at least one of these `LIKE` patterns (sent as query parameters)."}
		attrs["like_all_patterns"] = listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Keep " + subject + " matching every one of these `LIKE` patterns."}
		attrs["not_like_all_patterns"] = listschema.ListAttribute{ElementType: types.StringType, Optional: true,
			MarkdownDescription: "Drop " + subject + " matching any of these `LIKE` patterns."}
		attrs["regex_pattern"] = listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Keep " + subject + " matching this POSIX regular expression."}
	}
	if l.systemObjects != "" {
		attrs["include_system"] = listschema.BoolAttribute{Optional: true,
			MarkdownDescription: "Also list " + l.systemObjects + " (left out by default)."}
	}
	if l.database {
		attrs["database"] = listschema.StringAttribute{Optional: true,
			MarkdownDescription: "The database to list in; the provider's `database` when not set.",
			Validators:          []validator.String{validators.Name()}}
	}
	if l.clusterWide != "" {
		attrs["cluster_wide"] = listschema.BoolAttribute{Optional: true,
			MarkdownDescription: "Also list " + l.clusterWide + ": objects of the cluster, not of one database. " +
				"Defaults to `true` when `database` is the provider's database (or unset) and `false` otherwise, so that a query listing several databases lists them once."}
	}
	for name, a := range l.filters {
		attrs[name] = a
	}
	for name, a := range l.flags {
		attrs[name] = a
	}
	resp.Schema = listschema.Schema{
		MarkdownDescription: strings.TrimSpace(fmt.Sprintf("Every `postgresql_%s` the filters keep, for `terraform query` (Terraform 1.14+): its identity, a display name and, with `include_resource`, the resource as an import reads it. %s", l.kind, l.about)),
		Attributes:          attrs,
	}
}

// args reads the configuration.
func (l *catalogList[M]) args(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) listArgs {
	get := func(name string, target any) { diags.Append(cfg.GetAttribute(ctx, path.Root(name), target)...) }
	a := listArgs{db: l.client.DefaultDatabase(), str: map[string]string{}, flag: map[string]bool{}}
	if l.nameFilter {
		var f nameFilterModel
		get("like_any_patterns", &f.LikeAny)
		get("like_all_patterns", &f.LikeAll)
		get("not_like_all_patterns", &f.NotLikeAll)
		get("regex_pattern", &f.Regex)
		a.filter = f.filter(ctx, diags)
	}
	if l.systemObjects != "" {
		var b types.Bool
		get("include_system", &b)
		a.includeSystem = b.ValueBool()
	}
	if l.database {
		var db types.String
		if get("database", &db); isKnown(db) {
			a.db = db.ValueString()
		}
	}
	for name := range l.filters {
		var v types.String
		get(name, &v)
		a.str[name] = v.ValueString()
	}
	for name := range l.flags {
		var v types.Bool
		get(name, &v)
		a.flag[name] = v.ValueBool()
	}
	if l.clusterWide != "" {
		var b types.Bool
		get("cluster_wide", &b)
		a.clusterWide = a.db == l.client.DefaultDatabase()
		if isKnown(b) {
			a.clusterWide = b.ValueBool()
		}
	}
	return a
}

func (l *catalogList[M]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if l.client == nil {
		diags.AddError("Provider not configured", "The provider must be configured to list objects.")
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	a := l.args(ctx, req.Config, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	found, err := l.list(ctx, l.client, a)
	if err != nil {
		diags.AddError("Could not list "+l.kind+"s", err.Error())
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	res := l.newResource()
	if c, ok := res.(resource.ResourceWithConfigure); ok {
		var cr resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: l.data}, &cr)
		if diags.Append(cr.Diagnostics...); diags.HasError() {
			stream.Results = list.ListResultsStreamDiagnostics(diags)
			return
		}
	}
	obj := res.(tfkit.Object[M])
	stream.Results = func(push func(list.ListResult) bool) {
		for i, names := range found {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = l.display(names)
			var private memPrivate
			if l.imported != nil {
				var err error
				if names, private, err = l.imported(names); err != nil {
					result.Diagnostics.AddError("Could not import listed "+l.kind, err.Error())
				}
			}
			ok := false
			if !result.Diagnostics.HasError() {
				var d diag.Diagnostics
				var adjust func(*M)
				if l.adjust != nil {
					adjust = func(m *M) { l.adjust(m, a) }
				}
				ok, d = listedObject(ctx, obj, res, req, names, private, adjust, &result)
				result.Diagnostics.Append(d...)
			}
			if !ok && !result.Diagnostics.HasError() {
				continue // dropped since it was listed
			}
			if !push(result) {
				return
			}
		}
	}
}

// memPrivate is private state held in memory: what an import records for
// the read that follows it.
type memPrivate map[string][]byte

func (p memPrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

// listedObject reads one listed object as an import by identity would: its
// names in an empty state (with the private state the import records),
// completed by the resource's read, then by adjust when not nil. It fills
// the result's identity and, when asked for, its resource.
func listedObject[M any](ctx context.Context, obj tfkit.Object[M], res resource.Resource, req list.ListRequest, names listed, private memPrivate, adjust func(*M), result *list.ListResult) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	st := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	for a, v := range names {
		if !strings.HasPrefix(a, "_") {
			diags.Append(st.SetAttribute(ctx, path.Root(a), v)...)
		}
	}
	var m M
	if diags.Append(st.Get(ctx, &m)...); diags.HasError() {
		return false, diags
	}
	found, d := obj.ReadObject(ctx, tfkit.ReadCall(private), &m)
	if diags.Append(d...); diags.HasError() || !found {
		return false, diags
	}
	if adjust != nil {
		adjust(&m)
	}
	if diags.Append(tfkit.RecordState(ctx, &st, &m)...); diags.HasError() {
		return false, diags
	}
	diags.Append(tfkit.SetIdentity(ctx, res, st, result.Identity)...)
	if req.IncludeResource {
		result.Resource.Raw = st.Raw
	}
	return true, diags
}

// oneName and dbAndName turn listed names into the attributes that name the
// object.
func oneName(attr string, names []string) []listed {
	out := make([]listed, len(names))
	for i, n := range names {
		out[i] = listed{attr: n}
	}
	return out
}

func dbAndName(db string, names []string) []listed {
	out := make([]listed, len(names))
	for i, n := range names {
		out[i] = listed{"database": db, "name": n}
	}
	return out
}

func (p *pgProvider) ListResources(_ context.Context) []func() list.ListResource {
	byName := func(m listed) string { return m.s("name") }
	dbDotName := func(m listed) string { return m.s("database") + "." + m.s("name") }
	return append([]func() list.ListResource{
		func() list.ListResource {
			return &catalogList[databaseModel]{kind: "database", newResource: NewDatabaseResource, nameFilter: true, systemObjects: "`template0` and `template1`", display: byName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListDatabaseNames(ctx, a.filter, a.includeSystem)
					return oneName("name", n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[databaseSettingModel]{kind: "database_setting", newResource: NewDatabaseSettingResource, database: true,
				about: "One result per parameter set for the database (`ALTER DATABASE ... SET`) and per role's parameter set in it (`ALTER ROLE ... IN DATABASE ... SET`). " +
					"A role's settings for every database are `postgresql_role_setting`'s.",
				filters: map[string]listschema.StringAttribute{
					"role": {Optional: true, MarkdownDescription: "Keep this role's settings in the database only (the database's own are left out).", Validators: []validator.String{validators.Name()}},
				},
				display: func(m listed) string {
					if m.s("role") != "" {
						return fmt.Sprintf("%s: %s of role %s", m.s("database"), m.s("parameter"), m.s("role"))
					}
					return m.s("database") + ": " + m.s("parameter")
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ss, err := c.ListDatabaseSettings(ctx, a.db, a.str["role"])
					out := make([]listed, len(ss))
					for i, s := range ss {
						out[i] = listed{"database": s.Database, "parameter": s.Parameter}
						if s.Role != "" {
							out[i]["role"] = s.Role
						}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[defaultPrivilegesModel]{kind: "default_privileges", newResource: NewDefaultPrivilegesResource, database: true,
				about: "One result per (grantee, owner, schema, object type) entry of `pg_default_acl`, as the resource manages them: every grantee of an `IN SCHEMA` entry, " +
					"and the grantees of a global entry whose privileges differ from PostgreSQL's built-in ones (the owner's own, `PUBLIC`'s `EXECUTE` on functions and `USAGE` on types), " +
					"including a built-in grantee left with none (`REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC` is listed as `role = \"public\"` with no privileges). Functions and routines are listed as `function`.",
				filters: map[string]listschema.StringAttribute{
					"owner": {Optional: true, MarkdownDescription: "Keep the entries of this owner (`FOR ROLE`).", Validators: []validator.String{validators.Name()}},
					"schema": {Optional: true, MarkdownDescription: "Keep the entries limited to this schema (`IN SCHEMA`); global entries are left out when set.",
						Validators: []validator.String{validators.Name()}},
					"object_type": {Optional: true, MarkdownDescription: "Keep the entries for this kind of object: `table`, `sequence`, `function`, `type`, `schema` or `large_object`.",
						Validators: []validator.String{stringvalidator.OneOf("table", "sequence", "function", "type", "schema", "large_object")}},
				},
				display: func(m listed) string {
					where := ""
					if m.s("schema") != "" {
						where = " in schema " + m.s("schema")
					}
					return fmt.Sprintf("%s: new %ss of %s%s, to %s", m.s("database"), m.s("object_type"), m.s("owner"), where, m.s("role"))
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ts, err := c.ListDefaultPrivileges(ctx, a.db, pg.DefaultPrivilegesFilter{Owner: a.str["owner"], Schema: a.str["schema"], ObjectType: a.str["object_type"]})
					out := make([]listed, len(ts))
					for i, t := range ts {
						out[i] = listed{"role": t.Grantee, "database": t.Database, "owner": t.Owner, "object_type": t.ObjectType}
						if t.Schema != "" {
							out[i]["schema"] = t.Schema
						}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[extensionModel]{kind: "extension", newResource: NewExtensionResource, nameFilter: true, database: true, systemObjects: "`plpgsql`", display: dbDotName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListExtensionNames(ctx, a.db, a.filter, a.includeSystem)
					return dbAndName(a.db, n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[functionModel]{kind: "function", newResource: NewFunctionResource, nameFilter: true, database: true,
				systemObjects: "the functions of the system schemas (`pg_catalog`, `information_schema`) and of extensions, which cannot be adopted",
				about:         "Functions only: procedures, aggregates and window functions are not listed. Each is named by its identity, `<database>.<schema>.<name>(<input types>)`.",
				filters: map[string]listschema.StringAttribute{
					"schema": {Optional: true, MarkdownDescription: "Keep the functions of this schema (every schema when not set).", Validators: []validator.String{validators.Name()}},
				},
				display: func(m listed) string { return m.s("id") },
				imported: func(m listed) (listed, map[string][]byte, error) {
					n, private, err := functionImport(m.s("id"))
					out := listed{}
					for k, v := range n {
						out[k] = v
					}
					return out, private, err
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					fs, err := c.ListFunctions(ctx, a.db, a.str["schema"], a.filter, a.includeSystem)
					out := make([]listed, len(fs))
					for i, f := range fs {
						out[i] = listed{"id": tfkit.ImportID(a.db, f.Schema, f.Name) + "(" + strings.Join(f.InputTypes, ",") + ")"}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[grantRoleModel]{kind: "grant_role", newResource: NewGrantRoleResource,
				systemObjects: "the memberships of reserved roles (`pg_*`, the roles of managed services), those in managed services' roles and, on PostgreSQL 16 and later, those a non-superuser `CREATEROLE` role receives in the roles it creates",
				about: "One result per (member, granted role) pair, as the resource manages it (PostgreSQL 16+ keeps one membership per grantor). " +
					"Memberships of ordinary roles in predefined roles (`GRANT pg_read_all_data TO app`) are listed.",
				filters: map[string]listschema.StringAttribute{
					"role":             {Optional: true, MarkdownDescription: "Keep the memberships of members matching this `LIKE` pattern (sent as a query parameter)."},
					"grant_role":       {Optional: true, MarkdownDescription: "Keep the memberships in granted roles matching this `LIKE` pattern."},
					"role_regex":       {Optional: true, MarkdownDescription: "Keep the memberships of members matching this POSIX regular expression."},
					"grant_role_regex": {Optional: true, MarkdownDescription: "Keep the memberships in granted roles matching this POSIX regular expression."},
				},
				display: func(m listed) string { return m.s("role") + " in " + m.s("grant_role") },
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					ms, err := c.ListMemberships(ctx, pg.MembershipFilter{Role: a.str["role"], GrantRole: a.str["grant_role"],
						RoleRegex: a.str["role_regex"], GrantRoleRegex: a.str["grant_role_regex"], IncludeSystem: a.includeSystem})
					out := make([]listed, len(ms))
					for i, m := range ms {
						out[i] = listed{"role": m.Role, "grant_role": m.GrantRole}
					}
					return out, err
				}}
		},
		func() list.ListResource {
			return &catalogList[publicationModel]{kind: "publication", newResource: NewPublicationResource, nameFilter: true, database: true, display: dbDotName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListPublicationNames(ctx, a.db, a.filter)
					return dbAndName(a.db, n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[roleModel]{kind: "role", newResource: NewRoleResource, nameFilter: true, systemObjects: "PostgreSQL's predefined roles (`pg_*`)", display: byName,
				about: "A role's memberships are `postgresql_grant_role`'s (one fact, one owner): `roles` is left unset, so the role does not manage them, " +
					"unless `include_roles` asks for them there. Its `search_path`, `statement_timeout`, `idle_in_transaction_session_timeout` and `assume_role` " +
					"are the role's (`postgresql_role_setting` leaves them out).",
				flags: map[string]listschema.BoolAttribute{
					"include_roles": {Optional: true, MarkdownDescription: "Write each role's memberships in its `roles` (the role then owns them, and " +
						"`postgresql_grant_role` must not be listed too). By default `roles` is left unset and the memberships are `postgresql_grant_role`'s."},
				},
				adjust: func(m *roleModel, a listArgs) {
					if !a.flag["include_roles"] {
						m.Roles = types.SetNull(types.StringType)
					}
				},
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListRoleNames(ctx, a.filter, a.includeSystem)
					return oneName("name", n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[schemaModel]{kind: "schema", newResource: NewSchemaResource, nameFilter: true, database: true, systemObjects: "`pg_*` schemas and `information_schema`", display: dbDotName,
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListSchemas(ctx, a.db, a.filter, a.includeSystem)
					return dbAndName(a.db, n), err
				}}
		},
		func() list.ListResource {
			return &catalogList[subscriptionModel]{kind: "subscription", newResource: NewSubscriptionResource, nameFilter: true, database: true, display: dbDotName,
				about: "`conninfo` is sensitive, so `-generate-config-out` writes it as null: fill it in before the plan. PostgreSQL lets only superusers read it: " +
					"when the provider's role is not one, the first apply after the import sets it again, in place.",
				list: func(ctx context.Context, c *pg.Client, a listArgs) ([]listed, error) {
					n, err := c.ListSubscriptionNames(ctx, a.db, a.filter)
					return dbAndName(a.db, n), err
				}}
		},
	}, adoptListResources()...)
}
