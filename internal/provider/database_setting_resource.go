package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	_ managedResource                           = (*databaseSettingResource)(nil)
	_ tfkit.ChangePlanner[databaseSettingModel] = (*databaseSettingResource)(nil)
	_ tfkit.IDImporter                          = (*databaseSettingResource)(nil)
)

// NewDatabaseSettingResource is the constructor of postgresql_database_setting.
func NewDatabaseSettingResource() resource.Resource {
	r := &databaseSettingResource{}
	// The object's identity (Terraform 1.12+) is `database`, `role`, `parameter`.
	r.Lifecycle = newLifecycle[databaseSettingModel](r, "database_setting", databaseSettingSchemaV1, "database", "role", "parameter")
	return r
}

type databaseSettingResource struct {
	tfkit.Lifecycle[databaseSettingModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_database_setting
}

// settingParameterRe is a configuration parameter's name in any letter case
// (PostgreSQL's own spelling is `DateStyle`, `TimeZone`), optionally
// qualified by an extension's prefix or a custom variable's (`app.tenant`).
var settingParameterRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*$`)

func databaseSettingSchemaV1() schema.Schema {
	replace := stringplanmodifier.RequiresReplace()
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "One configuration parameter every session in a database gets (`ALTER DATABASE ... SET`), or one role's sessions in that database " +
			"(`ALTER ROLE ... IN DATABASE ... SET`, with `role`). Authoritative for that one parameter in that scope only: other parameters, " +
			"other roles and other databases are left alone. `postgresql_role_setting` sets a role's parameters in every database.",
		Attributes: map[string]schema.Attribute{
			"id": tfkit.IDAttr("The import ID: a JSON object with `database`, `parameter` and, for one role's setting, `role` (see Import)."),
			"database": nameAttribute("The database the setting applies in. With a non-superuser provider role and no `role`, a database it owns or "+
				"whose owner's privileges it can borrow (a role it created). Changing it replaces the resource.", replace),
			"role": optionalNameAttribute("The role whose sessions in `database` get the setting (`ALTER ROLE ... IN DATABASE`); unset means every role "+
				"(`ALTER DATABASE`). A role's setting in the database wins over the database's and over the role's own setting for every database. "+
				"With a non-superuser provider role, a role it may administer (on PostgreSQL 16 and later one it has `ADMIN OPTION` on, as on the roles it created). "+
				"Changing it replaces the resource.", replace),
			"parameter": schema.StringAttribute{
				Required: true, CustomType: keywordType{},
				MarkdownDescription: "The parameter's name, e.g. `work_mem`, `search_path`, `statement_timeout`, `default_transaction_read_only`, in any letter case " +
					"(PostgreSQL's own spelling is kept where it has capitals, e.g. `DateStyle`), or a qualified name (`auto_explain.log_min_duration`, " +
					"or a custom variable such as `app.tenant`). Checked at plan time against `pg_settings`: an unknown parameter, one that needs a restart " +
					"or a reload of the server's configuration, and one that only a superuser may set (without a `GRANT SET ON PARAMETER`, PostgreSQL 15+) " +
					"are errors. Changing it replaces the resource; changing only its letter case does not.",
				Validators: []validator.String{
					stringvalidator.LengthBetween(1, 63),
					stringvalidator.RegexMatches(settingParameterRe, "must be a parameter name, optionally qualified (`prefix.name`)"),
				},
				PlanModifiers: []planmodifier.String{tfkit.RequiresReplaceUnlessSame("Changing the parameter (other than its letter case) replaces the resource.")},
			},
			"value": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The value, as `SET` takes it, with its unit where it has one (`64MB`, `30s`). A refresh keeps your spelling while the server's " +
					"means the same: the same amount in another unit (`1GB` and `1024MB`), a boolean or an enum in another letter case or form (`on`, `true`), " +
					"and for a list parameter (`search_path`, `temp_tablespaces`, ...) the same elements (`app, \"$user\", public`). " +
					"A boolean, an enum or a number out of range is checked at plan time. Changes in place.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.RegexMatches(regexp.MustCompile("^[^\x00]*$"), "must not contain a NUL character")},
			},
		},
	}
}

type databaseSettingImportID struct {
	Database  string `json:"database"`
	Role      string `json:"role"`
	Parameter string `json:"parameter"`
}

