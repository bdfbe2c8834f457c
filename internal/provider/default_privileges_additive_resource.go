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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ validatedResource                           = (*defaultPrivilegesAdditiveResource)(nil)
	_ tfkit.ChangePlanner[defaultPrivilegesModel] = (*defaultPrivilegesAdditiveResource)(nil)
	_ tfkit.IDImporter                            = (*defaultPrivilegesAdditiveResource)(nil)
	_ resource.ResourceWithMoveState              = (*defaultPrivilegesAdditiveResource)(nil)
)

// NewDefaultPrivilegesAdditiveResource is the constructor of
// postgresql_default_privileges_additive: the additive form of
// postgresql_default_privileges, with the same arguments and model.
func NewDefaultPrivilegesAdditiveResource() resource.Resource {
	r := &defaultPrivilegesAdditiveResource{}
	// The object's identity (Terraform 1.12+) is `role`, `database`, `owner`, `schema`, `object_type`, `privileges`.
	r.Lifecycle = newLifecycle[defaultPrivilegesModel](r, "default_privileges_additive", defaultPrivilegesAdditiveSchemaV1,
		"role", "database", "owner", "schema", "object_type", "privileges")
	return r
}

type defaultPrivilegesAdditiveResource struct {
	tfkit.Lifecycle[defaultPrivilegesModel]
	withClient
}

func defaultPrivilegesAdditiveSchemaV1() schema.Schema {
	s := defaultPrivilegesSchemaV1()
	s.Version = 1
	s.MarkdownDescription = "Privileges a role (or `PUBLIC`) must get on objects that `owner` creates in the future (`ALTER DEFAULT PRIVILEGES ... GRANT`), " +
		"whatever else the entry gives it: the additive form of `postgresql_default_privileges`. Any number of these resources can add privileges to one " +
		"(owner, schema, object type, grantee) entry of `pg_default_acl`; each grants what the entry lacks of its own privileges, revokes only those when it is destroyed " +
		"(or when they are removed from it), and shows a privilege taken away as a change that grants it again. " +
		"Do not use it together with a `postgresql_default_privileges` of the same entry: the authoritative resource revokes every privilege it does not list."
	attrs := s.Attributes
	attrs["id"] = tfkit.IDAttr("The import ID of the entry's privileges: a JSON object of `role`, `database`, `owner`, `schema`, `object_type` and `privileges` (upper case), " +
		"with sorted keys and lists, an unset schema left out.")
	attrs["role"] = nameAttribute("The grantee: a role name, or `public`. Changes in place: renaming the role keeps the privileges (PostgreSQL records them by OID) and runs no statement; " +
		"naming another role revokes these privileges from the old one's entry and grants them in the new one's, in one transaction.")
	attrs["database"] = nameAttribute("The database the default privileges apply in. Changes in place: renaming the database keeps the entry; " +
		"naming another database grants there, then revokes these privileges in the old one.")
	attrs["owner"] = nameAttribute("The role whose future objects get these privileges (`FOR ROLE`), as in `postgresql_default_privileges`. " +
		"Changes in place: renaming the role keeps the entry; naming another role revokes these privileges from the old owner's entry and grants them in the new one's.")
	sch := attrs["schema"].(schema.StringAttribute)
	sch.MarkdownDescription = "Limit the entry to objects created in this schema (`IN SCHEMA`); unset (or `\"\"`) means every schema. " +
		"Not allowed for `object_type = \"schema\"` and `\"large_object\"`. Changes in place: renaming the schema keeps the entry; naming another schema (or none) " +
		"revokes these privileges from the old entry and grants them in the new one, in one transaction."
	attrs["schema"] = sch
	attrs["privileges"] = schema.SetAttribute{
		ElementType: types.StringType,
		Required:    true,
		MarkdownDescription: "The privileges new objects must grant the grantee (at least one), case-insensitive and validated against the object type; `ALL` is kept as written. " +
			"The entry's other privileges are left alone. Changes in place: a privilege removed from the set is revoked from the entry (only it), one added is granted.",
		Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
	}
	attrs["with_grant_option"] = tfkit.DefaultedBoolAttr(false, "Whether the grantee must also be able to grant these privileges to others. "+
		"`false` asks nothing of the grant option: one the entry gives from elsewhere stays. Changing it from `true` to `false` revokes the grant option of these privileges. "+
		"Not allowed with `public`. Changes in place.")
	return s
}

func (r *defaultPrivilegesAdditiveResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	// the arguments mean what they mean in postgresql_default_privileges
	(&defaultPrivilegesResource{}).ValidateConfig(ctx, req, resp)
}

func (r *defaultPrivilegesAdditiveResource) Describe(m *defaultPrivilegesModel) string {
	return "additive " + (&defaultPrivilegesResource{}).Describe(m)
}

// privileges are the model's privileges, normalised and with ALL expanded.
func (r *defaultPrivilegesAdditiveResource) privileges(ctx context.Context, m *defaultPrivilegesModel) []string {
	return pg.ExpandDefaultPrivileges(m.ObjectType.ValueString(), serverMajor(ctx, r.client), tfkit.SetStrings(ctx, m.Privileges))
}

// namesUsed: as postgresql_default_privileges (awaitNames).
func (r *defaultPrivilegesAdditiveResource) namesUsed(m *defaultPrivilegesModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("owner", m.Owner)
	n.role("role", m.Role)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *defaultPrivilegesAdditiveResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *defaultPrivilegesModel) diag.Diagnostics {
	defer r.client.Claim(plan.target().FactKey(), pg.AdditiveParts(nil, r.privileges(ctx, plan), plan.WithGrantOption.ValueBool())...)()
	return changeFailed("Could not alter default privileges", r.client.ChangeDefaultPrivileges(ctx, pg.DefaultPrivilegesChange{
		Target: plan.target(), Grant: r.privileges(ctx, plan), WithGrantOption: plan.WithGrantOption.ValueBool(),
	}), defaultPrivilegesArguments)
}

// UpdateObject grants what the plan adds and revokes only what the state
// gave and the plan no longer does: privileges removed from the set, the
// grant option when with_grant_option becomes false, and everything from the
// old entry when another grantee, owner, schema or database that exists is
// named (one that no longer exists under its old name was renamed: the
// entry followed it).
func (r *defaultPrivilegesAdditiveResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *defaultPrivilegesModel) diag.Diagnostics {
	t, old := plan.target(), state.target()
	old.OwnerOID, old.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	oldPrivs, newPrivs := r.privileges(ctx, state), r.privileges(ctx, plan)
	add := pg.DefaultPrivilegesChange{Target: t, Grant: newPrivs, WithGrantOption: plan.WithGrantOption.ValueBool()}
	parts := pg.AdditiveParts(nil, newPrivs, add.WithGrantOption)
	if !pg.SameDefaultPrivileges(old, t) {
		from, err := r.client.DefaultPrivilegesFrom(ctx, old, t)
		if err != nil {
			return tfkit.Failed("Could not read default privileges", err)
		}
		if !pg.SameDefaultPrivileges(from, t) {
			claimed, release := r.client.ClaimMove(t.FactKey(), parts, from.FactKey())
			defer release()
			return changeFailed("Could not alter default privileges", r.client.ChangeDefaultPrivileges(ctx,
				unclaimedDefaultPrivileges(claimed, pg.DefaultPrivilegesChange{Target: from, Revoke: oldPrivs, RevokeGrantOption: oldPrivs}), add), defaultPrivilegesArguments)
		}
	}
	claimed, release := r.client.ClaimRetract(t.FactKey(), parts...)
	defer release()
	add.Revoke = slices.DeleteFunc(slices.Clone(oldPrivs), func(p string) bool { return slices.Contains(newPrivs, p) })
	add.RevokeGrantOption = add.Revoke
	if state.WithGrantOption.ValueBool() && !plan.WithGrantOption.ValueBool() {
		add.RevokeGrantOption = slices.Concat(add.Revoke, newPrivs)
	}
	add = unclaimedDefaultPrivileges(claimed, add)
	return changeFailed("Could not alter default privileges", r.client.ChangeDefaultPrivileges(ctx, add), defaultPrivilegesArguments)
}

