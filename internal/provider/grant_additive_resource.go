package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ validatedResource               = (*grantAdditiveResource)(nil)
	_ tfkit.ChangePlanner[grantModel] = (*grantAdditiveResource)(nil)
	_ tfkit.IDImporter                = (*grantAdditiveResource)(nil)
	_ resource.ResourceWithMoveState  = (*grantAdditiveResource)(nil)
)

// NewGrantAdditiveResource is the constructor of postgresql_grant_additive:
// the additive form of postgresql_grant (as the Google provider's
// `_iam_member` is of `_iam_binding`), with the same arguments and model.
func NewGrantAdditiveResource() resource.Resource {
	r := &grantAdditiveResource{}
	// The object's identity (Terraform 1.12+) is `role`, `database`, `schema`, `object_type`, `objects`, `columns`, `privileges`:
	// two additive grants on the same objects are told apart by their privileges.
	r.Lifecycle = newLifecycle[grantModel](r, "grant_additive", grantAdditiveSchemaV1, "role", "database", "schema", "object_type", "objects", "columns", "privileges")
	return r
}

type grantAdditiveResource struct {
	tfkit.Lifecycle[grantModel]
	withClient
}

func grantAdditiveSchemaV1() schema.Schema {
	s := grantSchemaV1()
	s.Version = 1
	s.MarkdownDescription = "Privileges one role (or `PUBLIC`) must hold on database objects, whatever else it holds (`GRANT`, and `REVOKE` of these privileges only on destroy): " +
		"the additive form of `postgresql_grant`. Any number of `postgresql_grant_additive` resources can give one grantee privileges on the same objects, " +
		"and privileges other roles granted stay: each grants what the grantee lacks of its own privileges, revokes only those when it is destroyed (or when they are removed from it), " +
		"and shows a privilege taken away from the grantee as a change that grants it again. " +
		"Do not use it together with a `postgresql_grant` of the same grantee on the same objects: the authoritative grant revokes every privilege it does not list " +
		"(see the page: when to use which)."
	attrs := s.Attributes
	attrs["id"] = tfkit.IDAttr("The import ID of the grant: a JSON object of `role`, `database`, `schema`, `object_type`, `objects`, `columns` and `privileges` (upper case), " +
		"with sorted keys and lists, empty ones left out. It changes with the objects, columns and privileges.")
	attrs["role"] = nameAttribute("The grantee: a role name, or `public` for every role (`PUBLIC`). " +
		"Changes in place: renaming the role (`postgresql_role`) keeps its privileges (PostgreSQL records them by OID) and runs no `GRANT` or `REVOKE`; " +
		"naming another role revokes these privileges from the old one and grants them to the new one in one transaction.")
	attrs["database"] = nameAttribute("The database holding the objects (for `object_type = \"database\"`, the database itself). " +
		"Changes in place: renaming the database keeps the privileges; naming another database grants there and then revokes these privileges in the old one.")
	objects := attrs["objects"].(schema.SetAttribute)
	objects.MarkdownDescription = "The objects, as in `postgresql_grant`: table, sequence or routine names in `schema` (a routine as `name` for every overload, or `name(type, type)` for one), " +
		"the table of a `column` grant (exactly one), or the foreign data wrappers, servers, parameters, types or domains (in `schema`), languages, " +
		"tablespaces or large objects (their OIDs). " +
		"Unset or empty for `table`, `sequence`, `function`, `procedure` and `routine` means every object of that type in the schema, read again at each refresh " +
		"(an object that lacks one of the privileges, such as a table created since, shows as a change that grants it); unset and `[]` are the same. " +
		"Changes in place: objects removed from the set have these privileges revoked."
	attrs["objects"] = objects
	columns := attrs["columns"].(schema.SetAttribute)
	columns.MarkdownDescription = "The columns of a `column` grant (required for it, not allowed otherwise: unset or `[]`, which are the same). " +
		"Changes in place: columns removed from the set have these privileges revoked."
	attrs["columns"] = columns
	attrs["privileges"] = schema.SetAttribute{
		ElementType: types.StringType,
		Required:    true,
		MarkdownDescription: "The privileges the grantee must hold on every object (at least one), case-insensitive and validated against the object type as in `postgresql_grant`; " +
			"`ALL` means every privilege of the type on the server's version. The grantee's other privileges are left alone. " +
			"Changes in place: a privilege removed from the set is revoked (only it), one added is granted.",
		Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
	}
	attrs["with_grant_option"] = tfkit.DefaultedBoolAttr(false, "Whether the grantee must also be able to grant these privileges to others (`WITH GRANT OPTION`). "+
		"`false` asks nothing of the grant option: one the grantee holds from elsewhere stays. Changing it from `true` to `false` revokes the grant option of these privileges. "+
		"Not allowed with `public`. Changes in place.")
	return s
}

