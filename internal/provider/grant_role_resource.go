package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ validatedResource                   = (*grantRoleResource)(nil)
	_ tfkit.ChangePlanner[grantRoleModel] = (*grantRoleResource)(nil)
	_ tfkit.IDImporter                    = (*grantRoleResource)(nil)
)

// NewGrantRoleResource is the constructor of postgresql_grant_role.
func NewGrantRoleResource() resource.Resource {
	r := &grantRoleResource{}
	// The object's identity (Terraform 1.12+) is `role`, `grant_role`.
	r.Lifecycle = newLifecycle[grantRoleModel](r, "grant_role", grantRoleSchemaV1, "role", "grant_role")
	return r
}

type grantRoleResource struct {
	tfkit.Lifecycle[grantRoleModel]
	withClient
}

func grantRoleSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "Membership of one role in another (`GRANT grant_role TO role`). Use it next to `postgresql_role` resources whose `roles` is unset: " +
			"neither shows a diff. Membership changes on the same roles are serialised with advisory locks, so they never fail when applied in parallel.",
		Attributes: map[string]schema.Attribute{
			"id": tfkit.IDAttr("cyrilgdn/postgresql's id of the membership: `<role>_<grant_role>_<with_admin_option>` (`true` or `false`), so it changes with `with_admin_option`. " +
				"It is also an import ID, unless underscores in the names make it ambiguous (see Import)."),
			"role": nameAttribute("The member: the role that receives `grant_role`. Changes in place: renaming the role keeps the membership (PostgreSQL records it by OID) " +
				"and runs no statement; naming another role revokes the old membership and grants the new one in one transaction."),
			"grant_role":        nameAttribute("The role granted to `role` (predefined roles such as `pg_read_all_data` are allowed). Changes in place, as `role` does."),
			"with_admin_option": tfkit.DefaultedBoolAttr(false, "Whether `role` may grant `grant_role` to others (`WITH ADMIN OPTION`). Changes in place."),
			"inherit_option": schema.BoolAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "PostgreSQL 16 and later: whether `role` uses the privileges of `grant_role` without `SET ROLE` (`WITH INHERIT`). " +
					"Unset leaves it to the server (on grant, the member's `INHERIT` attribute) and records what the membership has. Changes in place. " +
					"An error on older servers, where it is always null.",
			},
			"set_option": schema.BoolAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "PostgreSQL 16 and later: whether `role` may `SET ROLE` to `grant_role` (`WITH SET`). " +
					"Unset leaves it to the server (on grant, true) and records what the membership has. Changes in place. " +
					"An error on older servers, where it is always null.",
			},
		},
	}
}

func (r *grantRoleResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m grantRoleModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Role.IsUnknown() || m.GrantRole.IsUnknown() {
		return
	}
	if m.Role.ValueString() == m.GrantRole.ValueString() {
		resp.Diagnostics.AddAttributeError(path.Root("grant_role"), "Role granted to itself", "A role cannot be a member of itself.")
	}
}

type grantRoleImportID struct {
	Role      string `json:"role"`
	GrantRole string `json:"grant_role"`
}

const grantRoleImportExample = `{"role":"app","grant_role":"readers"}`