// DropObject revokes the resource's privileges (and their grant option) from
// the entry, only those; PostgreSQL removes the entry when what is left is
// the built-in default.
//
// What another resource of this apply states in the same entry (the
// postgresql_default_privileges that replaces this one, or an additive one
// given the same privilege) is left to it (pg/claims.go).
func (r *defaultPrivilegesAdditiveResource) DropObject(ctx context.Context, c *tfkit.Call, state *defaultPrivilegesModel) diag.Diagnostics {
	privs := r.privileges(ctx, state)
	t := state.target()
	t.OwnerOID, t.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	claimed, release := r.client.Retract(t.FactKey())
	defer release()
	return tfkit.Failed("Could not revoke default privileges", r.client.ChangeDefaultPrivileges(ctx,
		unclaimedDefaultPrivileges(claimed, pg.DefaultPrivilegesChange{Target: t, Revoke: privs, RevokeGrantOption: privs})))
}

// unclaimedDefaultPrivileges is ch without the revokes of what other
// resources of this apply claimed in its entry (pg/claims.go): nothing when
// an authoritative resource states the entry, else not the privileges
// additive ones claimed (nor their grant option, when claimed with it).
func unclaimedDefaultPrivileges(claimed map[string]bool, ch pg.DefaultPrivilegesChange) pg.DefaultPrivilegesChange {
	whole, kept := pg.ClaimedPrivileges(claimed)
	if len(whole) > 0 {
		ch.Revoke, ch.RevokeGrantOption = nil, nil
		return ch
	}
	k := kept[pg.ClaimAll]
	ch.Revoke = slices.DeleteFunc(slices.Clone(ch.Revoke), func(p string) bool { _, ok := k[p]; return ok })
	ch.RevokeGrantOption = slices.DeleteFunc(slices.Clone(ch.RevokeGrantOption), func(p string) bool { return k[p] })
	return ch
}

type defaultPrivilegesAdditiveImportID struct {
	Role       string   `json:"role"`
	Database   string   `json:"database"`
	Owner      string   `json:"owner"`
	Schema     string   `json:"schema,omitempty"`
	ObjectType string   `json:"object_type"`
	Privileges []string `json:"privileges"`
}

const defaultPrivilegesAdditiveImportExample = `{"role":"app","database":"mydb","owner":"migrator","schema":"public","object_type":"table","privileges":["SELECT"]}`

// ImportByID takes the JSON object of the resource's id, privileges included.
func (r *defaultPrivilegesAdditiveResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id defaultPrivilegesAdditiveImportID
	if err := tfkit.ParseID(req.ID, &id); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error()+". Example: "+defaultPrivilegesAdditiveImportExample)
		return
	}
	if id.Role == "" || id.Database == "" || id.Owner == "" || !slices.Contains(pg.DefaultPrivilegesObjectTypes, id.ObjectType) || len(id.Privileges) == 0 {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("role, database, owner, object_type (one of %s) and privileges (at least one) are required. Example: %s",
			strings.Join(pg.DefaultPrivilegesObjectTypes, ", "), defaultPrivilegesAdditiveImportExample))
		return
	}
	m := defaultPrivilegesModel{
		Role: types.StringValue(id.Role), Database: types.StringValue(id.Database), Owner: types.StringValue(id.Owner),
		Schema: tfkit.ImportedString(req.ID, "schema", id.Schema), ObjectType: types.StringValue(id.ObjectType),
		Privileges: tfkit.StringSet(id.Privileges), WithGrantOption: types.BoolNull(),
	}
	m.ID = types.StringValue(defaultPrivilegesAdditiveID(ctx, &m))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *defaultPrivilegesAdditiveResource) PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[defaultPrivilegesModel]) {
	major, ok := (&defaultPrivilegesResource{withClient: r.withClient}).planChecks(ctx, resp, p)
	if !ok {
		return
	}
	plan := &p.Plan
	if plan.Role.IsUnknown() || plan.Database.IsUnknown() || plan.Owner.IsUnknown() || plan.Schema.IsUnknown() || plan.ObjectType.IsUnknown() || !fullyKnown(plan.Privileges) {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(defaultPrivilegesAdditiveID(ctx, plan))
	}
	// an authoritative entry of the same configuration would fight this one
	noteDefaultPrivilegesPlan(ctx, r.plans, plan, true, major, &resp.Diagnostics)
}

func (r *defaultPrivilegesAdditiveResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	// cyrilgdn/postgresql has no additive default privileges: no prior state
	// to upgrade (its postgresql_default_privileges stays the authoritative form).
	return map[int64]resource.StateUpgrader{}
}

// ReadObject refreshes the entry's privileges: of those the resource names,
// the ones the entry holds (the state's spelling kept when it holds them
// all); with_grant_option turns false when one lacks the grant option. An
// import (with_grant_option unknown) of privileges the entry holds none of
// finds nothing to import.
func (r *defaultPrivilegesAdditiveResource) ReadObject(ctx context.Context, c *tfkit.Call, m *defaultPrivilegesModel) (bool, diag.Diagnostics) {
	importing := m.WithGrantOption.IsNull()
	// the owner's and grantee's OIDs at the last read, as for
	// postgresql_default_privileges: a role renamed outside Terraform is
	// followed, and removing the resource still revokes from it (found by
	// the walk, seed 14000 step 17 as the superuser on PostgreSQL 15)
	t := m.target()
	t.OwnerOID, t.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	st, err := r.client.ReadDefaultPrivileges(ctx, t)
	if err != nil || !st.Exists {
		return false, tfkit.Failed("Could not read default privileges", err)
	}
	diags := savePrivateOID(ctx, c, privateOwnerOID, st.OwnerOID)
	diags.Append(savePrivateOID(ctx, c, privateGranteeOID, st.GranteeOID)...)
	want := r.privileges(ctx, m)
	have := tfkit.Intersect([][]string{want, st.Held})
	if importing && len(have) == 0 {
		return false, nil
	}
	if !tfkit.SameStrings(have, want) {
		m.Privileges = tfkit.StringSet(have)
	}
	withGO := len(want) > 0 && tfkit.SameStrings(tfkit.Intersect([][]string{want, st.Grantable}), want)
	if importing || (m.WithGrantOption.ValueBool() && !withGO) {
		m.WithGrantOption = types.BoolValue(withGO)
	}
	m.ID = types.StringValue(defaultPrivilegesAdditiveID(ctx, m))
	return true, diags
}

// defaultPrivilegesAdditiveID is the import ID of m (canonicalID: an unset
// schema left out, privileges upper case and ALL as written).
func defaultPrivilegesAdditiveID(ctx context.Context, m *defaultPrivilegesModel) string {
	fields := map[string]any{"role": m.Role.ValueString(), "database": m.Database.ValueString(), "owner": m.Owner.ValueString(), "object_type": m.ObjectType.ValueString()}
	if s := m.Schema.ValueString(); s != "" {
		fields["schema"] = s
	}
	var privs []string
	for _, p := range tfkit.SetStrings(ctx, m.Privileges) {
		privs = append(privs, pg.NormalizePrivilege(p))
	}
	fields["privileges"] = slices.Compact(slices.Sorted(slices.Values(privs)))
	return canonicalID(fields)
}

// MoveState takes over a postgresql_default_privileges (`moved` from it to
// this resource, Terraform 1.8 and later), this provider's or
// cyrilgdn/postgresql's: the additive resource then owns the privileges the
// authoritative one listed, and the move changes nothing on the server. An
// entry of no privileges (which revokes) has no additive form.
func (r *defaultPrivilegesAdditiveResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		var m defaultPrivilegesModel
		ok, diags := movedFrom(ctx, req, "postgresql_default_privileges", defaultPrivilegesSchemaV1(), &m)
		if resp.Diagnostics.Append(diags...); !ok || diags.HasError() {
			return
		}
		if len(m.Privileges.Elements()) == 0 {
			resp.Diagnostics.AddError("Cannot move default privileges of no privileges",
				"The postgresql_default_privileges to move lists no privileges: it revokes every privilege of its entry, which the additive form cannot say. Keep it a postgresql_default_privileges.")
			return
		}
		m.WithGrantOption = boolOr(m.WithGrantOption, false)
		if m.Schema.IsUnknown() {
			m.Schema = types.StringNull()
		}
		m.ID = types.StringValue(defaultPrivilegesAdditiveID(ctx, &m))
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
		resp.Diagnostics.Append(tfkit.SetIdentity(ctx, r, resp.TargetState, resp.TargetIdentity)...)
	}}}
}
