package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ validatedResource                     = (*roleSettingResource)(nil)
	_ tfkit.ChangePlanner[roleSettingModel] = (*roleSettingResource)(nil)
	_ tfkit.IDImporter                      = (*roleSettingResource)(nil)
)

// NewRoleSettingResource is the constructor of postgresql_role_setting.
func NewRoleSettingResource() resource.Resource {
	r := &roleSettingResource{}
	// The object's identity (Terraform 1.12+) is `role`, `database`, `parameter`.
	r.Lifecycle = newLifecycle[roleSettingModel](r, "role_setting", roleSettingSchemaV1, "role", "database", "parameter")
	return r
}

type roleSettingResource struct {
	tfkit.Lifecycle[roleSettingModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_role_setting
}

// parameterNameRe is a configuration parameter's name as PostgreSQL stores
// it: lower case, optionally qualified by an extension's prefix
// (`auto_explain.log_min_duration`, `app.tenant`).
var parameterNameRe = regexp.MustCompile(`^[a-z_][a-z0-9_$]*(\.[a-z_][a-z0-9_$]*)*$`)

// roleManagedParameters are the settings postgresql_role manages itself in
// every database (its search_path, statement_timeout,
// idle_in_transaction_session_timeout and assume_role arguments).
var roleManagedParameters = []string{"search_path", "statement_timeout", "idle_in_transaction_session_timeout", "role"}

func roleSettingSchemaV1() schema.Schema {
	replace := stringplanmodifier.RequiresReplace()
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "One configuration parameter a role gets when it logs in (`ALTER ROLE ... [IN DATABASE ...] SET`), in every database or in one. " +
			"Authoritative for that one parameter of that role in that database only: other parameters and other databases are left alone.",
		Attributes: map[string]schema.Attribute{
			"id": tfkit.IDAttr("The import ID: a JSON object with `role`, `parameter` and, for a setting in one database, `database` (see Import)."),
			"role": nameAttribute("The role that gets the setting. With a non-superuser provider role, a role it may administer (on PostgreSQL 16 and later, "+
				"one it has `ADMIN OPTION` on, as it has on the roles it created). Changing it replaces the resource.", replace),
			"database": optionalNameAttribute("The database the setting applies in (`IN DATABASE`). Unset means every database: unlike other resources, "+
				"not the provider's database. A setting in one database wins over the role's setting for every database. Changing it replaces the resource.", replace),
			"parameter": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The parameter's name in lower case, e.g. `work_mem`, or an extension's qualified name such as `auto_explain.log_min_duration` " +
					"(a name with a dot may also be a custom variable, e.g. `app.tenant`). Checked at plan time against `pg_settings` with the value, and by PostgreSQL when the setting is applied. " +
					"Parameters that only a superuser may set need a superuser provider role, or a `GRANT SET ON PARAMETER` (PostgreSQL 15 and later). Changing it replaces the resource.",
				Validators: []validator.String{
					stringvalidator.LengthBetween(1, 63),
					stringvalidator.RegexMatches(parameterNameRe, "must be a parameter name in lower case, optionally qualified (`prefix.name`)"),
				},
				PlanModifiers: []planmodifier.String{replace},
			},
			"value": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The value, as `SET` takes it, with its unit where it has one (`64MB`, `30s`). " +
					"For a list parameter (`search_path`, `temp_tablespaces`, `session_preload_libraries`, `local_preload_libraries`) the elements separated by commas, " +
					"double-quoted where they need it (`app, \"$user\", public`): a refresh keeps your spelling while the elements are the same. Changes in place.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.RegexMatches(regexp.MustCompile("^[^\x00]*$"), "must not contain a NUL character")},
			},
		},
	}
}

