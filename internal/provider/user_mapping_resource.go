package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ validatedResource                     = (*userMappingResource)(nil)
	_ tfkit.ChangePlanner[userMappingModel] = (*userMappingResource)(nil)
	_ tfkit.IDImporter                      = (*userMappingResource)(nil)
	_ tfkit.ImportIDAttributes              = (*userMappingResource)(nil)
)

// NewUserMappingResource is the constructor of postgresql_user_mapping.
func NewUserMappingResource() resource.Resource {
	r := &userMappingResource{}
	// The object's identity (Terraform 1.12+) is `database`, `server_name`, `user_name`.
	r.Lifecycle = newLifecycle[userMappingModel](r, "user_mapping", userMappingSchemaV1, "database", "server_name", "user_name")
	return r
}

type userMappingResource struct {
	tfkit.Lifecycle[userMappingModel]
	withClient
}

func userMappingSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A user mapping (`CREATE USER MAPPING`): the credentials a local role uses on a foreign server. " +
			"Creating a mapping for another role needs ownership of the server (a non-superuser provider role makes itself a member of the server's owner). " +
			"Options change in place; renaming the role or the server keeps the mapping.",
		Attributes: map[string]schema.Attribute{
			"id":          tfkit.IDAttr("`<user_name>.<server_name>`, as in cyrilgdn/postgresql."),
			"oid":         tfkit.OIDAttr("The mapping's OID in its database."),
			"database":    databaseAttribute("user mapping"),
			"server_name": nameAttribute("The foreign server. Following a rename of the server keeps the mapping; pointing it at another server moves the mapping (drop and create in one transaction)."),
			"user_name": nameAttribute("The local role the mapping is for, or `public` for the mapping used by every role without a mapping of its own (`FOR PUBLIC`, any letter case). " +
				"Following a rename of the role keeps the mapping; naming another role moves the mapping."),
			"options": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Sensitive:   true,
				MarkdownDescription: "The mapping's options, defined by the wrapper (for `postgres_fdw`: `user`, `password`, ...). Sensitive, as it usually holds a password " +
					"(it is still stored in the Terraform state). Every value is masked in the provider's logs and errors, and kept out of the server's statement log " +
					"when the provider's role may set `log_statement` (superuser, or on PostgreSQL 15+ `GRANT SET ON PARAMETER`; see the provider documentation). Changes in place (`ALTER USER MAPPING ... OPTIONS (ADD|SET|DROP ...)`); options set outside Terraform are dropped. " +
					"PostgreSQL shows a role's mapping options only to superusers and to that role itself (and the PUBLIC mapping's to the server's owner); " +
					"when they are hidden from the provider's role, out-of-band changes cannot be detected and the provider keeps the last applied ones. " +
					"Secrets (a password) are better in `options_wo`, which never reaches the state.",
			},
			"options_wo":         optionsWOAttribute("user mapping"),
			"options_wo_version": optionsWOVersionAttribute(),
			"options_wo_names":   optionsWONamesAttribute(),
		},
	}
}

// ValidateConfig refuses an option in both options and options_wo.
func (r *userMappingResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateOptionsWO(ctx, req, resp)
}

// userMappingImport is the import ID of a user mapping (see internal/tfkit/import_id.go).
var userMappingImport = tfkit.ImportForm{What: "user mapping", Names: []string{"user_name", "server_name"}}

// ImportIDAttributes: the import ID is made of `database`, `user_name` and `server_name` (see alreadyExists).
func (r *userMappingResource) ImportIDAttributes() []string {
	return []string{"database", "user_name", "server_name"}
}

// ImportByID takes `<user_name>.<server_name>` (in the provider's database)
// or `<database>.<user_name>.<server_name>`; `public` names the PUBLIC mapping.
func (r *userMappingResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(userMappingImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		m, err := r.client.ReadUserMapping(ctx, db, 0, names[0], names[1])
		if err != nil || m == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "user_name", m.User, "server_name", m.Server, "oid", int64(m.OID))...)
		if m.Options != nil {
			// {} rather than null when the options are visible: Read then reports
			// none as an empty map, which both an unset options (planOptions keeps
			// the state's "none") and `options = {}` plan as no change. Hidden
			// options (a managed admin reading another role's mapping) stay null:
			// the import cannot tell "none" from "hidden", so it claims neither.
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("options"), types.MapValueMust(types.StringType, map[string]attr.Value{}))...)
		}
		return true, nil
	})...)
}

// PlanChange plans a new OID when the mapping moves to another role or
// server, and keeps the state's spelling of no options.
func (r *userMappingResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[userMappingModel]) {
	plan, config := &p.Plan, &p.Config
	stateOptions := types.MapNull(types.StringType)
	if !p.Creating() {
		stateOptions = p.State.Options
		if !plan.UserName.Equal(p.State.UserName) || !plan.ServerName.Equal(p.State.ServerName) {
			// a rename keeps the mapping, a move to another role or server creates a new one
			plan.OID = types.Int64Unknown()
		}
	}
	plan.ID = joinedID(plan.UserName, plan.ServerName)
	planDatabase(p, r.client, func(m *userMappingModel) *types.String { return &m.Database })
	planOptions(config.Options, stateOptions, &plan.Options)
	plan.OptionsWONames = planOptionsWONames(config.OptionsWO)
}

