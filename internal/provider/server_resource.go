package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource                 = (*serverResource)(nil)
	_ tfkit.ChangePlanner[serverModel]  = (*serverResource)(nil)
	_ tfkit.DestroyPlanner[serverModel] = (*serverResource)(nil)
	_ tfkit.IDImporter                  = (*serverResource)(nil)
	_ tfkit.ImportIDAttributes          = (*serverResource)(nil)
)

// NewServerResource is the constructor of postgresql_server.
func NewServerResource() resource.Resource {
	r := &serverResource{}
	// The object's identity (Terraform 1.12+) is `database`, `server_name`.
	r.Lifecycle = newLifecycle[serverModel](r, "server", serverSchemaV1, "database", "server_name")
	return r
}

type serverResource struct {
	tfkit.Lifecycle[serverModel]
	withClient
}

func serverSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A foreign server (`CREATE SERVER`): the connection details a foreign-data wrapper such as `postgres_fdw` or `file_fdw` uses. " +
			"The wrapper's extension must exist in the database, and a non-superuser needs `USAGE` on the foreign-data wrapper. " +
			"Renaming (`ALTER SERVER ... RENAME TO`), version, options and owner change in place; the server keeps its user mappings, foreign tables and privileges.",
		Attributes: map[string]schema.Attribute{
			"id":          tfkit.IDAttr("The server name (kept equal to `server_name`, as in cyrilgdn/postgresql)."),
			"oid":         tfkit.OIDAttr("The server's OID in its database; it never changes for the life of the server, renames included."),
			"database":    databaseAttribute("foreign server"),
			"server_name": nameAttribute("The server name, unique in its database. Changing it renames the server in place."),
			"fdw_name":    nameAttribute("The foreign-data wrapper that manages the server (e.g. `postgres_fdw`, installed by the extension of the same name). Changing it replaces the server.", stringplanmodifier.RequiresReplace()),
			"server_type": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(""),
				MarkdownDescription: "The server type (`TYPE`), passed to the wrapper; most wrappers ignore it. Empty (the default) means none. " +
					"PostgreSQL cannot change it, so changing it replaces the server.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"server_version": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(""),
				MarkdownDescription: "The server version (`VERSION`), passed to the wrapper; most wrappers ignore it. Empty (the default) means none. Changes in place.",
			},
			"server_owner": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The role owning the server. Defaults to the provider's role. Changes in place (`ALTER SERVER ... OWNER TO`); " +
					"the new owner needs `USAGE` on the foreign-data wrapper, and a non-superuser provider role makes itself a member of the owner.",
				Validators: []validator.String{validators.Name()},
			}),
			"options": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				MarkdownDescription: "The server's options (`OPTIONS`), whose names and values the wrapper defines (for `postgres_fdw`: `host`, `port`, `dbname`, `fetch_size`, ...). " +
					"Options are added, changed and dropped in place (`ALTER SERVER ... OPTIONS (ADD|SET|DROP ...)`); options set outside Terraform are dropped. " +
					"Values of options whose name contains `pass`, `secret`, `key`, `token`, `credential` or `auth` are treated as secrets: masked in the provider's logs " +
					"and errors, and kept out of the server's statement log when the provider's role may set `log_statement` (superuser, or on PostgreSQL 15+ " +
					"`GRANT SET ON PARAMETER`; see the provider documentation). The attribute itself is not sensitive: credentials belong in a `postgresql_user_mapping`, " +
					"or in `options_wo`, which never reaches the state.",
			},
			"options_wo":         optionsWOAttribute("server"),
			"options_wo_version": optionsWOVersionAttribute(),
			"options_wo_names":   optionsWONamesAttribute(),
			"drop_cascade": tfkit.DefaultedBoolAttr(false, "When true, destroying the server also drops what depends on it (user mappings, foreign tables) with `DROP SERVER ... CASCADE`. "+
				"When false (the default) the drop fails while such objects exist."),
		},
	}
}

