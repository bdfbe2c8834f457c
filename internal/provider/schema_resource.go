package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource                 = (*schemaResource)(nil)
	_ tfkit.ChangePlanner[schemaModel]  = (*schemaResource)(nil)
	_ tfkit.DestroyPlanner[schemaModel] = (*schemaResource)(nil)
	_ tfkit.IDImporter                  = (*schemaResource)(nil)
	_ tfkit.ImportIDAttributes          = (*schemaResource)(nil)
)

// NewSchemaResource is the constructor of postgresql_schema.
func NewSchemaResource() resource.Resource {
	r := &schemaResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[schemaModel](r, "schema", schemaSchemaV1, "database", "name")
	return r
}

type schemaResource struct {
	tfkit.Lifecycle[schemaModel]
	withClient
}

// schemaPolicyAttrTypes are the attributes of one deprecated policy block.
var schemaPolicyAttrTypes = map[string]attr.Type{
	"role":              types.StringType,
	"usage":             types.BoolType,
	"usage_with_grant":  types.BoolType,
	"create":            types.BoolType,
	"create_with_grant": types.BoolType,
}

func schemaSchemaV1() schema.Schema {
	// Unset flags are recorded as false, as cyrilgdn/postgresql stored them
	// (PlanChange plans them so: a schema Default in a set nested block is
	// applied to the wrong elements once Terraform merges prior values in).
	policyBool := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, Computed: true, MarkdownDescription: desc + " Defaults to false."}
	}
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A schema in a database (`CREATE SCHEMA`). Renaming changes it in place (`ALTER SCHEMA ... RENAME`). " +
			"Changing `database` means another schema and replaces it, **except when the database itself was renamed**: the provider records the database's OID " +
			"(`database_oid`) and, when the configured database name is the new name of that same database, updates the schema in place, so renaming a " +
			"`postgresql_database` never drops the schemas (and data) inside it.",
		Attributes: map[string]schema.Attribute{
			"id":  tfkit.IDAttr("`<database>.<schema>`, as in cyrilgdn/postgresql."),
			"oid": tfkit.OIDAttr("The schema's OID in its database. It never changes for the life of the schema, renames included."),
			"database_oid": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The OID of the database holding the schema. It identifies the database across renames: when `database` changes to a name that is (or, " +
					"during this apply, becomes) the name of the database with this OID, the schema is kept and updated in place instead of being replaced.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"name": nameAttribute("The schema name: 1 to 63 bytes, any characters (it is always quoted). Changing it renames the schema in place."),
			"database": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database holding the schema; defaults to the provider's database. Changing it replaces the schema, unless the new name belongs to the same " +
					"database after a rename (see `database_oid`). If a plan moves the schema to a database that does not exist yet while the old one still exists, " +
					"the plan shows an update and the apply fails (without touching anything) unless the old database was renamed to the new name; plan again to get the replacement.",
				Validators: []validator.String{validators.Name()},
			}),
			"owner": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The role owning the schema (`AUTHORIZATION`). Defaults to the provider's role; when unset the current owner is recorded and not managed. " +
					"A non-superuser provider role must be able to act as the owner: the provider grants itself membership in the role within the transaction and revokes it before committing.",
				Validators: []validator.String{validators.Name()},
			}),
			"if_not_exists": tfkit.DefaultedBoolAttr(true, "When true (the default), creating the schema adopts an existing schema of the same name (`CREATE SCHEMA IF NOT EXISTS`) and gives it the configured owner."),
			"drop_cascade":  tfkit.DefaultedBoolAttr(false, "When true, destroying the schema also drops every object in it (`DROP SCHEMA ... CASCADE`). When false (the default) the drop fails if the schema is not empty."),
		},
		Blocks: map[string]schema.Block{
			"policy": schema.SetNestedBlock{
				DeprecationMessage: "policy is deprecated: manage schema privileges with postgresql_grant (object_type = \"schema\") instead.",
				MarkdownDescription: "**Deprecated**: use `postgresql_grant` with `object_type = \"schema\"`. Privileges on the schema for one role each, applied with `GRANT`/`REVOKE` " +
					"(kept for compatibility with cyrilgdn/postgresql). A role listed here holds exactly these privileges on the schema; a role removed from the list loses them all. " +
					"Several blocks for the same role add up: the role holds every privilege any of them gives (with the grant option when any of them asks for it), and each block stays as written in the state.",
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"role":              tfkit.OptionalStringAttr("The role receiving the privileges; empty or unset means `PUBLIC`."),
						"usage":             policyBool("Grant `USAGE` (look up objects in the schema)."),
						"usage_with_grant":  policyBool("Grant `USAGE` `WITH GRANT OPTION`."),
						"create":            policyBool("Grant `CREATE` (create objects in the schema)."),
						"create_with_grant": policyBool("Grant `CREATE` `WITH GRANT OPTION`."),
					},
				},
			},
		},
	}
}