func (r *userMappingResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeUserMappingV0, "oid", "database", "options_wo", "options_wo_version", "options_wo_names"),
	}
}

func (r *userMappingResource) Describe(m *userMappingModel) string {
	return fmt.Sprintf("user mapping for %q on server %q in database %q", m.UserName.ValueString(), m.ServerName.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database and the user (awaitNames).
func (r *userMappingResource) namesUsed(m *userMappingModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("user_name", m.UserName)
	return n
}

func (r *userMappingResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *userMappingModel) diag.Diagnostics {
	var diags diag.Diagnostics
	opts := tfkit.OptionsFromTF(ctx, plan.Options, &diags)
	wo, d := configOptionsWO(ctx, c)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	for k, v := range wo {
		opts[k] = v
	}
	_, err := r.client.CreateUserMapping(ctx, databaseOf(r.client, plan.Database), plan.UserName.ValueString(), plan.ServerName.ValueString(), opts)
	if err != nil {
		return tfkit.Failed("Could not create user mapping", err)
	}
	return nil
}

// UpdateObject changes the mapping of state (found by OID, else by its names) into
// the plan's; the pg function handles a state without OID. The options of
// options_wo are set again with a new options_wo_version, or when the mapping
// moves to another role or server (it is created again).
func (r *userMappingResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *userMappingModel) diag.Diagnostics {
	var diags diag.Diagnostics
	opts := tfkit.OptionsFromTF(ctx, plan.Options, &diags)
	known := tfkit.OptionsFromTF(ctx, state.Options, &diags)
	if diags.HasError() {
		return diags
	}
	force := !plan.OptionsWOVersion.Equal(state.OptionsWOVersion) || !plan.UserName.Equal(state.UserName) || !plan.ServerName.Equal(state.ServerName)
	ch, d := planOptionsWO(ctx, c, opts, known, state.OptionsWONames, force)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	_, err := r.client.UpdateUserMapping(ctx, databaseOf(r.client, plan.Database), uint32(state.OID.ValueInt64()),
		state.UserName.ValueString(), state.ServerName.ValueString(), plan.UserName.ValueString(), plan.ServerName.ValueString(), ch.known, ch.want, ch.keep)
	if err != nil {
		return tfkit.Failed("Could not update user mapping", err)
	}
	return nil
}

func (r *userMappingResource) DropObject(ctx context.Context, _ *tfkit.Call, state *userMappingModel) diag.Diagnostics {
	db := databaseOf(r.client, state.Database)
	user, server := state.UserName.ValueString(), state.ServerName.ValueString()
	// follow renames of the role or server made since the last refresh
	if m, err := r.client.ReadUserMapping(ctx, db, uint32(state.OID.ValueInt64()), user, server); err == nil && m != nil {
		user, server = m.User, m.Server
	}
	return tfkit.Failed("Could not drop user mapping", r.client.DropUserMapping(ctx, db, user, server))
}

// ReadObject refreshes m from the server (by OID, else by user and server name).
func (r *userMappingResource) ReadObject(ctx context.Context, c *tfkit.Call, m *userMappingModel) (bool, diag.Diagnostics) {
	um, err := r.client.ReadUserMapping(ctx, databaseOf(r.client, m.Database), uint32(m.OID.ValueInt64()),
		m.UserName.ValueString(), m.ServerName.ValueString())
	if err != nil || um == nil {
		return notFound("Could not read user mapping", err)
	}
	knownOptionsWONames(ctx, c, &m.OptionsWONames)
	um.Options = withoutKeys(um.Options, setNames(ctx, m.OptionsWONames)) // never in the state
	m.OptionsWO = types.MapNull(types.StringType)
	var diags diag.Diagnostics
	m.fill(ctx, r.client, um, &diags)
	return true, diags
}

// fill copies what the server reports into m, keeping m's spelling of PUBLIC
// and m's options when the server does not show them.
func (m *userMappingModel) fill(ctx context.Context, c *pg.Client, um *pg.UserMapping, diags *diag.Diagnostics) {
	user := um.User
	if pg.IsPublic(user) && pg.IsPublic(m.UserName.ValueString()) {
		user = m.UserName.ValueString()
	}
	m.UserName = types.StringValue(user)
	m.ServerName = types.StringValue(um.Server)
	m.ID = types.StringValue(user + "." + um.Server)
	m.OID = types.Int64Value(int64(um.OID))
	m.Database = types.StringValue(databaseOf(c, m.Database))
	if um.Options != nil {
		m.Options = tfkit.OptionsToTF(ctx, um.Options, m.Options, diags)
	} else if m.Options.IsUnknown() {
		m.Options = types.MapNull(types.StringType)
	}
}

type userMappingModel struct {
	ID               types.String `tfsdk:"id"`
	OID              types.Int64  `tfsdk:"oid"`
	Database         types.String `tfsdk:"database"`
	ServerName       types.String `tfsdk:"server_name"`
	UserName         types.String `tfsdk:"user_name"`
	Options          types.Map    `tfsdk:"options"`
	OptionsWO        types.Map    `tfsdk:"options_wo"`
	OptionsWOVersion types.String `tfsdk:"options_wo_version"`
	OptionsWONames   types.Set    `tfsdk:"options_wo_names"`
}