// serverImport is the import ID of a foreign server (see internal/tfkit/import_id.go).
var serverImport = tfkit.ImportForm{What: "foreign server", Names: []string{"server_name"}}

// ImportIDAttributes: the import ID is made of `database` and `server_name` (see alreadyExists).
func (r *serverResource) ImportIDAttributes() []string { return []string{"database", "server_name"} }

func (r *serverResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(serverImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		s, err := r.client.ReadForeignServer(ctx, db, 0, names[0])
		if err != nil || s == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "server_name", s.Name, "id", s.Name, "oid", int64(s.OID))...)
		// {} rather than null: Read then reports the options as an empty map when
		// there are none, which both an unset options (planOptions keeps the
		// state's "none") and `options = {}` plan as no change.
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("options"), types.MapValueMust(types.StringType, map[string]attr.Value{}))...)
		return true, nil
	})...)
}

// ValidateConfig refuses an option in both options and options_wo.
func (r *serverResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateOptionsWO(ctx, req, resp)
}

// PlanChange keeps the state's owner when the configuration sets none (not
// managed: ownership does not change) and the state's spelling of no options.
func (r *serverResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[serverModel]) {
	plan, config := &p.Plan, &p.Config
	plan.ID = plan.ServerName
	keepUnset(p, func(m *serverModel) *types.String { return &m.ServerOwner })
	stateOptions := types.MapNull(types.StringType)
	if !p.Creating() {
		stateOptions = p.State.Options
	}
	planOptions(config.Options, stateOptions, &plan.Options)
	plan.OptionsWONames = planOptionsWONames(config.OptionsWO)
	planDatabase(p, r.client, func(m *serverModel) *types.String { return &m.Database })
}

// PlanDestroy warns when the server still has user mappings or foreign tables.
func (r *serverResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *serverModel) {
	if r.client == nil || r.client.Ready() != nil || state.OID.IsNull() || state.OID.IsUnknown() {
		return
	}
	mappings, tables, err := r.client.ForeignServerDependents(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()))
	if err != nil || mappings+tables == 0 {
		return
	}
	what := "drop_cascade is false: the drop fails unless they are removed first (those managed in this configuration are destroyed before the server)."
	if state.DropCascade.ValueBool() {
		what = "drop_cascade is true: DROP SERVER ... CASCADE drops them too."
	}
	resp.Diagnostics.AddWarning("Foreign server has dependent objects",
		fmt.Sprintf("Foreign server %q has %d user mapping(s) and %d foreign table(s). %s", state.ServerName.ValueString(), mappings, tables, what))
}

func (r *serverResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeServerV0, "oid", "database", "options_wo", "options_wo_version", "options_wo_names"),
	}
}

func (r *serverResource) Describe(m *serverModel) string {
	return fmt.Sprintf("foreign server %q in database %q", m.ServerName.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database and the owner (awaitNames).
func (r *serverResource) namesUsed(m *serverModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("server_owner", m.ServerOwner)
	return n
}

// CreateObject creates the server with its options and those of options_wo.
func (r *serverResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *serverModel) diag.Diagnostics {
	var diags diag.Diagnostics
	spec := plan.spec(ctx, &diags)
	wo, d := configOptionsWO(ctx, c)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	for k, v := range wo {
		spec.Options[k] = v
	}
	spec.SecretKeys = sortedKeys(wo)
	if _, err := r.client.CreateForeignServer(ctx, databaseOf(r.client, plan.Database), spec); err != nil {
		return tfkit.Failed("Could not create foreign server", err)
	}
	return nil
}

// UpdateObject changes the server in place; the options of options_wo are set again
// with a new options_wo_version, and left as they are otherwise.
func (r *serverResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *serverModel) diag.Diagnostics {
	oid, diags := tfkit.OIDOrRead(ctx, r, c, *state, func(m *serverModel) types.Int64 { return m.OID })
	if diags.HasError() {
		return diags
	}
	spec := plan.spec(ctx, &diags)
	ch, d := planOptionsWO(ctx, c, spec.Options, tfkit.OptionsFromTF(ctx, state.Options, &diags), state.OptionsWONames, !plan.OptionsWOVersion.Equal(state.OptionsWOVersion))
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	spec.Options, spec.Keep, spec.SecretKeys = ch.want, ch.keep, ch.keys
	if _, err := r.client.UpdateForeignServer(ctx, databaseOf(r.client, plan.Database), oid, spec); err != nil {
		return tfkit.Failed("Could not update foreign server", err)
	}
	return nil
}

func (r *serverResource) DropObject(ctx context.Context, _ *tfkit.Call, state *serverModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop foreign server", r.client.DropForeignServer(ctx, databaseOf(r.client, state.Database),
		uint32(state.OID.ValueInt64()), state.ServerName.ValueString(), state.DropCascade.ValueBool()))
}