func (r *schemaResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m schemaModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Policy.IsNull() || m.Policy.IsUnknown() {
		return
	}
	var raw []schemaPolicyModel
	resp.Diagnostics.Append(m.Policy.ElementsAs(ctx, &raw, false)...)
	seen := map[schemaPolicyModel]bool{}
	for _, p := range raw {
		if p.Role.IsUnknown() {
			continue
		}
		// Two blocks that differ only in an unset flag against false are one
		// block once planned (unset is false): the set would lose one.
		if n := normalPolicy(p); !n.hasUnknown() {
			if seen[n] {
				resp.Diagnostics.AddAttributeError(path.Root("policy"), "Repeated policy block",
					fmt.Sprintf("Two policy blocks for %s ask for the same privileges (an unset flag is false). Remove one of them.", policyGrantee(p.Role)))
			}
			seen[n] = true
		}
		role := p.Role.ValueString()
		if role == "" && (p.UsageWithGrant.ValueBool() || p.CreateWithGrant.ValueBool()) {
			resp.Diagnostics.AddAttributeError(path.Root("policy"), "Grant option for PUBLIC",
				"A policy without role applies to PUBLIC, which PostgreSQL cannot give a grant option: set role, or use usage/create instead of *_with_grant.")
		}
		if role != "" {
			if err := pgconn.ValidateName(role); err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("policy"), "Invalid PostgreSQL name", "policy role "+err.Error()+".")
			}
		}
	}
}

// schemaImport is the import ID of a schema (see internal/tfkit/import_id.go).
var schemaImport = tfkit.ImportForm{What: "schema", Names: []string{"schema"}, Database: true}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *schemaResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *schemaResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(schemaImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		s, err := r.client.ReadSchema(ctx, db, 0, names[0])
		if err != nil || s == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", s.Name)...)
		return true, nil
	})...)
}

func (r *schemaResource) PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[schemaModel]) {
	if !p.Config.Policy.IsNull() && len(p.Config.Policy.Elements()) > 0 {
		resp.Diagnostics.AddAttributeWarning(path.Root("policy"), "policy is deprecated",
			"The policy blocks of postgresql_schema are applied as GRANT/REVOKE on the schema; manage them with postgresql_grant (object_type = \"schema\") instead.")
	}
	if planTrackedDatabase(ctx, r.client, req, resp, p, func(m *schemaModel) (*types.String, *types.Int64, *types.Int64) {
		return &m.Database, &m.DatabaseOID, &m.OID
	}) {
		r.warnDrop(ctx, p.State, resp, true)
	}
	keepUnset(p, func(m *schemaModel) *types.String { return &m.Owner })
	// The policy blocks as configured, unset flags false (Terraform checks
	// no more than the number of blocks of a set: the plan may say so).
	if !p.Config.Policy.IsUnknown() {
		var raw []schemaPolicyModel
		resp.Diagnostics.Append(p.Config.Policy.ElementsAs(ctx, &raw, false)...)
		for i := range raw {
			raw[i] = normalPolicy(raw[i])
		}
		var d diag.Diagnostics
		p.Plan.Policy, d = policySet(raw)
		resp.Diagnostics.Append(d...)
	}
	p.Plan.ID = joinedID(p.Plan.Database, p.Plan.Name)
	if isKnown(p.Plan.Database) {
		var state *types.String
		if !p.Creating() && p.Plan.Database.Equal(p.State.Database) {
			state = &p.State.Name
		}
		notePlanned(r.client, pg.KindSchema, p.Plan.Database.ValueString(), p.Plan.Name, state)
	}
}