func (r *grantAdditiveResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	// the arguments mean what they mean in postgresql_grant
	(&grantResource{}).ValidateConfig(ctx, req, resp)
}

func (r *grantAdditiveResource) Describe(m *grantModel) string {
	return "additive " + (&grantResource{}).Describe(m)
}

// privileges are the model's privileges, normalised and with ALL expanded
// for the server's version.
func (r *grantAdditiveResource) privileges(ctx context.Context, m *grantModel) []string {
	return pg.ExpandPrivileges(m.ObjectType.ValueString(), serverMajor(ctx, r.client), tfkit.SetStrings(ctx, m.Privileges))
}

func (r *grantAdditiveResource) target(ctx context.Context, m *grantModel) pg.GrantTarget {
	return (&grantResource{}).target(ctx, m)
}

// namesUsed: as postgresql_grant (awaitNames).
func (r *grantAdditiveResource) namesUsed(m *grantModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("role", m.Role)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *grantAdditiveResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *grantModel) diag.Diagnostics {
	ctx = keepWrittenObjects(ctx, c)
	spec := pg.GrantSpec{Target: r.target(ctx, plan), Privileges: r.privileges(ctx, plan), WithGrantOption: plan.WithGrantOption.ValueBool(), Additive: true}
	defer r.client.Claim(spec.Target.FactKey(), additiveParts(spec)...)()
	return changeFailed("Could not grant privileges", r.client.SetGrant(ctx, spec, false), grantArguments)
}

// additiveParts are the parts of its fact an additive grant claims while it
// writes (pg/claims.go): its privileges on its objects. A grant of this
// apply that takes privileges from the same grantee on the same objects (the
// postgresql_grant this one replaces, another additive grant that gave the
// same privilege) leaves them alone.
func additiveParts(spec pg.GrantSpec) []string {
	return pg.AdditiveParts(spec.Target.FactParts(), spec.Privileges, spec.WithGrantOption)
}