// ImportByID takes a JSON object ({"role":"app","grant_role":"readers"}),
// or the resource's id, cyrilgdn/postgresql's
// `<role>_<grant_role>_<with_admin_option>`, when only one way to cut it
// names an existing membership (with_admin_option is read from the server).
func (r *grantRoleResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id grantRoleImportID
	if strings.HasPrefix(strings.TrimSpace(req.ID), "{") {
		if err := tfkit.ParseID(req.ID, &id, "role", "grant_role"); err != nil {
			resp.Diagnostics.AddError("Invalid import ID", err.Error()+". Example: "+grantRoleImportExample)
			return
		}
	} else {
		var diags diag.Diagnostics
		id, diags = r.importUnderscoreID(ctx, req.ID)
		if resp.Diagnostics.Append(diags...); diags.HasError() {
			return
		}
	}
	m := grantRoleModel{
		Role: types.StringValue(id.Role), GrantRole: types.StringValue(id.GrantRole),
		WithAdminOption: types.BoolNull(), InheritOption: types.BoolNull(), SetOption: types.BoolNull(),
	}
	m.ID = types.StringValue(m.id())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importUnderscoreID reads id as cyrilgdn/postgresql's
// `<role>_<grant_role>_<true|false>`.
func (r *grantRoleResource) importUnderscoreID(ctx context.Context, id string) (grantRoleImportID, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r.client == nil || r.client.Ready() != nil {
		diags.AddError("Cannot import", "The provider must be configured (and able to connect) to import a membership by its underscore-joined ID.")
		return grantRoleImportID{}, diags
	}
	names, ok := strings.CutSuffix(id, "_true")
	if !ok {
		names, ok = strings.CutSuffix(id, "_false")
	}
	if !ok {
		diags.AddError("Invalid import ID", fmt.Sprintf("The import ID %q is neither a JSON object (for example %s) nor cyrilgdn/postgresql's `<role>_<grant_role>_<true|false>`.",
			id, grantRoleImportExample))
		return grantRoleImportID{}, diags
	}
	cat, err := newImportCatalog(ctx, r.client)
	if err != nil {
		diags.AddError("Cannot import", err.Error())
		return grantRoleImportID{}, diags
	}
	var found []any
	var first grantRoleImportID
	for _, p := range underscoreSplits(names, 2) {
		if !cat.isRole(p[0]) || !cat.isRole(p[1]) {
			continue
		}
		ms, rolesExist, err := r.client.ReadMembership(ctx, p[0], p[1])
		if err != nil || !rolesExist || !ms.Exists {
			continue
		}
		if len(found) == 0 {
			first = grantRoleImportID{Role: p[0], GrantRole: p[1]}
		}
		found = append(found, grantRoleImportID{Role: p[0], GrantRole: p[1]})
	}
	if len(found) != 1 {
		return grantRoleImportID{}, underscoreImportError("membership", id, found, grantRoleImportExample)
	}
	return first, diags
}

func (r *grantRoleResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[grantRoleModel]) {
	plan, config := &p.Plan, &p.Config
	major := serverMajor(ctx, r.client)
	for _, a := range []struct {
		name        string
		conf        types.Bool
		plan, state *types.Bool
	}{
		{"inherit_option", config.InheritOption, &plan.InheritOption, stateBool(p.State, func(m *grantRoleModel) *types.Bool { return &m.InheritOption })},
		{"set_option", config.SetOption, &plan.SetOption, stateBool(p.State, func(m *grantRoleModel) *types.Bool { return &m.SetOption })},
	} {
		switch {
		case major > 0 && major < 16:
			if !a.conf.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(a.name), "Needs PostgreSQL 16",
					a.name+" sets a per-membership option that exists only in PostgreSQL 16 and later; this server is PostgreSQL "+strconv.Itoa(major)+". Remove it from the configuration.")
			}
			*a.plan = types.BoolNull()
		case a.conf.IsNull() && a.state != nil && !p.Creating() && plan.Role.Equal(p.State.Role) && plan.GrantRole.Equal(p.State.GrantRole):
			*a.plan = *a.state // unset: whatever the membership has
		}
	}
	if plan.Role.IsUnknown() || plan.GrantRole.IsUnknown() || plan.WithAdminOption.IsUnknown() {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(plan.id())
	}
}

func (r *grantRoleResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeGrantRoleV0, "inherit_option", "set_option"),
	}
}

func (r *grantRoleResource) Describe(m *grantRoleModel) string {
	return fmt.Sprintf("membership of role %q in role %q", m.Role.ValueString(), m.GrantRole.ValueString())
}

// namesUsed: the member and the role granted (awaitNames).
func (r *grantRoleResource) namesUsed(m *grantRoleModel) []pg.Ref {
	var n refs
	n.role("role", m.Role)
	n.role("grant_role", m.GrantRole)
	return n
}

func (r *grantRoleResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *grantRoleModel) diag.Diagnostics {
	defer r.client.Claim(pg.MembershipFactKey(plan.Role.ValueString(), plan.GrantRole.ValueString()))()
	return tfkit.Failed("Could not grant role", r.client.SetMembership(ctx, plan.spec()))
}

// UpdateObject sets the planned membership. When a role changed, one that no
// longer exists under its old name was renamed (the membership followed it);
// when it still exists, another role was named, and the old membership is
// revoked in the same transaction.
func (r *grantRoleResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *grantRoleModel) diag.Diagnostics {
	role, grantRole := plan.Role.ValueString(), plan.GrantRole.ValueString()
	defer r.client.Claim(pg.MembershipFactKey(role, grantRole))()
	if oldRole, oldGrant := state.Role.ValueString(), state.GrantRole.ValueString(); oldRole != role || oldGrant != grantRole {
		// the old roles followed by their OIDs: one renamed outside
		// Terraform still holds the membership under its new name
		member, group, err := membershipRoles(ctx, r.client, c, oldRole, oldGrant)
		if err != nil {
			return tfkit.Failed("Could not read role membership", err)
		}
		if member.Name != "" {
			oldRole = member.Name
		}
		if group.Name != "" {
			oldGrant = group.Name
		}
		fromRole, fromGrant, err := r.client.MembershipFrom(ctx, oldRole, oldGrant, role, grantRole)
		if err != nil {
			return tfkit.Failed("Could not read role membership", err)
		}
		if fromRole != role || fromGrant != grantRole {
			return tfkit.Failed("Could not change role membership", r.client.MoveMembership(ctx, fromRole, fromGrant, plan.spec()))
		}
	}
	return tfkit.Failed("Could not change role membership", r.client.SetMembership(ctx, plan.spec()))
}