func (r *schemaResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *schemaModel) {
	if r.client != nil && r.client.Ready() == nil {
		r.warnDrop(ctx, state, resp, false)
	}
}

// warnDrop warns when dropping the schema of state (destroy or replacement)
// takes objects with it, and refuses the plan when the drop will fail: the
// schema holds objects that nothing else in the destroy can drop first
// (tables, ...: pg.SchemaContents.Lasting) and drop_cascade is false.
func (r *schemaResource) warnDrop(ctx context.Context, state *schemaModel, resp *resource.ModifyPlanResponse, replacing bool) {
	if state.OID.IsNull() || state.OID.IsUnknown() || r.client == nil || r.client.Ready() != nil {
		return
	}
	d, err := currentDatabase(ctx, r.client, state.Database, state.DatabaseOID)
	if err != nil || d == nil {
		return
	}
	db := d.Name
	sc, err := r.client.CountSchemaObjects(ctx, db, uint32(state.OID.ValueInt64()))
	if err != nil || (sc.Objects == 0 && len(sc.Extensions) == 0) {
		return
	}
	how := "dropped"
	if replacing {
		how = "replaced (dropped, then created empty in the new database)"
	}
	ext := ""
	if len(sc.Extensions) > 0 {
		ext = fmt.Sprintf(" Extension(s) %s are installed in it; their objects go with them, and a postgresql_extension of this configuration is dropped before the schema.",
			strings.Join(sc.Extensions, ", "))
	}
	if sc.Objects == 0 {
		resp.Diagnostics.AddWarning("Schema holds extensions",
			fmt.Sprintf("Schema %q in database %q will be %s.%s Extensions not managed here must be dropped first unless drop_cascade is true.",
				state.Name.ValueString(), db, how, ext))
		return
	}
	if state.DropCascade.ValueBool() {
		resp.Diagnostics.AddWarning("Schema objects will be dropped",
			fmt.Sprintf("Schema %q in database %q will be %s. It holds %d object(s) (tables, views, sequences, functions, types); drop_cascade is true, so they will be dropped with it, and so will objects elsewhere that depend on them.%s",
				state.Name.ValueString(), db, how, sc.Objects, ext))
		return
	}
	if sc.Lasting > 0 {
		// Certain to fail: refuse the plan, so that nothing else of this
		// destroy (grants revoked, roles dropped...) runs before the failure.
		what := "destroy"
		if replacing {
			what = "replace"
		}
		resp.Diagnostics.AddError("Schema is not empty",
			fmt.Sprintf("Cannot %s schema %q in database %q: it holds %d object(s) that nothing in this plan drops (%s%s) and drop_cascade is false, so DROP SCHEMA would fail "+
				"after the rest of the plan had been applied. Nothing was changed. Set drop_cascade = true and apply that first to drop them with the schema, "+
				"or drop or move them yourself.%s",
				what, state.Name.ValueString(), db, sc.Lasting, strings.Join(sc.LastingNames, ", "), more(sc.Lasting, len(sc.LastingNames)), ext))
		return
	}
	resp.Diagnostics.AddWarning("Schema is not empty",
		fmt.Sprintf("Schema %q in database %q will be %s. It holds %d object(s) (views, functions, types...) and drop_cascade is false: the drop will fail unless resources of this plan "+
			"drop them first (a postgresql_function, or a postgresql_extension they depend on with drop_cascade). "+
			"Drop or move the objects first, or set drop_cascade = true (and apply it) to drop them with the schema.%s", state.Name.ValueString(), db, how, sc.Objects, ext))
}

// more is ", ..." when fewer names (shown) than objects (n) are listed.
func more(n, shown int) string {
	if n > shown {
		return ", ..."
	}
	return ""
}

func (r *schemaResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0Diag(upgradeSchemaV0),
	}
}

func (r *schemaResource) Describe(m *schemaModel) string {
	return fmt.Sprintf("schema %q in database %q", m.Name.ValueString(), m.Database.ValueString())
}