// retracted are the revokes of specs (additive, of one fact) without what
// other resources of this apply claimed on it (retractedSpecs).
func retracted(ctx context.Context, client *pg.Client, claimed map[string]bool, specs []pg.GrantSpec) ([]pg.GrantSpec, error) {
	if len(claimed) == 0 {
		return specs, nil
	}
	var out []pg.GrantSpec
	for _, s := range specs {
		if len(s.Revoke) == 0 {
			continue // only a grant option: left alone while another resource claims the fact
		}
		more, err := retractedSpecs(ctx, client, s.Target, claimed, s.Revoke)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// revokeSpec is the additive spec that takes privs (and their grant option)
// back from t's grantee on t's objects.
func revokeSpec(t pg.GrantTarget, privs []string) pg.GrantSpec {
	return pg.GrantSpec{Target: t, Additive: true, Revoke: privs, RevokeGrantOption: privs}
}

// UpdateObject grants what the plan adds and revokes, in one transaction,
// only what the state gave and the plan no longer does: privileges removed
// from the set (on the state's objects), every privilege of the state on the
// objects or columns removed from the sets, the grant option when
// with_grant_option becomes false, and everything on the old grantee,
// database or schema when another one that exists is named (one that no
// longer exists under its old name was renamed: the privileges followed it).
func (r *grantAdditiveResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *grantModel) diag.Diagnostics {
	ctx = keepWrittenObjects(ctx, c)
	oldT, newT := r.target(ctx, state), r.target(ctx, plan)
	oldT.GranteeOID = privateOID(ctx, c, privateGranteeOID)
	oldPrivs, newPrivs := r.privileges(ctx, state), r.privileges(ctx, plan)
	spec := pg.GrantSpec{Target: newT, Privileges: newPrivs, WithGrantOption: plan.WithGrantOption.ValueBool(), Additive: true}
	if !pg.SameGrant(oldT, newT) {
		from, err := r.client.GrantFrom(ctx, oldT, newT)
		if err != nil {
			return tfkit.Failed("Could not read privileges", err)
		}
		if !pg.SameGrant(from, newT) {
			claimed, release := r.client.ClaimMove(newT.FactKey(), additiveParts(spec), from.FactKey())
			defer release()
			revoke, err := retracted(ctx, r.client, claimed, []pg.GrantSpec{revokeSpec(from, oldPrivs)})
			if err != nil {
				return tfkit.Failed("Could not read privileges", err)
			}
			return changeFailed("Could not move privileges", r.client.ChangeGrantSpecs(ctx, spec, revoke...), grantArguments)
		}
		oldT.Database, oldT.Schema, oldT.Grantee = newT.Database, newT.Schema, newT.Grantee
	}
	claimed, release := r.client.ClaimRetract(newT.FactKey(), additiveParts(spec)...)
	defer release()
	var revoke []pg.GrantSpec
	if gone := slices.DeleteFunc(slices.Clone(oldPrivs), func(p string) bool { return slices.Contains(newPrivs, p) }); len(gone) > 0 {
		revoke = append(revoke, revokeSpec(oldT, gone))
	}
	removed, diags := r.removedObjects(ctx, oldT, newT)
	if diags.HasError() {
		return diags
	}
	if len(removed) > 0 {
		t := oldT
		t.Objects = removed
		revoke = append(revoke, revokeSpec(t, oldPrivs))
	}
	var removedColumns []string
	for _, c := range oldT.Columns {
		if !slices.Contains(newT.Columns, c) {
			removedColumns = append(removedColumns, c)
		}
	}
	if len(removedColumns) > 0 {
		t := oldT
		t.Columns = removedColumns
		revoke = append(revoke, revokeSpec(t, oldPrivs))
	}
	if state.WithGrantOption.ValueBool() && !plan.WithGrantOption.ValueBool() {
		revoke = append(revoke, pg.GrantSpec{Target: newT, Additive: true, RevokeGrantOption: newPrivs})
	}
	revoke, err := retracted(ctx, r.client, claimed, revoke)
	if err != nil {
		return tfkit.Failed("Could not read privileges", err)
	}
	return changeFailed("Could not change privileges", r.client.ChangeGrantSpecs(ctx, spec, revoke...), grantArguments)
}

// removedObjects are the objects oldT names (every object of the type in
// the schema, when it names none) that newT does not, when newT names some:
// a routine newT spells another way (`f(int)` for `f(integer)`) is not removed.
func (r *grantAdditiveResource) removedObjects(ctx context.Context, oldT, newT pg.GrantTarget) ([]string, diag.Diagnostics) {
	if len(newT.Objects) == 0 {
		return nil, nil // every object: none removed
	}
	oldObjects := oldT.Objects
	if len(oldObjects) == 0 {
		st, err := r.client.ReadGrant(ctx, oldT)
		if err != nil {
			return nil, tfkit.Failed("Could not read privileges", err)
		}
		for _, o := range st.Objects {
			oldObjects = append(oldObjects, o.Name)
		}
	}
	var removed []string
	for _, o := range oldObjects {
		if !slices.Contains(newT.Objects, o) && !slices.Contains(removed, o) {
			removed = append(removed, o)
		}
	}
	if len(removed) > 0 && isRoutineType(newT.ObjectType) {
		t := newT
		t.Objects = append(slices.Clone(removed), newT.Objects...)
		keys, err := r.client.ResolveRoutineSignatures(ctx, t)
		if err != nil {
			return nil, tfkit.Failed("Could not read privileges", err)
		}
		removed = slices.DeleteFunc(removed, func(o string) bool {
			return keys[o] != "" && slices.ContainsFunc(newT.Objects, func(n string) bool { return keys[n] == keys[o] })
		})
	}
	return removed, nil
}

// DropObject revokes the grant's privileges (and their grant option) on its
// objects, only those: what the grantee holds from other resources, or
// from other grantors, stays. A grantee, database, schema or object that no
// longer exists has nothing left to revoke.
//
// What another resource of this apply states on the same objects (the
// postgresql_grant that replaces this one, or an additive grant given the
// same privilege) is left to it (pg/claims.go).
func (r *grantAdditiveResource) DropObject(ctx context.Context, c *tfkit.Call, state *grantModel) diag.Diagnostics {
	t := r.target(ctx, state)
	t.GranteeOID = privateOID(ctx, c, privateGranteeOID)
	claimed, release := r.client.Retract(t.FactKey())
	defer release()
	specs, err := retracted(ctx, r.client, claimed, []pg.GrantSpec{revokeSpec(t, r.privileges(ctx, state))})
	if err != nil {
		return tfkit.Failed("Could not read privileges", err)
	}
	for _, spec := range specs {
		if err := r.client.SetGrant(ctx, spec, true); err != nil {
			return tfkit.Failed("Could not revoke privileges", err)
		}
	}
	return nil
}

// grantAdditiveImportID is the JSON shape of the import ID: grantImportID
// and the privileges.
type grantAdditiveImportID struct {
	Role       string   `json:"role"`
	Database   string   `json:"database"`
	Schema     string   `json:"schema,omitempty"`
	ObjectType string   `json:"object_type"`
	Objects    []string `json:"objects,omitempty"`
	Columns    []string `json:"columns,omitempty"`
	Privileges []string `json:"privileges"`
}

const grantAdditiveImportExample = `{"role":"app","database":"mydb","schema":"public","object_type":"table","objects":["orders"],"privileges":["INSERT"]}`

// ImportByID takes the JSON object of the resource's id, privileges
// included: an additive grant is these privileges, not all those the
// grantee holds.
func (r *grantAdditiveResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id grantAdditiveImportID
	if err := tfkit.ParseID(req.ID, &id); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error()+". Example: "+grantAdditiveImportExample)
		return
	}
	if id.Role == "" || id.Database == "" || !slices.Contains(pg.GrantObjectTypes, id.ObjectType) || len(id.Privileges) == 0 {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("role, database, object_type (one of %s) and privileges (at least one) are required. Example: %s",
			strings.Join(pg.GrantObjectTypes, ", "), grantAdditiveImportExample))
		return
	}
	m := grantModel{
		Role: types.StringValue(id.Role), Database: types.StringValue(id.Database), Schema: tfkit.ImportedString(req.ID, "schema", id.Schema),
		ObjectType: types.StringValue(id.ObjectType), Objects: tfkit.StringSet(id.Objects), Columns: tfkit.StringSet(id.Columns),
		Privileges: tfkit.StringSet(id.Privileges), WithGrantOption: types.BoolNull(),
	}
	m.ID = types.StringValue(grantAdditiveID(ctx, &m))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *grantAdditiveResource) PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[grantModel]) {
	// the checks and warnings of postgresql_grant, the id aside
	major := (&grantResource{withClient: r.withClient}).planChecks(ctx, resp, p)
	plan := &p.Plan
	if plan.Role.IsUnknown() || plan.Database.IsUnknown() || plan.Schema.IsUnknown() || plan.ObjectType.IsUnknown() ||
		!fullyKnown(plan.Objects) || !fullyKnown(plan.Columns) || !fullyKnown(plan.Privileges) {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(grantAdditiveID(ctx, plan))
	}
	// an authoritative grant of the same configuration on the same objects would fight this one
	noteGrantPlan(ctx, r.plans, plan, true, major, &resp.Diagnostics)
}