// ReadObject refreshes m from the server (by OID, else by name); a missing database
// means the server is gone with it.
func (r *serverResource) ReadObject(ctx context.Context, c *tfkit.Call, m *serverModel) (bool, diag.Diagnostics) {
	s, err := r.client.ReadForeignServer(ctx, databaseOf(r.client, m.Database), uint32(m.OID.ValueInt64()), m.ServerName.ValueString())
	if err != nil || s == nil {
		return notFound("Could not read foreign server", err)
	}
	knownOptionsWONames(ctx, c, &m.OptionsWONames)
	s.Options = withoutKeys(s.Options, setNames(ctx, m.OptionsWONames)) // never in the state
	m.OptionsWO = types.MapNull(types.StringType)
	var diags diag.Diagnostics
	m.fill(ctx, r.client, s, &diags)
	return true, diags
}

func (m *serverModel) spec(ctx context.Context, diags *diag.Diagnostics) pg.ForeignServerSpec {
	s := pg.ForeignServerSpec{
		Name:    m.ServerName.ValueString(),
		FDW:     m.FDWName.ValueString(),
		Type:    m.ServerType.ValueString(),
		Version: m.ServerVersion.ValueString(),
		Options: tfkit.OptionsFromTF(ctx, m.Options, diags),
	}
	if !m.ServerOwner.IsUnknown() {
		s.Owner = m.ServerOwner.ValueString()
	}
	return s
}

// fill copies what the server reports into m, keeping m's null options when the server has none.
func (m *serverModel) fill(ctx context.Context, c *pg.Client, s *pg.ForeignServer, diags *diag.Diagnostics) {
	m.ID = types.StringValue(s.Name)
	m.OID = types.Int64Value(int64(s.OID))
	m.Database = types.StringValue(databaseOf(c, m.Database))
	m.ServerName = types.StringValue(s.Name)
	m.FDWName = types.StringValue(s.FDW)
	m.ServerType = types.StringValue(s.Type)
	m.ServerVersion = types.StringValue(s.Version)
	m.ServerOwner = types.StringValue(s.Owner)
	m.Options = tfkit.OptionsToTF(ctx, s.Options, m.Options, diags)
	if m.DropCascade.IsNull() || m.DropCascade.IsUnknown() {
		m.DropCascade = types.BoolValue(false)
	}
}

type serverModel struct {
	ID               types.String `tfsdk:"id"`
	OID              types.Int64  `tfsdk:"oid"`
	Database         types.String `tfsdk:"database"`
	ServerName       types.String `tfsdk:"server_name"`
	FDWName          types.String `tfsdk:"fdw_name"`
	ServerType       types.String `tfsdk:"server_type"`
	ServerVersion    types.String `tfsdk:"server_version"`
	ServerOwner      types.String `tfsdk:"server_owner"`
	Options          types.Map    `tfsdk:"options"`
	OptionsWO        types.Map    `tfsdk:"options_wo"`
	OptionsWOVersion types.String `tfsdk:"options_wo_version"`
	OptionsWONames   types.Set    `tfsdk:"options_wo_names"`
	DropCascade      types.Bool   `tfsdk:"drop_cascade"`
}
