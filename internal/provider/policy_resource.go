package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource                = (*policyResource)(nil)
	_ tfkit.ChangePlanner[policyModel] = (*policyResource)(nil)
	_ tfkit.IDImporter                 = (*policyResource)(nil)
	_ tfkit.ImportIDAttributes         = (*policyResource)(nil)
)

// NewPolicyResource is the constructor of postgresql_policy.
func NewPolicyResource() resource.Resource {
	r := &policyResource{}
	// The object's identity (Terraform 1.12+) is `database`, `schema`, `table`, `name`.
	r.Lifecycle = newLifecycle[policyModel](r, "policy", policySchemaV1, "database", "schema", "table", "name")
	return r
}

type policyResource struct {
	tfkit.Lifecycle[policyModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_policy
}

func policySchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A row-level security policy (`CREATE POLICY`) on a table. Policies only take effect while row-level security is enabled on the table " +
			"(see `postgresql_table_rls`). Renaming, roles and expressions change in place (`ALTER POLICY`); command, permissiveness and table replace the policy. " +
			"Creating and altering a policy needs ownership of the table; reading it (plan, refresh, import) needs none and takes no lock on the table.\n\n" +
			"PostgreSQL stores expressions parsed and shows them in its own spelling (`a=1` becomes `(a = 1)`). When the provider creates or alters the policy " +
			"it records (in private state) your spelling, the expression as stored and the server's rendering of it; as long as the server still has that expression, " +
			"the state keeps your spelling and plans stay empty. When the expression was changed outside Terraform, the state shows the server's rendering " +
			"and the plan changes it back. An imported policy starts with the server's rendering; a configured expression that differs from the state's only in letter case " +
			"outside quotes, spacing, or parentheses around the whole (`id>0` against `(id > 0)`) plans no change (a lexical comparison, made without the server).",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<schema>.<table>.<name>`."),
			"oid":      tfkit.OIDAttr("The policy's OID; it never changes for the life of the policy, renames included."),
			"name":     nameAttribute("The policy name, unique per table. Changing it renames the policy in place."),
			"database": databaseAttribute("policy"),
			"schema":   publicSchemaAttribute("The schema of the table (default `public`). Changing it replaces the policy.", stringplanmodifier.RequiresReplace()),
			"table":    nameAttribute("The table the policy applies to. Changing it replaces the policy (renaming the table itself keeps the policy).", stringplanmodifier.RequiresReplace()),
			"command": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("ALL"),
				MarkdownDescription: "The command the policy applies to: `ALL` (the default), `SELECT`, `INSERT`, `UPDATE` or `DELETE`. Changing it replaces the policy.",
				Validators:          []validator.String{stringvalidator.OneOf("ALL", "SELECT", "INSERT", "UPDATE", "DELETE")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"permissive": tfkit.DefaultedBoolAttr(true, "Whether the policy is permissive (`AS PERMISSIVE`, the default: combined with other permissive policies by `OR`) "+
				"or restrictive (`false`, `AS RESTRICTIVE`: combined by `AND`). Changing it replaces the policy.", boolplanmodifier.RequiresReplace()),
			"roles": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				Default:             setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{types.StringValue("public")})),
				MarkdownDescription: "The roles the policy applies to; `public` (the default) means every role. `PUBLIC` is a keyword: its letter case is free, and the configured (or, after an import, the state's) spelling is kept. Changes in place.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validators.Name())},
			},
			"using": schema.StringAttribute{
				Optional: true, CustomType: sqlExpressionType{},
				MarkdownDescription: "The `USING` expression: rows for which it is not true are invisible to the command (not for `INSERT`). " +
					"Must be one SQL expression (no `;` outside quotes, balanced parentheses). Your spelling is kept while the server's rendering of it is unchanged (see above). " +
					"Changes in place; removing it replaces the policy (PostgreSQL cannot drop it).",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1), validators.Expression()},
				PlanModifiers: []planmodifier.String{tfkit.KeepSpelling(), requiresReplaceWhenRemoved()},
			},
			"with_check": schema.StringAttribute{
				Optional: true, CustomType: sqlExpressionType{},
				MarkdownDescription: "The `WITH CHECK` expression: new or updated rows for which it is not true are refused (not for `SELECT` or `DELETE`). " +
					"Must be one SQL expression, like `using`; your spelling is kept the same way. Changes in place; removing it replaces the policy.",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1), validators.Expression()},
				PlanModifiers: []planmodifier.String{tfkit.KeepSpelling(), requiresReplaceWhenRemoved()},
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

func (r *policyResource) Describe(m *policyModel) string {
	return fmt.Sprintf("policy %q on table %s.%s in database %q", m.Name.ValueString(), m.Schema.ValueString(), m.Table.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database, the schema and the roles (awaitNames).
func (r *policyResource) namesUsed(m *policyModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "schema", m.Database, m.Schema)
	n.roles("roles", m.Roles)
	return n
}

func (r *policyResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *policyModel) diag.Diagnostics {
	return tfkit.CreateFromSpec(ctx, databaseOf(r.client, plan.Database), plan.spec, r.client.CreatePolicy, "policy")
}

func (r *policyResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *policyModel) diag.Diagnostics {
	db := databaseOf(r.client, plan.Database)
	oid := uint32(state.OID.ValueInt64())
	if oid == 0 {
		cur, err := r.client.ReadPolicy(ctx, db, 0, state.Schema.ValueString(), state.Table.ValueString(), state.Name.ValueString())
		if err != nil || cur == nil {
			return diag.Diagnostics{diag.NewErrorDiagnostic("Could not update policy", fmt.Sprintf("policy %q not found: %v", state.Name.ValueString(), err))}
		}
		oid = cur.OID
		plan.OID = types.Int64Value(int64(oid)) // the read-back follows the policy by OID (a rename)
	}
	var diags diag.Diagnostics
	s := plan.spec(ctx, &diags)
	if diags.HasError() {
		return diags
	}
	_, err := r.client.UpdatePolicy(ctx, db, oid, s)
	if errors.Is(err, pg.ErrPolicyGone) && plan.OID.IsUnknown() {
		// the roles it named were all dropped before this update ran (DROP
		// OWNED drops a policy whose only role is the one dropped): the plan
		// foresaw it (PlanChange), so the policy is made again as planned
		p, cerr := r.client.CreatePolicy(ctx, db, s)
		if cerr != nil {
			return tfkit.Failed("Could not update policy", fmt.Errorf("%w; creating it again: %w", err, cerr))
		}
		plan.OID = types.Int64Value(int64(p.OID))
		return nil
	}
	return tfkit.Failed("Could not update policy", err)
}

func (r *policyResource) DropObject(ctx context.Context, _ *tfkit.Call, state *policyModel) diag.Diagnostics {
	err := r.client.DropPolicy(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()),
		state.Schema.ValueString(), state.Table.ValueString(), state.Name.ValueString())
	return tfkit.Failed("Could not drop policy", err)
}

// ReadObject refreshes m from the server, with the record of the expressions in
// private state. After a write (the read-back) m holds the spelling just
// written: the server's rendering of it is what gets recorded. On refresh the
// expressions are rendered (which opens the table and waits for its locks)
// only when the stored expression is not the one last written from the
// state's spelling.
func (r *policyResource) ReadObject(ctx context.Context, c *tfkit.Call, m *policyModel) (bool, diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	// OID 0 (unknown in Create) reads by name
	p, err := r.client.ReadPolicy(ctx, db, uint32(m.OID.ValueInt64()), m.Schema.ValueString(), m.Table.ValueString(), m.Name.ValueString())
	if err != nil || p == nil {
		return notFound("Could not read policy", err)
	}
	var rec *policyExprs
	render := c.Wrote() && (p.UsingTree != "" || p.WithCheckTree != "")
	if !c.Wrote() {
		rec = loadPolicyExprs(c.PrivateKey(ctx, policyExprsKey))
		render = exprNeedsRender(m.Using.StringValue, p.UsingTree, rec.Using, rec.UsingTree) ||
			exprNeedsRender(m.WithCheck.StringValue, p.WithCheckTree, rec.WithCheck, rec.WithCheckTree)
	}
	if render {
		p.Using, p.WithCheck, err = r.client.RenderPolicyExprs(ctx, db, p.OID)
		if err != nil {
			return false, tfkit.Failed("Could not read policy", err)
		}
	}
	var diags diag.Diagnostics
	rec = r.fill(ctx, m, p, rec, c.Wrote(), &diags)
	diags.Append(rec.save(ctx, c)...)
	return true, diags
}

// policyImportForm is the import ID of a policy (see internal/tfkit/import_id.go).
var policyImportForm = tfkit.ImportForm{What: "policy", Names: []string{"schema", "table", "name"}}

// ImportIDAttributes: the import ID is made of `database`, `schema`, `table` and `name` (see alreadyExists).
func (r *policyResource) ImportIDAttributes() []string {
	return []string{"database", "schema", "table", "name"}
}

func (r *policyResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(policyImportForm.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		p, err := r.client.ReadPolicy(ctx, db, 0, names[0], names[1], names[2])
		if err != nil || p == nil {
			return false, err
		}
		resp.Diagnostics.Append(setImportedTableObject(ctx, &resp.State, db, p.Schema, p.Table, p.OID)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), p.Name)...)
		return true, nil
	})...)
}

func (r *policyResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[policyModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	if !p.Creating() {
		// the same roles spelled otherwise (PUBLIC, public): the state's
		// spelling stands, which Terraform accepts as the plan when both are set
		if !config.Roles.Equal(state.Roles) && samePolicyRoles(ctx, config.Roles, state.Roles) {
			plan.Roles = state.Roles
		}
		// an expression spelled otherwise than the state (after an import,
		// the state has the server's rendering) is planned as the state's
		// when a lexical comparison, run without the server, proves them the
		// same: tfkit.KeepSpelling, by its type (see spellings.go)

		// every role the policy names now is left out of the plan: each may be
		// a postgresql_role dropped in this apply, perhaps before this update
		// runs, and dropping a policy's only role drops the policy (DROP
		// OWNED). The update then makes it again (UpdateObject), with a new OID.
		if policyRolesMayAllGo(ctx, state.Roles, plan.Roles) {
			plan.OID = types.Int64Unknown()
		}
	}
	planDatabase(p, r.client, func(m *policyModel) *types.String { return &m.Database })
	plan.ID = joinedID(plan.Database, plan.Schema, plan.Table, plan.Name)
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
	// The validator checks these at validate time; values that were unknown
	// then (computed from other resources) are checked here, before any SQL.
	for attr, v := range map[string]string{"using": s.Using, "with_check": s.WithCheck} {
		if v == "" {
			continue
		}
		if err := pg.CheckExpression(v); err != nil {
			diags.AddAttributeError(path.Root(attr), "Invalid SQL expression", "The expression "+err.Error()+".")
		}
	}
	return s
}

// policyExprsKey is the private-state key of the expressions' record.
const policyExprsKey = "expressions"

// policyExprs records, for each expression, the spelling the provider last
// wrote (or, after an import or a change outside Terraform, the server's
// rendering it showed), the server's rendering of it (pg_get_expr) and the
// expression as stored (pg_node_tree text). Refresh compares the stored tree
// with the recorded one, which reads a catalog row and takes no lock on the
// table; only when they differ does it ask the server to render the expression.
type policyExprs struct {
	Using           string `json:"using,omitempty"`
	UsingServer     string `json:"using_server,omitempty"`
	UsingTree       string `json:"using_tree,omitempty"`
	WithCheck       string `json:"with_check,omitempty"`
	WithCheckServer string `json:"with_check_server,omitempty"`
	WithCheckTree   string `json:"with_check_tree,omitempty"`
}

// loadPolicyExprs decodes the record b (empty when there is none or it is
// unreadable: the server's rendering is then shown).
func loadPolicyExprs(b []byte) *policyExprs {
	var rec policyExprs
	if len(b) > 0 && json.Unmarshal(b, &rec) != nil {
		return &policyExprs{}
	}
	return &rec
}

// save records rec in the private state (removes the record when empty).
func (rec *policyExprs) save(ctx context.Context, c *tfkit.Call) diag.Diagnostics {
	if rec == nil || *rec == (policyExprs{}) {
		return c.SetPrivateKey(ctx, policyExprsKey, nil)
	}
	return c.SetPrivateJSON(ctx, policyExprsKey, rec, "the policy's expressions")
}

// fill copies the server's policy into m, keeping m's spelling of PUBLIC and
// of the expressions where it still means what the server has, and returns the
// record of the expressions to keep in private state. After a write (Create,
// Update) written is true: m holds the planned spelling, just written, and p
// the server's rendering of it. On refresh rec is the record (nil when none).
func (r *policyResource) fill(ctx context.Context, m *policyModel, p *pg.Policy, rec *policyExprs, written bool, diags *diag.Diagnostics) *policyExprs {
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
				if pg.IsPublic(pr) {
					roles[i] = pr
				}
			}
		}
	}
	sort.Strings(roles)
	rs, d := types.SetValueFrom(ctx, types.StringType, roles)
	diags.Append(d...)
	m.Roles = rs

	if rec == nil {
		rec = &policyExprs{}
	}
	out := &policyExprs{}
	m.Using, out.Using, out.UsingServer, out.UsingTree = policyExpr(m.Using, p.UsingTree, p.Using, rec.Using, rec.UsingServer, rec.UsingTree, written)
	m.WithCheck, out.WithCheck, out.WithCheckServer, out.WithCheckTree = policyExpr(m.WithCheck, p.WithCheckTree, p.WithCheck,
		rec.WithCheck, rec.WithCheckServer, rec.WithCheckTree, written)
	return out
}

// exprNeedsRender reports whether refresh needs the server's rendering of an
// expression: there is one, and it is not stored as it was when the state's
// spelling was last written (or shown).
func exprNeedsRender(cur types.String, tree, recSpelling, recTree string) bool {
	if tree == "" {
		return false
	}
	return cur.IsNull() || cur.IsUnknown() || cur.ValueString() != recSpelling || tree != recTree
}

// policyExpr decides the state value of one expression and what to record.
// cur is the model's value (planned after a write, the prior state on
// refresh); tree and server are the stored expression and its rendering
// (server is "" on refresh when exprNeedsRender said it was not needed). The
// spelling stands while the server stores what was written from it, or renders
// it the same way as then: semantic equality without asking the server to
// parse anything.
func policyExpr(cur sqlExpression, tree, server, recSpelling, recServer, recTree string, written bool) (sqlExpression, string, string, string) {
	if tree == "" {
		return sqlExpression{StringValue: types.StringNull()}, "", "", ""
	}
	known := !cur.IsNull() && !cur.IsUnknown()
	spelling := cur.ValueString()
	switch {
	case known && written:
		// just written from this spelling: this is what the server made of it
		return cur, spelling, server, tree
	case known && spelling == recSpelling && tree == recTree:
		return cur, recSpelling, recServer, recTree
	case known && server != "" && (spelling == server || (spelling == recSpelling && server == recServer)):
		return cur, spelling, server, tree
	case server != "" && cur.SameAs(types.StringValue(server)):
		// nothing recorded for this spelling (a lost record), but it is
		// lexically the server's rendering (decided here, not left to the
		// framework, since the record must name the spelling kept)
		return cur, spelling, server, tree
	}
	// changed outside Terraform, or nothing recorded (an import): the
	// server's rendering, recorded so that the next refresh needs no rendering
	return sqlExpression{StringValue: types.StringValue(server)}, server, server, tree
}

// samePolicyRoles reports whether two role sets mean the same roles: names
// are compared exactly, except PUBLIC, a keyword in any letter case.
func samePolicyRoles(ctx context.Context, a, b types.Set) bool {
	return sameStringSets(ctx, a, b, func(r string) string {
		if pg.IsPublic(r) {
			return "public"
		}
		return r
	})
}

// policyRolesMayAllGo reports whether the plan leaves out every role (PUBLIC
// aside) the state's policy names, so that dropping them could drop the
// policy before its update: the planned roles are unknown, or none of the
// state's roles is among them.
func policyRolesMayAllGo(ctx context.Context, state, plan types.Set) bool {
	var had []string
	if state.IsNull() || state.IsUnknown() || state.ElementsAs(ctx, &had, false).HasError() {
		return false
	}
	had = slices.DeleteFunc(had, pg.IsPublic)
	if len(had) == 0 {
		return false
	}
	if plan.IsUnknown() {
		return true
	}
	var planned []string
	if !plan.IsNull() && plan.ElementsAs(ctx, &planned, false).HasError() {
		return false
	}
	for _, r := range had {
		if slices.Contains(planned, r) {
			return false
		}
	}
	return true
}

type policyModel struct {
	ID         types.String  `tfsdk:"id"`
	OID        types.Int64   `tfsdk:"oid"`
	Name       types.String  `tfsdk:"name"`
	Database   types.String  `tfsdk:"database"`
	Schema     types.String  `tfsdk:"schema"`
	Table      types.String  `tfsdk:"table"`
	Command    types.String  `tfsdk:"command"`
	Permissive types.Bool    `tfsdk:"permissive"`
	Roles      types.Set     `tfsdk:"roles"`
	Using      sqlExpression `tfsdk:"using"`
	WithCheck  sqlExpression `tfsdk:"with_check"`
}