func (r *grantAdditiveResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	// cyrilgdn/postgresql has no additive grant: there is no prior state to
	// upgrade (a cyrilgdn postgresql_grant stays a postgresql_grant, the
	// authoritative form it always was).
	return map[int64]resource.StateUpgrader{}
}

// ReadObject refreshes the grant: the objects that still exist (none: the
// grant is gone), and of the privileges it names those the grantee holds on
// every object (from any grantor), keeping the state's spelling when it
// holds them all; with_grant_option turns false when one lacks the grant
// option. What else the grantee holds is not the resource's business. An
// import (with_grant_option unknown) of privileges the grantee holds on none
// of the objects finds nothing to import.
func (r *grantAdditiveResource) ReadObject(ctx context.Context, c *tfkit.Call, m *grantModel) (bool, diag.Diagnostics) {
	importing := m.WithGrantOption.IsNull()
	// the grantee's OID at the last read, as for postgresql_grant: a grantee
	// renamed outside Terraform is followed, and removing the resource still
	// revokes from it
	t := r.target(ctx, m)
	t.GranteeOID = privateOID(ctx, c, privateGranteeOID)
	t.Written = writtenObjects(c)
	st, err := r.client.ReadGrant(ctx, t)
	if err != nil || !st.Exists {
		return false, tfkit.Failed("Could not read privileges", err)
	}
	if d := savePrivateOID(ctx, c, privateGranteeOID, st.GranteeOID); d.HasError() {
		return false, d
	}
	switch t.ObjectType {
	case pg.ObjDatabase, pg.ObjSchema:
		if len(st.Missing) > 0 {
			return false, nil
		}
	}
	present := func(names []string) ([]string, bool) {
		var out []string
		for _, n := range names {
			if !slices.Contains(st.Missing, n) {
				out = append(out, n)
			}
		}
		return out, len(out) != len(names)
	}
	if len(t.Objects) > 0 {
		objs, changed := present(t.Objects)
		if len(objs) == 0 {
			return false, nil
		}
		if changed {
			m.Objects = tfkit.StringSet(objs)
		}
	}
	if len(t.Columns) > 0 {
		cols, changed := present(t.Columns)
		if len(cols) == 0 {
			return false, nil
		}
		if changed {
			m.Columns = tfkit.StringSet(cols)
		}
	}
	want := r.privileges(ctx, m)
	held := [][]string{want}
	grantable := [][]string{want}
	anyHeld := false
	for _, o := range st.Objects {
		if o.OwnedBy {
			continue
		}
		held = append(held, o.Held)
		grantable = append(grantable, o.Grantable)
		anyHeld = anyHeld || slices.ContainsFunc(want, func(p string) bool { return slices.Contains(o.Held, p) })
	}
	if importing && len(held) > 1 && !anyHeld {
		return false, nil
	}
	if have := tfkit.Intersect(held); !tfkit.SameStrings(have, want) {
		m.Privileges = tfkit.StringSet(have)
	}
	withGO := tfkit.SameStrings(tfkit.Intersect(grantable), want)
	if importing || (m.WithGrantOption.ValueBool() && !withGO) {
		m.WithGrantOption = types.BoolValue(withGO && len(want) > 0)
	}
	m.ID = types.StringValue(grantAdditiveID(ctx, m))
	return true, nil
}