// DropObject revokes the membership, unless another resource of this apply
// states it (it moved to another address, or to a role's `roles`:
// pg/claims.go).
//
// The roles are followed by their OIDs (membershipRoles): a destroy that runs
// before a role's rename back (renamed outside Terraform, renamed back by its
// postgresql_role in this apply) revokes under the role's current name, and
// a rename that lands while the revoke runs is looked up again.
func (r *grantRoleResource) DropObject(ctx context.Context, c *tfkit.Call, state *grantRoleModel) diag.Diagnostics {
	claimed, release := r.client.Retract(pg.MembershipFactKey(state.Role.ValueString(), state.GrantRole.ValueString()))
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	for try := 0; ; try++ {
		member, group, err := membershipRoles(ctx, r.client, c, state.Role.ValueString(), state.GrantRole.ValueString())
		if err != nil || member.Name == "" || group.Name == "" {
			return tfkit.Failed("Could not revoke role", err) // a role that is gone took the membership along
		}
		if err := r.client.RevokeMembership(ctx, member.Name, group.Name); err != nil {
			return tfkit.Failed("Could not revoke role", err)
		}
		again, againGroup, err := membershipRoles(ctx, r.client, c, state.Role.ValueString(), state.GrantRole.ValueString())
		if err != nil || again.Name == member.Name && againGroup.Name == group.Name || try == 2 {
			return tfkit.Failed("Could not revoke role", err)
		}
	}
}

// membershipRoles is the current name and OID of a membership's member
// (role) and group (grant_role): by name, or by the OID recorded in private
// state at the last read when no role has that name (renamed outside
// Terraform, or by this apply); Name "" for one that is gone. Found by the
// walk's membership check (a postgresql_grant_role removed in the apply that
// renames its member back left the membership).
func membershipRoles(ctx context.Context, client *pg.Client, c *tfkit.Call, role, grantRole string) (member, group pg.ResolvedRole, err error) {
	found, err := client.ResolveRoles(ctx, []string{role, grantRole},
		map[string]uint32{role: privateOID(ctx, c, privateRoleOID), grantRole: privateOID(ctx, c, privateGrantRoleOID)})
	if err != nil {
		return member, group, err
	}
	return found[role], found[grantRole], nil
}

// ReadObject reads the membership of the roles followed by their OIDs
// (membershipRoles) and records the OIDs; the model keeps the names.
func (r *grantRoleResource) ReadObject(ctx context.Context, c *tfkit.Call, m *grantRoleModel) (bool, diag.Diagnostics) {
	member, group, err := membershipRoles(ctx, r.client, c, m.Role.ValueString(), m.GrantRole.ValueString())
	if err != nil || member.Name == "" || group.Name == "" || member.OID == group.OID {
		return notFound("Could not read role membership", err)
	}
	ms, rolesExist, err := r.client.ReadMembership(ctx, member.Name, group.Name)
	if err != nil || !rolesExist || !ms.Exists {
		return notFound("Could not read role membership", err)
	}
	diags := savePrivateOID(ctx, c, privateRoleOID, member.OID)
	diags.Append(savePrivateOID(ctx, c, privateGrantRoleOID, group.OID)...)
	m.WithAdminOption = types.BoolValue(ms.AdminOption)
	if major := serverMajor(ctx, r.client); major >= 16 {
		m.InheritOption, m.SetOption = types.BoolValue(ms.InheritOption), types.BoolValue(ms.SetOption)
	} else {
		m.InheritOption, m.SetOption = types.BoolNull(), types.BoolNull()
	}
	m.ID = types.StringValue(m.id())
	return true, diags
}

// stateBool is an attribute of the prior state, nil when there is none.
func stateBool(state *grantRoleModel, attr func(*grantRoleModel) *types.Bool) *types.Bool {
	if state == nil {
		return nil
	}
	return attr(state)
}

func (m *grantRoleModel) spec() pg.MembershipSpec {
	s := pg.MembershipSpec{Role: m.Role.ValueString(), GrantRole: m.GrantRole.ValueString(), AdminOption: m.WithAdminOption.ValueBool()}
	if !m.InheritOption.IsNull() && !m.InheritOption.IsUnknown() {
		v := m.InheritOption.ValueBool()
		s.InheritOption = &v
	}
	if !m.SetOption.IsNull() && !m.SetOption.IsUnknown() {
		v := m.SetOption.ValueBool()
		s.SetOption = &v
	}
	return s
}

// id is cyrilgdn/postgresql's id of the membership (its
// generateGrantRoleID): `<role>_<grant_role>_<with_admin_option>`, so it
// changes with with_admin_option. Names that contain underscores can make two
// memberships' ids equal: the identity is what names a membership
// unambiguously.
func (m *grantRoleModel) id() string {
	return m.Role.ValueString() + "_" + m.GrantRole.ValueString() + "_" + strconv.FormatBool(m.WithAdminOption.ValueBool())
}

type grantRoleModel struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	GrantRole       types.String `tfsdk:"grant_role"`
	WithAdminOption types.Bool   `tfsdk:"with_admin_option"`
	InheritOption   types.Bool   `tfsdk:"inherit_option"`
	SetOption       types.Bool   `tfsdk:"set_option"`
}