// namesUsed: the database, the owner and the roles of the policy blocks
// (awaitNames).
func (r *schemaResource) namesUsed(m *schemaModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("owner", m.Owner)
	if !m.Policy.IsNull() && !m.Policy.IsUnknown() {
		var pols []schemaPolicyModel
		if !m.Policy.ElementsAs(context.Background(), &pols, false).HasError() {
			for _, p := range pols {
				n.role("policy", p.Role)
			}
		}
	}
	return n
}

// namesMade: the schema, when created, renamed or moved to another database
// (awaitNames).
func (r *schemaResource) namesMade(plan, state *schemaModel) []pg.Ref {
	db := databaseOf(r.client, plan.Database)
	if db == "" || !isKnown(plan.Name) || (state != nil && state.Name.Equal(plan.Name) && databaseOf(r.client, state.Database) == db) {
		return nil
	}
	return []pg.Ref{pg.SchemaRef("name", db, plan.Name.ValueString())}
}

func (r *schemaResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *schemaModel) diag.Diagnostics {
	spec, diags := plan.spec(ctx)
	if diags.HasError() {
		return diags
	}
	plan.OID = types.Int64Unknown()
	return tfkit.Failed("Could not create schema", r.client.CreateSchema(ctx, plan.Database.ValueString(), spec, plan.IfNotExists.ValueBool()))
}

func (r *schemaResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *schemaModel) diag.Diagnostics {
	db := plan.Database.ValueString()
	diags := checkSameDatabase(ctx, r.client, db, state.Database.ValueString(), state.DatabaseOID)
	spec, d := plan.spec(ctx)
	diags.Append(d...)
	prev, d := state.policies(ctx)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	oids := policyRoleOIDs(ctx, c)
	for i := range prev {
		prev[i].RoleOID = oids[prev[i].Role]
	}
	if plan.Owner.IsUnknown() {
		spec.Owner = ""
	}
	return tfkit.Failed("Could not update schema", r.client.UpdateSchema(ctx, db, state.Name.ValueString(), spec, prev))
}

func (r *schemaResource) DropObject(ctx context.Context, _ *tfkit.Call, state *schemaModel) diag.Diagnostics {
	d, err := currentDatabase(ctx, r.client, state.Database, state.DatabaseOID)
	if err != nil || d == nil {
		return tfkit.Failed("Could not read database", err) // none: the database is gone, and the schema with it
	}
	return tfkit.Failed("Could not drop schema", r.client.DropSchema(ctx, d.Name, state.Name.ValueString(), state.DropCascade.ValueBool()))
}