// grantAdditiveID is the import ID of m (canonicalID of its attributes:
// empty ones left out, privileges upper case and ALL as written).
func grantAdditiveID(ctx context.Context, m *grantModel) string {
	fields := map[string]any{"role": m.Role.ValueString(), "database": m.Database.ValueString(), "object_type": m.ObjectType.ValueString()}
	if s := m.Schema.ValueString(); s != "" && slices.Contains(grantSchemaTypes, m.ObjectType.ValueString()) {
		fields["schema"] = s
	}
	if o := tfkit.SetStrings(ctx, m.Objects); len(o) > 0 {
		fields["objects"] = o
	}
	if c := tfkit.SetStrings(ctx, m.Columns); len(c) > 0 {
		fields["columns"] = c
	}
	var privs []string
	for _, p := range tfkit.SetStrings(ctx, m.Privileges) {
		privs = append(privs, pg.NormalizePrivilege(p))
	}
	fields["privileges"] = slices.Compact(slices.Sorted(slices.Values(privs)))
	return canonicalID(fields)
}

// movedFrom reads the state of a `moved` block's source (MoveState) into
// model *M when it is a resource of type source of this provider or of
// cyrilgdn/postgresql (whose layout, schema version 0, is the same as the
// current one's): ok is false for any other source, which the other movers
// (none) or the framework's error then handle.
func movedFrom[M any](ctx context.Context, req resource.MoveStateRequest, source string, prior schema.Schema, m *M) (ok bool, diags diag.Diagnostics) {
	if req.SourceTypeName != source || !strings.HasSuffix(req.SourceProviderAddress, "/postgresql") || req.SourceRawState == nil || req.SourceSchemaVersion > prior.Version {
		return false, nil
	}
	v, err := req.SourceRawState.UnmarshalWithOpts(prior.Type().TerraformType(ctx), tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		diags.AddError("Cannot move the state", fmt.Sprintf("The state of the %s to move could not be read: %s.", source, err))
		return true, diags
	}
	diags.Append(tfsdk.State{Schema: prior, Raw: v}.Get(ctx, m)...)
	return true, diags
}

// MoveState takes over a postgresql_grant (`moved` from it to this
// resource, Terraform 1.8 and later), this provider's or cyrilgdn/postgresql's:
// the additive grant then owns the privileges the authoritative one listed,
// and the move grants and revokes nothing. A grant of no privileges (which
// revokes) has no additive form.
func (r *grantAdditiveResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		var m grantModel
		ok, diags := movedFrom(ctx, req, "postgresql_grant", grantSchemaV1(), &m)
		if resp.Diagnostics.Append(diags...); !ok || diags.HasError() {
			return
		}
		if len(m.Privileges.Elements()) == 0 {
			resp.Diagnostics.AddError("Cannot move a grant of no privileges",
				"The postgresql_grant to move lists no privileges: it revokes every privilege of its object type, which an additive grant cannot say. Keep it a postgresql_grant.")
			return
		}
		m.WithGrantOption = boolOr(m.WithGrantOption, false)
		if m.Schema.IsUnknown() {
			m.Schema = types.StringNull()
		}
		m.ID = types.StringValue(grantAdditiveID(ctx, &m))
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
		resp.Diagnostics.Append(tfkit.SetIdentity(ctx, r, resp.TargetState, resp.TargetIdentity)...)
	}}}
}
