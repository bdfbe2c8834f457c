package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ resource.Resource                   = (*policyResource)(nil)
	_ resource.ResourceWithConfigure      = (*policyResource)(nil)
	_ resource.ResourceWithImportState    = (*policyResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*policyResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*policyResource)(nil)
	_ resource.ResourceWithValidateConfig = (*policyResource)(nil)
)

// NewPolicyResource is the constructor of postgresql_policy.
func NewPolicyResource() resource.Resource { return &policyResource{} }

type policyResource struct {
	client *pg.Client
}

func (r *policyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_policy"
}

func (r *policyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = policySchemaV1()
}

func policySchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A row-level security policy (`CREATE POLICY`) on a table. Policies only take effect while row-level security is enabled on the table " +
			"(see `postgresql_table_rls`). Renaming, roles and expressions change in place (`ALTER POLICY`); command, permissiveness and table replace the policy. " +
			"Creating and altering a policy needs ownership of the table.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<database>.<schema>.<table>.<name>`.",
			},
			"oid": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The policy's OID; it never changes for the life of the policy, renames included.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The policy name, unique per table. Changing it renames the policy in place.",
				Validators:          []validator.String{validators.Name()},
			},
			"database": databaseAttribute("policy"),
			"schema": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("public"),
				MarkdownDescription: "The schema of the table (default `public`). Changing it replaces the policy.",
				Validators:          []validator.String{validators.Name()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"table": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The table the policy applies to. Changing it replaces the policy (renaming the table itself keeps the policy).",
				Validators:          []validator.String{validators.Name()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"command": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("ALL"),
				MarkdownDescription: "The command the policy applies to: `ALL` (the default), `SELECT`, `INSERT`, `UPDATE` or `DELETE`. Changing it replaces the policy.",
				Validators:          []validator.String{stringvalidator.OneOf("ALL", "SELECT", "INSERT", "UPDATE", "DELETE")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"permissive": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether the policy is permissive (`AS PERMISSIVE`, the default: combined with other permissive policies by `OR`) " +
					"or restrictive (`false`, `AS RESTRICTIVE`: combined by `AND`). Changing it replaces the policy.",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplace()},
			},
			"roles": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				Default:             setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{types.StringValue("public")})),
				MarkdownDescription: "The roles the policy applies to; `public` (the default) means every role. Changes in place.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validators.Name())},
			},
			"using": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The `USING` expression: rows for which it is not true are invisible to the command (not for `INSERT`). " +
					"Compared with the server's rendering of it, so `a=1` and `(a = 1)` are the same. Changes in place; removing it replaces the policy (PostgreSQL cannot drop it).",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{requiresReplaceWhenRemoved()},
			},
			"with_check": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The `WITH CHECK` expression: new or updated rows for which it is not true are refused (not for `SELECT` or `DELETE`). " +
					"Compared with the server's rendering of it. Changes in place; removing it replaces the policy.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{requiresReplaceWhenRemoved()},
			},
		},
	}
}

// requiresReplaceWhenRemoved replaces the resource when an expression that
// exists is removed from the configuration: ALTER POLICY cannot drop one.
func requiresReplaceWhenRemoved() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = req.PlanValue.IsNull() && !req.StateValue.IsNull()
	}, "Removing an expression replaces the policy: PostgreSQL cannot drop it from a policy.",
		"Removing an expression replaces the policy: PostgreSQL cannot drop it from a policy.")
}

func (r *policyResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *policyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m policyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Command.IsUnknown() {
		return
	}
	cmd := m.Command.ValueString()
	if cmd == "INSERT" && !m.Using.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("using"), "USING not allowed for INSERT", "An INSERT policy has only a WITH CHECK expression.")
	}
	if (cmd == "SELECT" || cmd == "DELETE") && !m.WithCheck.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("with_check"), "WITH CHECK not allowed for "+cmd, "A "+cmd+" policy has only a USING expression.")
	}
}

func (r *policyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan policyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	spec := plan.spec(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := r.client.CreatePolicy(ctx, databaseOf(r.client, plan.Database), spec)
	if err != nil {
		resp.Diagnostics.AddError("Could not create policy", err.Error())
		return
	}
	r.fill(ctx, &plan, p, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *policyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state policyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := r.client.ReadPolicy(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()),
		state.Schema.ValueString(), state.Table.ValueString(), state.Name.ValueString())
	if err != nil {
		if pg.SQLState(err) == pg.CodeInvalidCatalogName {
			resp.State.RemoveResource(ctx)
			return
		}
		resp.Diagnostics.AddError("Could not read policy", err.Error())
		return
	}
	if p == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	r.fill(ctx, &state, p, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *policyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state policyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	spec := plan.spec(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	db := databaseOf(r.client, plan.Database)
	oid := uint32(state.OID.ValueInt64())
	if oid == 0 {
		cur, err := r.client.ReadPolicy(ctx, db, 0, state.Schema.ValueString(), state.Table.ValueString(), state.Name.ValueString())
		if err != nil || cur == nil {
			resp.Diagnostics.AddError("Could not update policy", fmt.Sprintf("policy %q not found: %v", state.Name.ValueString(), err))
			return
		}
		oid = cur.OID
	}
	p, err := r.client.UpdatePolicy(ctx, db, oid, spec)
	if err != nil {
		resp.Diagnostics.AddError("Could not update policy", err.Error())
		return
	}
	r.fill(ctx, &plan, p, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *policyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state policyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	err := r.client.DropPolicy(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()),
		state.Schema.ValueString(), state.Table.ValueString(), state.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not drop policy", err.Error())
	}
}

// ImportState takes `<schema>.<table>.<name>` (in the provider's database) or
// `<database>.<schema>.<table>.<name>`; the split naming an existing policy wins.
func (r *policyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.client == nil {
		resp.Diagnostics.AddError("Provider not configured", "the provider must be configured to import")
		return
	}
	found := resolveImport(ctx, r.client, req.ID, 3, func(db string, names []string) bool {
		p, err := r.client.ReadPolicy(ctx, db, 0, names[0], names[1], names[2])
		if err != nil || p == nil {
			return false
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("database"), db)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("schema"), p.Schema)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("table"), p.Table)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), p.Name)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("oid"), int64(p.OID))...)
		return true
	})
	if found {
		return
	}
	resp.Diagnostics.AddError("Policy not found",
		fmt.Sprintf("No policy matches the import ID %q. Use `<schema>.<table>.<name>` for a policy in the provider's database %q, or `<database>.<schema>.<table>.<name>`.",
			req.ID, r.client.DefaultDatabase()))
}