// ReadObject refreshes m from the server. It reports whether the schema exists.
func (r *schemaResource) ReadObject(ctx context.Context, c *tfkit.Call, m *schemaModel) (bool, diag.Diagnostics) {
	d, err := currentDatabase(ctx, r.client, m.Database, m.DatabaseOID)
	if err != nil || d == nil {
		return notFound("Could not read database", err)
	}
	db := d.Name
	var oid uint32
	if !m.OID.IsNull() && !m.OID.IsUnknown() {
		oid = uint32(m.OID.ValueInt64())
	}
	s, err := r.client.ReadSchema(ctx, db, oid, m.Name.ValueString())
	if err != nil || s == nil {
		return notFound("Could not read schema", err)
	}
	var diags diag.Diagnostics
	if c.Op == tfkit.OpRead {
		diags.Append(recordXactPos(ctx, r.client, c.PrivateSetter())...)
	}
	m.Database = types.StringValue(db)
	m.DatabaseOID = types.Int64Value(int64(d.OID))
	m.OID = types.Int64Value(int64(s.OID))
	m.Name = types.StringValue(s.Name)
	m.ID = types.StringValue(db + "." + s.Name)
	m.Owner = types.StringValue(s.Owner)
	if m.IfNotExists.IsNull() || m.IfNotExists.IsUnknown() {
		m.IfNotExists = types.BoolValue(true)
	}
	if m.DropCascade.IsNull() || m.DropCascade.IsUnknown() {
		m.DropCascade = types.BoolValue(false)
	}
	// Policies: report each block as written while its role holds what the
	// blocks of that role ask for together (they add up: mergePolicies), and
	// what differs otherwise, so that drift shows in the plan.
	var raw []schemaPolicyModel
	if !m.Policy.IsNull() && !m.Policy.IsUnknown() {
		diags.Append(m.Policy.ElementsAs(ctx, &raw, false)...)
	}
	// A block whose role no longer exists is gone with its privileges (the
	// role was dropped, perhaps by the apply that removed the block): kept,
	// it would plan a revoke from a role that cannot be named.
	// A role renamed since the last read (outside Terraform, or by this
	// apply) is found by the OID recorded then (private state): its block
	// stays, read under the role's new name, so that removing the block still
	// revokes what it gave.
	roles := make([]string, 0, len(raw))
	for _, p := range raw {
		roles = append(roles, policyRole(p.Role))
	}
	found, err := r.client.ResolveRoles(ctx, roles, policyRoleOIDs(ctx, c))
	if err != nil {
		return false, tfkit.Failed("Could not read roles", err)
	}
	raw = slices.DeleteFunc(raw, func(p schemaPolicyModel) bool {
		rr, ok := found[policyRole(p.Role)]
		return ok && rr.Name == ""
	})
	oids := map[string]uint32{}
	for n, rr := range found {
		if rr.Name != "" {
			oids[n] = rr.OID
		}
	}
	if c != nil && (len(oids) > 0 || len(c.PrivateKey(ctx, privatePolicyRoleOIDs)) > 0) {
		diags.Append(c.SetPrivateJSON(ctx, privatePolicyRoleOIDs, oids, "the OIDs of the policy blocks' roles")...)
	}
	want := map[string]pg.SchemaGrant{}
	for _, w := range mergePolicies(raw) {
		want[w.Role] = w
	}
	out := make([]schemaPolicyModel, 0, len(raw))
	for _, p := range raw {
		key := policyRole(p.Role)
		now := key
		if rr := found[key]; rr.Name != "" {
			now = rr.Name
		}
		g, w := s.Grants[now], want[key]
		out = append(out, schemaPolicyModel{
			Role: p.Role,
			// USAGE held with grant option satisfies usage = true too.
			Usage:           policyFlag(p.Usage, g.Usage || g.UsageGrant, g.Usage && !w.Usage && !w.UsageGrant),
			UsageWithGrant:  policyFlag(p.UsageWithGrant, g.UsageGrant, g.UsageGrant && !w.UsageGrant),
			Create:          policyFlag(p.Create, g.Create || g.CreateGrant, g.Create && !w.Create && !w.CreateGrant),
			CreateWithGrant: policyFlag(p.CreateWithGrant, g.CreateGrant, g.CreateGrant && !w.CreateGrant),
		})
	}
	var d2 diag.Diagnostics
	m.Policy, d2 = policySet(out)
	diags.Append(d2...)
	return true, diags
}

// privatePolicyRoleOIDs is the private-state key of the OIDs of the policy
// blocks' roles (by the names in the state) when last read.
const privatePolicyRoleOIDs = "policy_role_oids"

// policyRoleOIDs are the OIDs recorded under privatePolicyRoleOIDs (none
// when nothing was recorded: a state from before, or an import).
func policyRoleOIDs(ctx context.Context, c *tfkit.Call) map[string]uint32 {
	out := map[string]uint32{}
	if c == nil {
		return out
	}
	if b := c.PrivateKey(ctx, privatePolicyRoleOIDs); len(b) > 0 {
		_ = json.Unmarshal(b, &out)
	}
	return out
}

func policySet(ps []schemaPolicyModel) (types.Set, diag.Diagnostics) {
	var diags diag.Diagnostics
	objType := types.ObjectType{AttrTypes: schemaPolicyAttrTypes}
	elems := make([]attr.Value, 0, len(ps))
	for _, p := range ps {
		o, d := types.ObjectValue(schemaPolicyAttrTypes, map[string]attr.Value{
			"role": p.Role, "usage": p.Usage, "usage_with_grant": p.UsageWithGrant,
			"create": p.Create, "create_with_grant": p.CreateWithGrant,
		})
		diags.Append(d...)
		elems = append(elems, o)
	}
	s, d := types.SetValue(objType, elems)
	diags.Append(d...)
	return s, diags
}