// ValidateConfig warns about a setting for every database of a parameter that
// postgresql_role manages: when the role is also a postgresql_role resource,
// each of the two undoes the other's change on every apply.
func (r *roleSettingResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m roleSettingModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !isKnown(m.Parameter) || !m.Database.IsNull() {
		return
	}
	if p := m.Parameter.ValueString(); slices.Contains(roleManagedParameters, p) {
		arg := p
		if p == "role" {
			arg = "assume_role"
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("parameter"), "Parameter managed by postgresql_role",
			fmt.Sprintf("postgresql_role manages %s in every database (its %s argument). If this role is a postgresql_role resource, set it there: "+
				"otherwise the two resources undo each other's change on every apply. A setting in one database (database set) does not conflict.", p, arg))
	}
}

type roleSettingImportID struct {
	Role      string `json:"role"`
	Database  string `json:"database"`
	Parameter string `json:"parameter"`
}

// ImportByID takes a JSON object: {"role":"app","database":"main","parameter":"work_mem"};
// without database, the setting for every database.
func (r *roleSettingResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id roleSettingImportID
	if err := tfkit.ParseID(req.ID, &id, "role", "parameter"); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error()+`. Example: {"role":"app","database":"main","parameter":"work_mem"}`)
		return
	}
	m := roleSettingModel{Role: types.StringValue(id.Role), Database: tfkit.StringOrNull(id.Database), Parameter: types.StringValue(id.Parameter), Value: types.StringNull()}
	m.ID = types.StringValue(m.id())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// PlanChange computes the ID and refuses a setting PostgreSQL would refuse
// (checkSettingAtPlan) when the parameter or the value changes.
func (r *roleSettingResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[roleSettingModel]) {
	plan := &p.Plan
	if plan.Role.IsUnknown() || plan.Database.IsUnknown() || plan.Parameter.IsUnknown() {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(plan.id())
	}
	if p.Creating() || !plan.Parameter.Equal(p.State.Parameter) || !plan.Value.Equal(p.State.Value) {
		checkSettingAtPlan(ctx, r.client, plan.Parameter, plan.Value, r.Describe(plan), &resp.Diagnostics)
	}
}

func (r *roleSettingResource) Describe(m *roleSettingModel) string {
	s := fmt.Sprintf("setting %s of role %q", m.Parameter.ValueString(), m.Role.ValueString())
	if db := m.Database.ValueString(); db != "" {
		s += fmt.Sprintf(" in database %q", db)
	}
	return s
}

// namesUsed: the role and the database (awaitNames).
func (r *roleSettingResource) namesUsed(m *roleSettingModel) []pg.Ref {
	var n refs
	n.role("role", m.Role)
	n.database("database", m.Database)
	return n
}

func (r *roleSettingResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *roleSettingModel) diag.Diagnostics {
	defer r.client.Claim(plan.factKey())()
	return tfkit.Failed("Could not set role setting", r.client.SetRoleSetting(ctx, plan.setting()))
}

func (r *roleSettingResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, _ *roleSettingModel) diag.Diagnostics {
	defer r.client.Claim(plan.factKey())()
	return tfkit.Failed("Could not change role setting", r.client.SetRoleSetting(ctx, plan.setting()))
}

// DropObject resets the setting, unless another resource of this apply states
// it (it moved to another address: pg/claims.go).
func (r *roleSettingResource) DropObject(ctx context.Context, c *tfkit.Call, state *roleSettingModel) diag.Diagnostics {
	claimed, release := r.client.Retract(state.factKey())
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	return tfkit.Failed("Could not reset role setting",
		resetSetting(ctx, r.client, c, state.Role.ValueString(), state.Database.ValueString(), state.Parameter.ValueString()))
}