func (r *policyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, config policyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	state := policyModel{Database: types.StringNull()}
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	planDatabase(r.client, config.Database, state.Database, &plan.Database)
	plan.ID = joinedID(plan.Database, plan.Schema, plan.Table, plan.Name)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// joinedID joins known parts with dots, or is unknown when a part is.
func joinedID(parts ...types.String) types.String {
	s := make([]string, len(parts))
	for i, p := range parts {
		if p.IsUnknown() || p.IsNull() {
			return types.StringUnknown()
		}
		s[i] = p.ValueString()
	}
	return types.StringValue(strings.Join(s, "."))
}

// UpgradeState: postgresql_policy is new (cyrilgdn/postgresql has no such
// type), so there is no prior layout to upgrade from.
func (r *policyResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

func (m *policyModel) spec(ctx context.Context, diags *diag.Diagnostics) pg.PolicySpec {
	s := pg.PolicySpec{
		Name: m.Name.ValueString(), Schema: m.Schema.ValueString(), Table: m.Table.ValueString(),
		Command: m.Command.ValueString(), Permissive: m.Permissive.ValueBool(),
		Using: m.Using.ValueString(), WithCheck: m.WithCheck.ValueString(),
	}
	if !m.Roles.IsNull() && !m.Roles.IsUnknown() {
		diags.Append(m.Roles.ElementsAs(ctx, &s.Roles, false)...)
	}
	return s
}

// fill copies the server's policy into m, keeping m's spelling of the
// expressions when the server renders them the same, and of PUBLIC.
func (r *policyResource) fill(ctx context.Context, m *policyModel, p *pg.Policy, diags *diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	m.Database = types.StringValue(db)
	m.OID = types.Int64Value(int64(p.OID))
	m.Name = types.StringValue(p.Name)
	m.Schema = types.StringValue(p.Schema)
	m.Table = types.StringValue(p.Table)
	m.ID = types.StringValue(strings.Join([]string{db, p.Schema, p.Table, p.Name}, "."))
	m.Command = types.StringValue(p.Command)
	m.Permissive = types.BoolValue(p.Permissive)

	var prior []string
	if !m.Roles.IsNull() && !m.Roles.IsUnknown() {
		diags.Append(m.Roles.ElementsAs(ctx, &prior, false)...)
	}
	roles := make([]string, len(p.Roles))
	for i, role := range p.Roles {
		roles[i] = role
		if role == "public" {
			for _, pr := range prior {
				if isPublic(pr) {
					roles[i] = pr
				}
			}
		}
	}
	sort.Strings(roles)
	rs, d := types.SetValueFrom(ctx, types.StringType, roles)
	diags.Append(d...)
	m.Roles = rs

	// Semantic equality of expressions: ask the server to render the state's spelling.
	keepU := !m.Using.IsNull() && !m.Using.IsUnknown() && m.Using.ValueString() != p.Using && p.Using != ""
	keepW := !m.WithCheck.IsNull() && !m.WithCheck.IsUnknown() && m.WithCheck.ValueString() != p.WithCheck && p.WithCheck != ""
	if keepU || keepW {
		u, w := "", ""
		if keepU {
			u = m.Using.ValueString()
		}
		if keepW {
			w = m.WithCheck.ValueString()
		}
		nu, nw, err := r.client.NormalizePolicyExprs(ctx, db, p.Schema, p.Table, u, w)
		if err != nil {
			// the spelling no longer parses (e.g. a column was dropped): report the server's
			keepU, keepW = false, false
		} else {
			keepU = keepU && nu == p.Using
			keepW = keepW && nw == p.WithCheck
		}
	}
	if !keepU && (m.Using.IsUnknown() || m.Using.ValueString() != p.Using) {
		m.Using = exprValue(p.Using)
	}
	if !keepW && (m.WithCheck.IsUnknown() || m.WithCheck.ValueString() != p.WithCheck) {
		m.WithCheck = exprValue(p.WithCheck)
	}
}

func exprValue(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

type policyModel struct {
	ID         types.String `tfsdk:"id"`
	OID        types.Int64  `tfsdk:"oid"`
	Name       types.String `tfsdk:"name"`
	Database   types.String `tfsdk:"database"`
	Schema     types.String `tfsdk:"schema"`
	Table      types.String `tfsdk:"table"`
	Command    types.String `tfsdk:"command"`
	Permissive types.Bool   `tfsdk:"permissive"`
	Roles      types.Set    `tfsdk:"roles"`
	Using      types.String `tfsdk:"using"`
	WithCheck  types.String `tfsdk:"with_check"`
}