// ImportByID takes a JSON object: {"database":"app","parameter":"work_mem"};
// with role, that role's setting in the database.
func (r *databaseSettingResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id databaseSettingImportID
	if err := tfkit.ParseID(req.ID, &id, "database", "parameter"); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error()+`. Example: {"database":"app","parameter":"work_mem"} or {"database":"app","role":"reporting","parameter":"statement_timeout"}`)
		return
	}
	m := databaseSettingModel{Database: types.StringValue(id.Database), Role: tfkit.StringOrNull(id.Role), Parameter: keyword{StringValue: types.StringValue(id.Parameter)}, Value: types.StringNull()}
	m.ID = types.StringValue(m.id())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// PlanChange computes the ID and refuses a setting PostgreSQL would refuse
// (checkSettingAtPlan) when the parameter or the value changes.
func (r *databaseSettingResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[databaseSettingModel]) {
	plan := &p.Plan
	if plan.Role.IsUnknown() || plan.Database.IsUnknown() || plan.Parameter.IsUnknown() {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(plan.id())
	}
	if p.Creating() || !plan.Parameter.Equal(p.State.Parameter) || !plan.Value.Equal(p.State.Value) {
		checkSettingAtPlan(ctx, r.client, plan.Parameter.StringValue, plan.Value, r.Describe(plan), &resp.Diagnostics)
	}
}

func (r *databaseSettingResource) Describe(m *databaseSettingModel) string {
	if role := m.Role.ValueString(); role != "" {
		return fmt.Sprintf("setting %s of role %q in database %q", m.Parameter.ValueString(), role, m.Database.ValueString())
	}
	return fmt.Sprintf("setting %s of database %q", m.Parameter.ValueString(), m.Database.ValueString())
}

// namesUsed: the database and the role (awaitNames).
func (r *databaseSettingResource) namesUsed(m *databaseSettingModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("role", m.Role)
	return n
}

func (r *databaseSettingResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *databaseSettingModel) diag.Diagnostics {
	defer r.client.Claim(plan.factKey())()
	return tfkit.Failed("Could not set database setting", r.client.SetRoleSetting(ctx, plan.setting()))
}

func (r *databaseSettingResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, _ *databaseSettingModel) diag.Diagnostics {
	defer r.client.Claim(plan.factKey())()
	return tfkit.Failed("Could not change database setting", r.client.SetRoleSetting(ctx, plan.setting()))
}

// DropObject resets the setting, unless another resource of this apply states
// it (it moved to another address: pg/claims.go).
func (r *databaseSettingResource) DropObject(ctx context.Context, c *tfkit.Call, state *databaseSettingModel) diag.Diagnostics {
	claimed, release := r.client.Retract(state.factKey())
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	return tfkit.Failed("Could not reset database setting",
		resetSetting(ctx, r.client, c, state.Role.ValueString(), state.Database.ValueString(), state.Parameter.ValueString()))
}

// ReadObject refreshes the value, keeping the model's spelling of a value that
// means the same, and of the parameter's name in another letter case.
func (r *databaseSettingResource) ReadObject(ctx context.Context, c *tfkit.Call, m *databaseSettingModel) (bool, diag.Diagnostics) {
	s, diags := readSetting(ctx, r.client, c, m.Role.ValueString(), m.Database.ValueString(), m.Parameter.ValueString(), "Could not read database setting")
	if s == nil {
		return false, diags
	}
	if m.Value.IsNull() || m.Value.IsUnknown() || !pg.SettingValuesEqual(s.Info, s.Parameter, m.Value.ValueString(), s.Value) {
		m.Value = types.StringValue(s.Value)
	}
	m.ID = types.StringValue(m.id())
	return true, diags
}

func (m *databaseSettingModel) setting() pg.RoleSetting {
	return pg.RoleSetting{Role: m.Role.ValueString(), Database: m.Database.ValueString(), Parameter: m.Parameter.ValueString(), Value: m.Value.ValueString()}
}

// id renders the resource ID (also the import ID).
func (m *databaseSettingModel) id() string {
	id := map[string]any{"database": m.Database.ValueString(), "parameter": m.Parameter.ValueString()}
	if role := m.Role.ValueString(); role != "" {
		id["role"] = role
	}
	return canonicalID(id)
}

// factKey is the setting's fact (pg/claims.go).
func (m *databaseSettingModel) factKey() string {
	return pg.SettingFactKey(m.Role.ValueString(), m.Database.ValueString(), m.Parameter.ValueString())
}

type databaseSettingModel struct {
	ID        types.String `tfsdk:"id"`
	Database  types.String `tfsdk:"database"`
	Role      types.String `tfsdk:"role"`
	Parameter keyword      `tfsdk:"parameter"`
	Value     types.String `tfsdk:"value"`
}