// ReadObject refreshes the value, keeping the model's spelling of a value that
// means the same (a list with the same elements, the same amount in other
// units, another letter case of a boolean or enum).
func (r *roleSettingResource) ReadObject(ctx context.Context, c *tfkit.Call, m *roleSettingModel) (bool, diag.Diagnostics) {
	s, diags := readSetting(ctx, r.client, c, m.Role.ValueString(), m.Database.ValueString(), m.Parameter.ValueString(), "Could not read role setting")
	if s == nil {
		return false, diags
	}
	if m.Value.IsNull() || m.Value.IsUnknown() || !pg.SettingValuesEqual(s.Info, s.Parameter, m.Value.ValueString(), s.Value) {
		m.Value = types.StringValue(s.Value)
	}
	m.ID = types.StringValue(m.id())
	return true, diags
}

func (m *roleSettingModel) setting() pg.RoleSetting {
	return pg.RoleSetting{Role: m.Role.ValueString(), Database: m.Database.ValueString(), Parameter: m.Parameter.ValueString(), Value: m.Value.ValueString()}
}

// id renders the resource ID (also the import ID).
func (m *roleSettingModel) id() string {
	id := map[string]any{"role": m.Role.ValueString(), "parameter": m.Parameter.ValueString()}
	if db := m.Database.ValueString(); db != "" {
		id["database"] = db
	}
	return canonicalID(id)
}

// factKey is the setting's fact (pg/claims.go).
func (m *roleSettingModel) factKey() string {
	return pg.SettingFactKey(m.Role.ValueString(), m.Database.ValueString(), m.Parameter.ValueString())
}

type roleSettingModel struct {
	ID        types.String `tfsdk:"id"`
	Role      types.String `tfsdk:"role"`
	Database  types.String `tfsdk:"database"`
	Parameter types.String `tfsdk:"parameter"`
	Value     types.String `tfsdk:"value"`
}

// settingRole is the current name and OID of a setting's role ("" for a
// database's setting for every role): by name, or by the OID recorded in
// private state at the last read when no role has that name (renamed
// outside Terraform, or by this apply). Name "" with ok: the role is gone.
func settingRole(ctx context.Context, client *pg.Client, c *tfkit.Call, role string) (name string, oid uint32, err error) {
	if role == "" {
		return "", 0, nil
	}
	found, err := client.ResolveRoles(ctx, []string{role}, map[string]uint32{role: privateOID(ctx, c, privateRoleOID)})
	if err != nil {
		return "", 0, err
	}
	r, ok := found[role]
	if !ok {
		return role, 0, nil // PUBLIC: no such setting target, left to the statement
	}
	return r.Name, r.OID, nil
}

// readSetting reads a setting of role (followed by its OID, settingRole: a
// destroy after a rename outside Terraform still resets it; found by the
// walk, seed 14500 step 37 as the managed admin on PostgreSQL 18) in
// database and records the role's OID; nil when it does not exist (summary:
// the error's).
func readSetting(ctx context.Context, client *pg.Client, c *tfkit.Call, role, database, parameter, summary string) (*pg.RoleSetting, diag.Diagnostics) {
	name, oid, err := settingRole(ctx, client, c, role)
	if err != nil || (name == "" && role != "") {
		_, d := notFound(summary, err)
		return nil, d
	}
	s, err := client.ReadRoleSetting(ctx, name, database, parameter)
	if err != nil || s == nil {
		_, d := notFound(summary, err)
		return nil, d
	}
	return s, savePrivateOID(ctx, c, privateRoleOID, oid)
}

// resetSetting resets a setting of role (followed by its OID, settingRole)
// in database: a role renamed while the reset runs (by this apply) is looked
// up again, a role that is gone took its settings along.
func resetSetting(ctx context.Context, client *pg.Client, c *tfkit.Call, role, database, parameter string) error {
	for try := 0; ; try++ {
		name, _, err := settingRole(ctx, client, c, role)
		if err != nil {
			return err
		}
		if role != "" && name == "" {
			return nil
		}
		if err := client.ResetRoleSetting(ctx, name, database, parameter); err != nil {
			return err
		}
		again, _, err := settingRole(ctx, client, c, role)
		if err != nil || again == name || try == 2 {
			return err
		}
	}
}