// policyRole is the grantee of a policy block: its role, "" for PUBLIC
// (unset, empty or any spelling of public).
func policyRole(role types.String) string {
	if pg.IsPublic(role.ValueString()) {
		return ""
	}
	return role.ValueString()
}

// normalPolicy is a policy block as planned: unset flags false.
func normalPolicy(p schemaPolicyModel) schemaPolicyModel {
	for _, f := range []*types.Bool{&p.Usage, &p.UsageWithGrant, &p.Create, &p.CreateWithGrant} {
		if f.IsNull() {
			*f = types.BoolValue(false)
		}
	}
	return p
}

func (p schemaPolicyModel) hasUnknown() bool {
	return p.Role.IsUnknown() || p.Usage.IsUnknown() || p.UsageWithGrant.IsUnknown() || p.Create.IsUnknown() || p.CreateWithGrant.IsUnknown()
}

// policyGrantee names the grantee of a policy block in messages.
func policyGrantee(role types.String) string {
	if r := policyRole(role); r != "" {
		return fmt.Sprintf("role %q", r)
	}
	return "PUBLIC"
}

// policyFlag is what a policy flag reads as: as configured (cfg) when true
// and held (held), false when true and not held; when false or unset, false
// unless the role holds a privilege that no block of it asks for (extra).
func policyFlag(cfg types.Bool, held, extra bool) types.Bool {
	if cfg.ValueBool() {
		return types.BoolValue(held)
	}
	return types.BoolValue(extra)
}

// mergePolicies is what the policy blocks ask for, per grantee (role "" =
// PUBLIC) in the order they first appear: blocks of the same role add up, as
// in cyrilgdn/postgresql.
func mergePolicies(raw []schemaPolicyModel) []pg.SchemaGrant {
	out := make([]pg.SchemaGrant, 0, len(raw))
	at := map[string]int{}
	for _, p := range raw {
		role := policyRole(p.Role)
		i, ok := at[role]
		if !ok {
			i = len(out)
			at[role] = i
			out = append(out, pg.SchemaGrant{Role: role})
		}
		g := &out[i]
		g.Usage = g.Usage || p.Usage.ValueBool()
		g.UsageGrant = g.UsageGrant || p.UsageWithGrant.ValueBool()
		g.Create = g.Create || p.Create.ValueBool()
		g.CreateGrant = g.CreateGrant || p.CreateWithGrant.ValueBool()
	}
	return out
}

// policies decodes the policy blocks, merged per grantee (mergePolicies).
func (m *schemaModel) policies(ctx context.Context) ([]pg.SchemaGrant, diag.Diagnostics) {
	var diags diag.Diagnostics
	if m.Policy.IsNull() || m.Policy.IsUnknown() {
		return nil, diags
	}
	var raw []schemaPolicyModel
	diags.Append(m.Policy.ElementsAs(ctx, &raw, false)...)
	return mergePolicies(raw), diags
}

func (m *schemaModel) spec(ctx context.Context) (pg.SchemaSpec, diag.Diagnostics) {
	pols, diags := m.policies(ctx)
	if pols == nil {
		pols = []pg.SchemaGrant{}
	}
	return pg.SchemaSpec{Name: m.Name.ValueString(), Owner: m.Owner.ValueString(), Grants: pols}, diags
}

type schemaPolicyModel struct {
	Role            types.String `tfsdk:"role"`
	Usage           types.Bool   `tfsdk:"usage"`
	UsageWithGrant  types.Bool   `tfsdk:"usage_with_grant"`
	Create          types.Bool   `tfsdk:"create"`
	CreateWithGrant types.Bool   `tfsdk:"create_with_grant"`
}

type schemaModel struct {
	ID          types.String `tfsdk:"id"`
	OID         types.Int64  `tfsdk:"oid"`
	DatabaseOID types.Int64  `tfsdk:"database_oid"`
	Name        types.String `tfsdk:"name"`
	Database    types.String `tfsdk:"database"`
	Owner       types.String `tfsdk:"owner"`
	IfNotExists types.Bool   `tfsdk:"if_not_exists"`
	DropCascade types.Bool   `tfsdk:"drop_cascade"`
	Policy      types.Set    `tfsdk:"policy"`
}
