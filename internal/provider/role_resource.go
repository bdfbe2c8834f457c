package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource               = (*roleResource)(nil)
	_ tfkit.ChangePlanner[roleModel]  = (*roleResource)(nil)
	_ tfkit.DestroyPlanner[roleModel] = (*roleResource)(nil)
	_ tfkit.IDImporter                = (*roleResource)(nil)
	_ tfkit.ImportIDAttributes        = (*roleResource)(nil)
)

// NewRoleResource is the constructor of postgresql_role.
func NewRoleResource() resource.Resource {
	r := &roleResource{}
	// The object's identity (Terraform 1.12+) is `name`.
	r.Lifecycle = newLifecycle[roleModel](r, "role", roleSchemaV1, "name")
	return r
}

type roleResource struct {
	tfkit.Lifecycle[roleModel]
	withClient
}

func roleSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A PostgreSQL role (`CREATE ROLE`). Renaming changes the role in place (`ALTER ROLE ... RENAME`), keeping its OID, " +
			"privileges and memberships. Passwords are sent to the server as SCRAM-SHA-256 verifiers computed by the provider, never in plain text.",
		Attributes: map[string]schema.Attribute{
			"id":                        tfkit.IDAttr("The role name (kept equal to `name`)."),
			"oid":                       tfkit.OIDAttr("The role's OID. It never changes for the life of the role, renames included."),
			"name":                      nameAttribute("The role name: 1 to 63 bytes, any characters (it is always quoted). Changing it renames the role in place."),
			"superuser":                 tfkit.DefaultedBoolAttr(false, "Whether the role is a superuser (`SUPERUSER`), bypassing every permission check. Only a superuser can set it."),
			"create_database":           tfkit.DefaultedBoolAttr(false, "Whether the role may create databases (`CREATEDB`)."),
			"create_role":               tfkit.DefaultedBoolAttr(false, "Whether the role may create, alter and drop other roles (`CREATEROLE`)."),
			"inherit":                   tfkit.DefaultedBoolAttr(true, "Whether the role uses the privileges of the roles it is a member of without `SET ROLE` (`INHERIT`)."),
			"login":                     tfkit.DefaultedBoolAttr(false, "Whether the role may log in (`LOGIN`), i.e. is a user rather than a group."),
			"replication":               tfkit.DefaultedBoolAttr(false, "Whether the role may start streaming replication and use backup functions (`REPLICATION`). Only a superuser can set it."),
			"bypass_row_level_security": tfkit.DefaultedBoolAttr(false, "Whether the role bypasses every row-level security policy (`BYPASSRLS`). Only a superuser can set it."),
			"connection_limit": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(-1),
				MarkdownDescription: "How many concurrent connections the role may open; `-1` (the default) means no limit. Superusers are not limited.",
				Validators:          []validator.Int64{int64validator.AtLeast(-1)},
			},
			"encrypted_password": tfkit.DefaultedBoolAttr(true, "Kept for compatibility. PostgreSQL 10 and later always store passwords hashed; this provider always sends a SCRAM-SHA-256 verifier, so `false` has no effect."),
			"encrypted": schema.StringAttribute{
				Optional:            true,
				DeprecationMessage:  "encrypted has no effect: passwords are always stored hashed. Remove it from the configuration.",
				MarkdownDescription: "Deprecated, no effect.",
			},
			"password": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "The role's password. It is stored in the Terraform state (prefer `password_wo`). The provider sends only a SCRAM-SHA-256 verifier to the server; " +
					"a password that already is a verifier (`SCRAM-SHA-256$...`, or `md5` and 32 hex digits) is stored as given. " +
					"It is set when the role is created and whenever the configured value changes; a password changed outside Terraform " +
					"(a rotation job) is left as it is and reported, or set back: see `password_drift`. " +
					"Removing it from the configuration removes the password (`PASSWORD NULL`); `\"\"` means no password, as unset.",
				Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("password_wo"))},
			},
			"password_drift": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(passwordDriftReport),
				MarkdownDescription: "What a password changed outside Terraform (one that no longer matches `password`, e.g. rotated by a job) leads to. " +
					"`report` (the default): the plan warns, naming the role, and changes nothing, as cyrilgdn/postgresql did: the configured password " +
					"is set when the role is created and whenever the configured value changes. `repair`: the plan sets the configured password back, " +
					"with a warning. `ignore`: the password is not compared. Comparing reads the role's password verifier, which only a superuser can: " +
					"connected as another role (the admin of a managed service), a change is neither reported nor repaired. Has no effect on `password_wo`.",
				Validators: []validator.String{stringvalidator.OneOf(passwordDriftReport, passwordDriftRepair, passwordDriftIgnore)},
			},
			"password_wo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				MarkdownDescription: "The role's password, write-only: never stored in the plan or the state (Terraform 1.11 or later). " +
					"It is set when the role is created and whenever `password_wo_version` changes. " + emptyUnsetNote,
				Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("password"))},
			},
			"password_wo_version": tfkit.OptionalStringAttr("Any value; change it to make the provider set `password_wo` again."),
			"roles": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				MarkdownDescription: "Roles this role is a member of. When set, the provider makes the memberships exactly this set (an empty set means none). " +
					"When left unset, memberships are not managed by this resource (it reports what it finds), so `postgresql_grant_role` can manage them without either resource showing a diff. " +
					"Removing `roles` from the configuration therefore revokes nothing (cyrilgdn/postgresql revoked the memberships): the plan warns, naming the memberships that stay; " +
					"to revoke them, set `roles = []`.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(validators.Name())},
			},
			"search_path": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true, Computed: true,
				Default: listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{})),
				MarkdownDescription: "The role's `search_path` (`ALTER ROLE ... SET search_path`), one schema per element, written verbatim (`\"$user\"` as `$user`). " +
					"Unset or empty resets it to the server default; the two spellings are the same and switching between them is no change (the state records `[]`).",
				Validators: []validator.List{listvalidator.ValueStringsAre(validators.Name())},
			},
			"valid_until": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("infinity"),
				MarkdownDescription: "Date and time after which the role's password stops being valid (`VALID UNTIL`), e.g. `2030-01-01 00:00:00+00`; `infinity` (the default) means never. " +
					"Compared as an instant, so the server's rendering of the same time never shows as a change.",
			}),
			"skip_drop_role":      tfkit.DefaultedBoolAttr(false, "When true, destroying the resource only removes it from the state: the role is not dropped (for roles shared by several configurations or clusters)."),
			"skip_reassign_owned": tfkit.DefaultedBoolAttr(false, "When true, destroying the role skips `REASSIGN OWNED` and `DROP OWNED`; the drop then fails if the role still owns objects or holds privileges."),
			"statement_timeout": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(0),
				MarkdownDescription: "The role's `statement_timeout` in milliseconds; `0` (the default) resets it to the server default.",
				Validators:          []validator.Int64{int64validator.AtLeast(0)},
			},
			"idle_in_transaction_session_timeout": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(0),
				MarkdownDescription: "The role's `idle_in_transaction_session_timeout` in milliseconds; `0` (the default) resets it to the server default.",
				Validators:          []validator.Int64{int64validator.AtLeast(0)},
			},
			"assume_role": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(""),
				MarkdownDescription: "A role to switch to at login (`ALTER ROLE ... SET role`); empty (the default) means none.",
			},
		},
	}
}

func (r *roleResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m roleModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.EncryptedPassword.IsNull() && !m.EncryptedPassword.IsUnknown() && !m.EncryptedPassword.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("encrypted_password"), "encrypted_password = false has no effect",
			"PostgreSQL 10 and later cannot store unencrypted passwords; the password is stored as a SCRAM-SHA-256 verifier.")
	}
	if !m.AssumeRole.IsNull() && !m.AssumeRole.IsUnknown() && m.AssumeRole.ValueString() != "" {
		if err := pgconn.ValidateName(m.AssumeRole.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("assume_role"), "Invalid PostgreSQL name", "assume_role "+err.Error()+".")
		}
	}
}

// ImportIDAttributes: the import ID is its name (see alreadyExists).
func (r *roleResource) ImportIDAttributes() []string { return []string{"name"} }

// ImportByID takes the role name.
func (r *roleResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByName(ctx, req, resp, "role")
}

func (r *roleResource) PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[roleModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	plan.ID = plan.Name // id follows name, known whenever name is
	r.checkReservedAttributes(ctx, p, resp)
	if p.Creating() {
		notePlanned(r.client, pg.KindRole, "", plan.Name, nil)
		r.warnRepairUnseen(ctx, resp, plan, nil)
		return
	}
	notePlanned(r.client, pg.KindRole, "", plan.Name, &state.Name)
	if config.Roles.IsNull() {
		plan.Roles = state.Roles // not managed: keep what was read
		warnRolesUnmanaged(ctx, req, resp, plan, state)
	}
	planPassword(ctx, req, resp, plan, config, state)
	r.warnRepairUnseen(ctx, resp, plan, state)
	// Semantic equality for valid_until: the same instant written differently is no change.
	if r.client != nil && r.client.Ready() == nil && !plan.ValidUntil.IsUnknown() && !plan.ValidUntil.Equal(state.ValidUntil) {
		if eq, err := r.client.TimestampsEqual(ctx, plan.ValidUntil.ValueString(), state.ValidUntil.ValueString()); err == nil && eq {
			plan.ValidUntil = state.ValidUntil
		}
	}
	if !plan.Name.IsUnknown() && plan.Name.ValueString() != state.Name.ValueString() && r.isConnectedRole(ctx, state.Name.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Cannot rename the provider's own role",
			fmt.Sprintf("The provider is connected as role %q; PostgreSQL does not allow renaming the current session's role. Apply this change with another admin role.", state.Name.ValueString()))
	}
}

// Private-state keys of postgresql_role.
const (
	// privateRolesConfigured holds the roles the configuration last applied
	// set (a JSON array; for a state upgraded from cyrilgdn, the state's), and
	// is absent when it did not set roles.
	privateRolesConfigured = "roles_configured"
	// privatePasswordChanged is "true" when a refresh found that the role's
	// password no longer matches the one in the state: it was changed outside
	// Terraform (with password_drift = "repair", the state's password was
	// then set to null, so that the plan sets it back).
	privatePasswordChanged = "password_changed"
)

// The values of password_drift.
const (
	passwordDriftReport = "report" // warn at plan, change nothing (the default; cyrilgdn's behaviour)
	passwordDriftRepair = "repair" // plan the configured password back
	passwordDriftIgnore = "ignore" // do not compare
)

// passwordDrift is m's password_drift; unset (a state written before the
// attribute existed, an import) or unknown is the default, report.
func passwordDrift(m *roleModel) string {
	if m.PasswordDrift.IsNull() || m.PasswordDrift.IsUnknown() {
		return passwordDriftReport
	}
	return m.PasswordDrift.ValueString()
}

// warnRolesUnmanaged warns, when a configuration that set roles no longer
// does, that the memberships it set stay (this provider does not revoke them,
// so that postgresql_role and postgresql_grant_role do not fight; cyrilgdn
// revoked them), naming them and how to revoke them. The plan then shows
// roles as known after apply: the apply changes no membership and records
// that roles is no longer managed here, so that the warning is given once.
func warnRolesUnmanaged(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan, state *roleModel) {
	if req.Private == nil || state.Roles.IsNull() || state.Roles.IsUnknown() {
		return
	}
	b, _ := req.Private.GetKey(ctx, privateRolesConfigured)
	var configured, member []string
	if len(b) == 0 || json.Unmarshal(b, &configured) != nil {
		return
	}
	resp.Diagnostics.Append(state.Roles.ElementsAs(ctx, &member, false)...)
	var kept []string
	for _, r := range member {
		if slices.Contains(configured, r) {
			kept = append(kept, strconv.Quote(r))
		}
	}
	if len(kept) == 0 {
		return
	}
	sort.Strings(kept)
	resp.Diagnostics.AddAttributeWarning(path.Root("roles"), "Memberships stay: roles is not set",
		fmt.Sprintf("roles is not set in the configuration of role %q, while the configuration last applied (or the state "+
			"cyrilgdn/postgresql wrote) listed its memberships. This provider does not revoke memberships when roles is removed "+
			"(cyrilgdn/postgresql did): role %q stays a member of %s. To revoke them, set roles = [] (or list the memberships to "+
			"keep); if postgresql_grant_role or something else manages them, nothing needs doing. This apply changes no "+
			"membership: it records that roles is not managed here (roles shows as known after apply), and this warning is not "+
			"shown again.", state.Name.ValueString(), state.Name.ValueString(), strings.Join(kept, ", ")))
	plan.Roles = types.SetUnknown(types.StringType)
}

// planPassword plans the password: the configured one is set when the
// configured value changes. A verifier the state holds (written by cyrilgdn
// before 1.26: read at import, or at a refresh as superuser) is compared with
// the configured password, so that the same password plans nothing. It warns
// what the apply does to the password, or, by default (password_drift =
// "report"), that a password changed outside Terraform stays as it is.
func planPassword(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan, config, state *roleModel) {
	if config.Password.IsUnknown() || !config.PasswordWO.IsNull() {
		return
	}
	name := plan.Name.ValueString()
	if plan.Name.IsUnknown() {
		name = state.Name.ValueString()
	}
	outside := changedOutside(ctx, req)
	drift := passwordDrift(plan)
	if plan.Password.Equal(state.Password) {
		switch {
		case outside && drift == passwordDriftReport:
			warnPasswordKept(resp, name)
		case outside && drift == passwordDriftRepair && passwordDrift(state) != passwordDriftRepair && plan.Password.ValueString() != "":
			// found changed under "report", which kept the state's password:
			// the update that records "repair" sets it back (UpdateObject)
			warnPasswordChanged(resp, name)
		}
		return
	}
	recorded := state.Password.ValueString()
	verifier := !state.Password.IsNull() && pg.IsPasswordVerifier(recorded)
	switch {
	case verifier && !config.Password.IsNull():
		// md5 verifiers are salted with the role name: PostgreSQL clears them on rename
		renamed := name != state.Name.ValueString()
		if (!renamed || !strings.HasPrefix(recorded, "md5")) && pg.PasswordVerifierMatches(recorded, config.Password.ValueString(), state.Name.ValueString()) {
			plan.Password = state.Password // the same password: no change
			if outside && drift == passwordDriftReport {
				warnPasswordKept(resp, name)
			}
			return
		}
		if outside && passwordDrift(state) == passwordDriftRepair {
			// the refresh (repair) recorded the role's current verifier
			warnPasswordChanged(resp, name)
			return
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("password"), "Password differs from the role's",
			fmt.Sprintf("The state of role %q records the role's password as its verifier (as cyrilgdn/postgresql read it from "+
				"the server, at import or at a refresh as superuser), and the configured password does not match it: this apply "+
				"sets the role's password to the configured one.", name))
	case verifier && config.Password.IsNull():
		resp.Diagnostics.AddAttributeWarning(path.Root("password"), "Password not in the configuration",
			fmt.Sprintf("The state of role %q records a password (its verifier, as cyrilgdn/postgresql read it from the server), "+
				"and the configuration sets none: this apply removes the role's password (PASSWORD NULL). If something else manages "+
				"this password, add lifecycle { ignore_changes = [password] } to the resource.", name))
	case state.Password.IsNull() && !config.Password.IsNull() && config.Password.ValueString() != "" && outside:
		// a refresh under "repair" found it changed and forgot it
		warnPasswordChanged(resp, name)
	}
}

// changedOutside tells whether the refresh found the role's password changed
// outside Terraform (privatePasswordChanged).
func changedOutside(ctx context.Context, req resource.ModifyPlanRequest) bool {
	if req.Private == nil {
		return false
	}
	b, _ := req.Private.GetKey(ctx, privatePasswordChanged)
	return string(b) == "true"
}

// warnPasswordChanged says that the plan sets back a password changed outside
// Terraform (password_drift = "repair"), and what to do when something else
// owns it.
func warnPasswordChanged(resp *resource.ModifyPlanResponse, name string) {
	resp.Diagnostics.AddAttributeWarning(path.Root("password"), "Password changed outside Terraform",
		fmt.Sprintf("The password of role %q was changed outside Terraform: it no longer matches the configured password. "+
			"This apply sets it back to the configured password (password_drift = \"repair\"). If something else owns this "+
			"password (a rotation job, a secrets manager), set password_drift = \"report\" (the default), which leaves it as it is, "+
			"or set the password with password_wo, which Terraform sets again only when password_wo_version changes.", name))
}

// warnPasswordKept says that a password changed outside Terraform stays as it
// is (password_drift = "report", the default), and how to have it set back.
func warnPasswordKept(resp *resource.ModifyPlanResponse, name string) {
	resp.Diagnostics.AddAttributeWarning(path.Root("password"), "Password changed outside Terraform",
		fmt.Sprintf("The password of role %q was changed outside Terraform: it no longer matches the configured password. "+
			"It is left as it is: Terraform sets the password when the role is created and whenever the configured value changes. "+
			"To have Terraform set it back, set password_drift = \"repair\"; to stop comparing it (and this warning), "+
			"password_drift = \"ignore\".", name))
}

// warnRepairUnseen warns, when a plan asks for password_drift = "repair"
// (creating the role, or changing to it) and the provider cannot read
// password verifiers (it is not connected as a superuser), that nothing will
// be repaired.
func (r *roleResource) warnRepairUnseen(ctx context.Context, resp *resource.ModifyPlanResponse, plan, state *roleModel) {
	if plan.PasswordDrift.ValueString() != passwordDriftRepair || (state != nil && passwordDrift(state) == passwordDriftRepair) ||
		r.client == nil || r.client.Ready() != nil {
		return
	}
	caps, err := r.client.Capabilities(ctx)
	if err != nil || caps.IsSuperuser {
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("password_drift"), "Password changes cannot be seen",
		fmt.Sprintf("password_drift = \"repair\" sets back a password changed outside Terraform, which the provider finds by reading the "+
			"role's password verifier: only a superuser can. The provider connects as %q, which is not one (as on a managed service), "+
			"so a password changed outside Terraform is neither reported nor repaired.", caps.CurrentUser))
}

// checkReservedAttributes refuses at plan time to give or take SUPERUSER,
// REPLICATION or BYPASSRLS when the provider's role may not (PostgreSQL would
// refuse at apply with "permission denied" / "must be superuser"): SUPERUSER
// takes a superuser; REPLICATION and BYPASSRLS too before PostgreSQL 16, and
// from 16 a role that has the attribute itself. It asks the server (the
// connected role's attributes, once per provider) only when such a change is
// planned and the provider configuration is known.
func (r *roleResource) checkReservedAttributes(ctx context.Context, p *tfkit.Planned[roleModel], resp *resource.ModifyPlanResponse) {
	type reserved struct {
		attr, option string
		plan         types.Bool
		state        types.Bool
		own          func(*pgconn.Capabilities) bool // from PostgreSQL 16, a role with the attribute may give it
	}
	state := roleAttributes{}
	if !p.Creating() {
		state = p.State.roleAttributes
	}
	var changing []reserved
	for _, a := range []reserved{
		{"superuser", "SUPERUSER", p.Plan.Superuser, state.Superuser, nil},
		{"replication", "REPLICATION", p.Plan.Replication, state.Replication, func(c *pgconn.Capabilities) bool { return c.HasReplication }},
		{"bypass_row_level_security", "BYPASSRLS", p.Plan.BypassRLS, state.BypassRLS, func(c *pgconn.Capabilities) bool { return c.HasBypassRLS }},
	} {
		if a.plan.IsUnknown() || a.plan.ValueBool() == a.state.ValueBool() {
			continue // creating without it (false) or not changing it
		}
		changing = append(changing, a)
	}
	if len(changing) == 0 || r.client == nil || r.client.Ready() != nil {
		return
	}
	caps, err := r.client.Capabilities(ctx)
	if err != nil || caps.IsSuperuser {
		return // not known (a version error is reported by the skeleton), or allowed
	}
	for _, a := range changing {
		if a.own != nil && caps.AtLeast(16) && a.own(caps) {
			continue
		}
		need, lacks := "a superuser", "is not one"
		if a.own != nil && caps.AtLeast(16) {
			need, lacks = "a superuser or a role with "+a.option+" itself", "has neither"
		}
		verb := "Giving"
		if !a.plan.ValueBool() {
			verb = "Taking"
		}
		from := "role " + strconv.Quote(p.Plan.Name.ValueString())
		if p.Plan.Name.IsUnknown() {
			from = "the role"
		}
		resp.Diagnostics.AddAttributeError(path.Root(a.attr), a.option+" needs a superuser",
			fmt.Sprintf("%s %s %s (%s = %t) takes %s; the provider connects as %q, which %s, so PostgreSQL would refuse it at apply. "+
				"Apply this change as a role that may make it, or leave %s as it is.",
				verb, a.option, verbObject(verb, from), a.attr, a.plan.ValueBool(), need, caps.CurrentUser, lacks, a.attr))
	}
}

// verbObject is "to <role>" after Giving, "from <role>" after Taking.
func verbObject(verb, role string) string {
	if verb == "Taking" {
		return "from " + role
	}
	return "to " + role
}

func (r *roleResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *roleModel) {
	if r.client == nil || r.client.Ready() != nil || state.SkipDropRole.ValueBool() {
		return
	}
	name := state.Name.ValueString()
	if r.isConnectedRole(ctx, name) {
		resp.Diagnostics.AddError("Cannot drop the provider's own role",
			fmt.Sprintf("The provider is connected as role %q, which this plan would drop. Remove the resource from the state (terraform state rm) or set skip_drop_role = true, or apply with another admin role.", name))
		return
	}
	if state.OID.IsNull() || state.OID.IsUnknown() {
		return
	}
	owned, err := r.client.OwnedObjects(ctx, uint32(state.OID.ValueInt64()))
	if err != nil || len(owned) == 0 {
		return
	}
	total := 0
	var where []string
	for db, n := range owned {
		total += n
		if db == "" {
			db = "cluster-wide objects such as databases"
		}
		where = append(where, fmt.Sprintf("%s: %d", db, n))
	}
	sort.Strings(where)
	what := "They will be reassigned to the provider's role (REASSIGN OWNED) and the role's privileges dropped (DROP OWNED)."
	if state.SkipReassignOwned.ValueBool() {
		// Certain to fail when some of them stay whatever else this destroy
		// drops: refuse the plan, so that nothing of it runs before the failure.
		if n, names, err := r.client.OwnedLasting(ctx, uint32(state.OID.ValueInt64())); err == nil && n > 0 {
			resp.Diagnostics.AddError("Role owns objects",
				fmt.Sprintf("Cannot destroy role %q: it owns %d object(s) in database %q that nothing in this plan drops (%s%s) and skip_reassign_owned is true, so DROP ROLE would fail "+
					"after the rest of the plan had been applied. Nothing was changed. Set skip_reassign_owned = false and apply that first to have them reassigned "+
					"to the provider's role (REASSIGN OWNED), or drop them or give them to another role yourself.",
					name, n, r.client.DefaultDatabase(), strings.Join(names, ", "), more(n, len(names))))
			return
		}
		what = "skip_reassign_owned is true, so the drop will fail unless they are removed first (by resources of this plan, or yourself)."
	}
	resp.Diagnostics.AddWarning("Role owns objects",
		fmt.Sprintf("Role %q owns %d object(s) (%s). %s", name, total, strings.Join(where, ", "), what))
}

func (r *roleResource) isConnectedRole(ctx context.Context, name string) bool {
	if r.client == nil || r.client.Ready() != nil {
		return false
	}
	cfg := r.client.Config()
	if name == cfg.Username || (cfg.DatabaseUsername != "" && name == cfg.DatabaseUsername) {
		return true
	}
	caps, err := r.client.Capabilities(ctx)
	return err == nil && caps.CurrentUser == name
}

func (r *roleResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0Keys(upgradeRoleV0, "oid", "password_drift"),
	}
}

func (r *roleResource) Describe(m *roleModel) string {
	return fmt.Sprintf("role %q", m.Name.ValueString())
}

// namesUsed: the roles it is made a member of (awaitNames).
func (r *roleResource) namesUsed(m *roleModel) []pg.Ref {
	var n refs
	n.roles("roles", m.Roles)
	return n
}

// namesUsedUpdating: the roles an update makes it a member of, those of the
// plan that the state (read from the server) does not list. A membership the
// state lists exists, and PostgreSQL follows its roles by OID; with `roles`
// left out of the configuration the plan is the state, and the update grants
// nothing. Waiting for those names failed an update (a rename) whose role
// was a member, through a postgresql_grant_role, of a role dropped in the
// same apply: "role ... does not exist; waited 2s for this apply to create
// it" (the long walk, seed 20509 step 34 on PostgreSQL 18, both modes).
func (r *roleResource) namesUsedUpdating(plan, state *roleModel) []pg.Ref {
	used := r.namesUsed(plan)
	if state.Roles.IsNull() || state.Roles.IsUnknown() {
		return used
	}
	had := map[string]bool{}
	for _, e := range state.Roles.Elements() {
		if v, ok := e.(types.String); ok && isKnown(v) {
			had[v.ValueString()] = true
		}
	}
	return slices.DeleteFunc(used, func(ref pg.Ref) bool { return had[ref.Name] })
}

// namesMade: the role, when created or renamed (awaitNames).
func (r *roleResource) namesMade(plan, state *roleModel) []pg.Ref {
	if !renamedOrNew(plan.Name, stateName(state, func(m *roleModel) *types.String { return &m.Name })) {
		return nil
	}
	return []pg.Ref{pg.RoleRef("name", plan.Name.ValueString())}
}

func (r *roleResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *roleModel) diag.Diagnostics {
	var wo types.String
	diags := c.Config.GetAttribute(ctx, path.Root("password_wo"), &wo)
	spec, d := plan.spec(ctx, nil)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	pw := pg.PasswordChange{}
	switch {
	case !wo.IsNull() && wo.ValueString() != "": // "" is unset, as cyrilgdn/postgresql read it
		pw = pg.PasswordChange{Set: true, Password: wo.ValueString()}
	case !plan.Password.IsNull():
		pw = pg.PasswordChange{Set: true, Password: plan.Password.ValueString()}
	}
	diags.Append(recordPlannedPrivate(ctx, c)...)
	if diags.HasError() {
		return diags
	}
	return tfkit.Failed("Could not create role", r.client.CreateRole(ctx, spec, pw))
}

// recordPlannedPrivate records in the private state, with every write, the
// roles the configuration sets (none when it does not set roles), and that
// the password is the configured one again.
func recordPlannedPrivate(ctx context.Context, c *tfkit.Call) diag.Diagnostics {
	var roles types.Set
	diags := c.Config.GetAttribute(ctx, path.Root("roles"), &roles)
	if diags.HasError() {
		return diags
	}
	if roles.IsNull() || roles.IsUnknown() {
		diags.Append(c.SetPrivateKey(ctx, privateRolesConfigured, nil)...)
	} else {
		names := []string{}
		diags.Append(roles.ElementsAs(ctx, &names, false)...)
		diags.Append(c.SetPrivateJSON(ctx, privateRolesConfigured, names, "the configured roles")...)
	}
	diags.Append(c.SetPrivateKey(ctx, privatePasswordChanged, nil)...)
	return diags
}

func (r *roleResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *roleModel) diag.Diagnostics {
	var config roleModel
	diags := c.Config.Get(ctx, &config)
	if diags.HasError() {
		return diags
	}
	spec, d := plan.spec(ctx, &config)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	pw := pg.PasswordChange{}
	switch {
	case !config.PasswordWO.IsNull() && config.PasswordWO.ValueString() != "" && !plan.PasswordWOVersion.Equal(state.PasswordWOVersion):
		// ("" is unset, as cyrilgdn/postgresql read it: nothing to set)
		pw = pg.PasswordChange{Set: true, Password: config.PasswordWO.ValueString()}
	case !plan.Password.Equal(state.Password) && config.PasswordWO.IsNull() && (plan.Password.ValueString() != "" || state.Password.ValueString() != ""):
		// (null and "" both mean no password set by Terraform: going from one
		// to the other, as a configuration spelling `password = ""` does over a
		// state upgraded from cyrilgdn, sets nothing)
		pw = pg.PasswordChange{Set: true, Password: plan.Password.ValueString()}
	case passwordDrift(plan) == passwordDriftRepair && passwordDrift(state) != passwordDriftRepair && config.PasswordWO.IsNull() &&
		plan.Password.ValueString() != "" && string(c.PrivateKey(ctx, privatePasswordChanged)) == "true":
		// password_drift changes to "repair" while the password, found changed
		// under "report", stays as it was changed: set it back now
		pw = pg.PasswordChange{Set: true, Password: plan.Password.ValueString()}
	}
	diags.Append(recordPlannedPrivate(ctx, c)...)
	if diags.HasError() {
		return diags
	}
	return tfkit.Failed("Could not update role", r.client.UpdateRole(ctx, state.Name.ValueString(), spec, pw))
}

func (r *roleResource) DropObject(ctx context.Context, _ *tfkit.Call, state *roleModel) diag.Diagnostics {
	if state.SkipDropRole.ValueBool() {
		return nil
	}
	return tfkit.Failed("Could not drop role", r.client.DropRole(ctx, state.Name.ValueString(), state.SkipReassignOwned.ValueBool()))
}

// keepPlannedRoles tells the read-back after an update to report the planned
// memberships when the configuration leaves them unmanaged: the next refresh
// picks up changes made by postgresql_grant_role in this same apply.
func keepPlannedRoles(ctx context.Context, c *tfkit.Call, m *roleModel) (bool, diag.Diagnostics) {
	if c.Op != tfkit.OpUpdate || m.Roles.IsUnknown() {
		return false, nil
	}
	var cfg types.Set
	diags := c.Config.GetAttribute(ctx, path.Root("roles"), &cfg)
	return cfg.IsNull() && !diags.HasError(), diags
}

// ReadObject refreshes m from the server, keeping m's spelling where the server's
// value means the same. It reports whether the role exists.
func (r *roleResource) ReadObject(ctx context.Context, c *tfkit.Call, m *roleModel) (bool, diag.Diagnostics) {
	keepRoles, diags := keepPlannedRoles(ctx, c, m)
	if diags.HasError() {
		return false, diags
	}
	diags.Append(markCyrilgdnRolesConfigured(ctx, c, m)...)
	var role *pg.Role
	var err error
	if !m.OID.IsNull() && !m.OID.IsUnknown() {
		role, err = r.client.ReadRoleByOID(ctx, uint32(m.OID.ValueInt64()))
	}
	if err == nil && role == nil {
		role, err = r.client.ReadRole(ctx, m.Name.ValueString())
	}
	if err != nil || role == nil {
		return notFound("Could not read role", err)
	}
	m.ID = types.StringValue(role.Name)
	m.OID = types.Int64Value(int64(role.OID))
	m.Name = types.StringValue(role.Name)
	m.read(role)
	if m.ValidUntil.IsNull() || m.ValidUntil.IsUnknown() || m.ValidUntil.ValueString() == "" {
		m.ValidUntil = types.StringValue(role.ValidUntil) // "" is unset: no expiry
	} else if m.ValidUntil.ValueString() != role.ValidUntil {
		eq, err := r.client.TimestampsEqual(ctx, m.ValidUntil.ValueString(), role.ValidUntil)
		if err != nil {
			diags.AddError("Could not compare valid_until", err.Error())
			return false, diags
		}
		if !eq {
			m.ValidUntil = types.StringValue(role.ValidUntil)
		}
	}
	if !keepRoles {
		memberOf, d := types.SetValueFrom(ctx, types.StringType, role.MemberOf)
		diags.Append(d...)
		m.Roles = memberOf
	}
	diags.Append(m.readSettings(ctx, role.Settings)...)
	m.configOnlyDefaults()

	// Out-of-band password change, detectable only as superuser (pg_authid).
	if !m.Password.IsNull() && m.Password.ValueString() != "" && passwordDrift(m) != passwordDriftIgnore {
		if su, err := r.client.Superuser(ctx); err == nil && su {
			if v, err := r.client.RolePasswordVerifier(ctx, role.Name); err == nil {
				diags.Append(checkPassword(ctx, c, m, v, role.Name)...)
			}
		}
	} else if c.Op == tfkit.OpRead {
		diags.Append(c.SetPrivateKey(ctx, privatePasswordChanged, nil)...)
	}
	return true, diags
}

// markCyrilgdnRolesConfigured records, for a state upgraded from cyrilgdn (no
// oid yet) that lists memberships, that its configuration set them: cyrilgdn
// plans to revoke the memberships roles does not list, unless roles is in
// ignore_changes, which a plan sees as set.
func markCyrilgdnRolesConfigured(ctx context.Context, c *tfkit.Call, m *roleModel) diag.Diagnostics {
	if c.Op != tfkit.OpRead || !m.OID.IsNull() || m.Roles.IsNull() || m.Roles.IsUnknown() || len(m.Roles.Elements()) == 0 ||
		c.PrivateKey(ctx, privateRolesConfigured) != nil {
		return nil
	}
	var names []string
	diags := m.Roles.ElementsAs(ctx, &names, false)
	diags.Append(c.SetPrivateJSON(ctx, privateRolesConfigured, names, "the configured roles")...)
	return diags
}

// readSettings records the role's settings that are attributes: search_path,
// the two timeouts (in milliseconds, 0 when unset) and assume_role.
func (m *roleModel) readSettings(ctx context.Context, settings map[string]string) diag.Diagnostics {
	var diags diag.Diagnostics
	if sp, ok := settings["search_path"]; ok {
		l, d := types.ListValueFrom(ctx, types.StringType, pg.ParseSearchPath(sp))
		diags.Append(d...)
		m.SearchPath = l
	} else {
		// Unset and [] mean the same; the state always records [] (the schema default).
		m.SearchPath = types.ListValueMust(types.StringType, []attr.Value{})
	}
	for _, s := range []struct {
		key string
		dst *types.Int64
	}{{"statement_timeout", &m.StatementTimeout}, {"idle_in_transaction_session_timeout", &m.IdleInTransactionSessionTimeout}} {
		ms := int64(0)
		if v, ok := settings[s.key]; ok {
			var err error
			if ms, err = pg.ParseMilliseconds(v); err != nil {
				diags.AddError("Could not read role setting", fmt.Sprintf("%s = %q: %v", s.key, v, err))
			}
		}
		*s.dst = types.Int64Value(ms)
	}
	m.AssumeRole = types.StringValue(settings["role"])
	return diags
}

// configOnlyDefaults sets the attributes that exist only in the configuration
// to their defaults when unset (after an import).
func (m *roleModel) configOnlyDefaults() {
	if m.SkipDropRole.IsNull() {
		m.SkipDropRole = types.BoolValue(false)
	}
	if m.SkipReassignOwned.IsNull() {
		m.SkipReassignOwned = types.BoolValue(false)
	}
	if m.EncryptedPassword.IsNull() {
		m.EncryptedPassword = types.BoolValue(true)
	}
	m.PasswordWO = types.StringNull()
	if m.PasswordDrift.IsNull() {
		m.PasswordDrift = types.StringValue(passwordDriftReport)
	}
}

// Private-state keys of the password check: the seal (pg.PasswordSeal) of
// the stored verifier and the password it was last found to match, or not to
// match (a password changed outside Terraform that password_drift = "report"
// leaves as it is, found again at every refresh).
const (
	privatePasswordSeal     = "password_seal"
	privatePasswordMismatch = "password_mismatch"
)

// checkPassword compares the stored verifier v of role name with the password
// in m and, when they differ, remembers it (privatePasswordChanged, for the
// plan's warning). With password_drift = "repair" it also nulls the password
// in m, so that the plan sets the configured one again; by default ("report")
// m keeps it: the state remembers the password last configured, and the plan
// sets a password only when the configuration changes it. Checking costs a
// key derivation of 4096 iterations (SCRAM); its outcome is remembered in
// private state as a seal, so the next refresh of an unchanged verifier and
// password costs one hash.
func checkPassword(ctx context.Context, c *tfkit.Call, m *roleModel, v, name string) diag.Diagnostics {
	pw := m.Password.ValueString()
	repair := passwordDrift(m) == passwordDriftRepair
	if pg.IsPasswordVerifier(pw) {
		// A verifier: configured as the password, or read from the server by
		// cyrilgdn before 1.26 (the plan compares the configured password
		// with it: planPassword). Under "repair" the state records the role's
		// current one, as cyrilgdn's refresh did; under "report" it keeps the
		// recorded one, so that the configured password still matches it.
		switch {
		case v == pw:
			return c.SetPrivateKey(ctx, privatePasswordChanged, nil)
		case !repair:
			return passwordChanged(ctx, c, m, false)
		case v == "":
			return passwordChanged(ctx, c, m, true)
		}
		m.Password = types.StringValue(v)
		if c.Op != tfkit.OpRead {
			return nil
		}
		return c.SetPrivateKey(ctx, privatePasswordChanged, []byte("true"))
	}
	seal := `"` + pg.PasswordSeal(v, pw) + `"` // private state holds JSON
	switch seal {
	case string(c.PrivateKey(ctx, privatePasswordSeal)):
		return nil
	case string(c.PrivateKey(ctx, privatePasswordMismatch)):
		return passwordChanged(ctx, c, m, repair)
	}
	if !pg.PasswordVerifierMatches(v, pw, name) {
		diags := c.SetPrivateKey(ctx, privatePasswordMismatch, []byte(seal))
		return append(diags, passwordChanged(ctx, c, m, repair)...)
	}
	diags := c.SetPrivateKey(ctx, privatePasswordSeal, []byte(seal))
	diags.Append(c.SetPrivateKey(ctx, privatePasswordMismatch, nil)...)
	diags.Append(c.SetPrivateKey(ctx, privatePasswordChanged, nil)...)
	return diags
}

// passwordChanged records a password found changed outside Terraform, for the
// plan's warning; forget (password_drift = "repair") nulls the state's
// password, so that the plan sets the configured one again. A read back after
// a write that set the password does not get here: what it wrote matches.
func passwordChanged(ctx context.Context, c *tfkit.Call, m *roleModel, forget bool) diag.Diagnostics {
	if forget {
		m.Password = types.StringNull()
		if c.Op != tfkit.OpRead {
			return nil
		}
	}
	return c.SetPrivateKey(ctx, privatePasswordChanged, []byte("true"))
}

// spec translates the planned model into what the role must look like.
// config, on update, tells which optional settings are managed.
func (m *roleModel) spec(ctx context.Context, config *roleModel) (pg.RoleSpec, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := pg.RoleSpec{
		Name:        m.Name.ValueString(),
		RoleOptions: m.options(),
		ValidUntil:  m.ValidUntil.ValueString(),
		Settings:    map[string]*string{},
	}
	managedRoles := config == nil || !config.Roles.IsNull()
	if managedRoles && !m.Roles.IsNull() && !m.Roles.IsUnknown() {
		s.MemberOf = []string{}
		diags.Append(m.Roles.ElementsAs(ctx, &s.MemberOf, false)...)
	}
	var sp []string
	if !m.SearchPath.IsNull() {
		diags.Append(m.SearchPath.ElementsAs(ctx, &sp, false)...)
	}
	if len(sp) > 0 {
		v := pg.SearchPathValue(sp)
		s.Settings["search_path"] = &v
	} else {
		s.Settings["search_path"] = nil
	}
	for key, v := range map[string]types.Int64{
		"statement_timeout":                   m.StatementTimeout,
		"idle_in_transaction_session_timeout": m.IdleInTransactionSessionTimeout,
	} {
		if v.ValueInt64() > 0 {
			str := strconv.FormatInt(v.ValueInt64(), 10)
			s.Settings[key] = &str
		} else {
			s.Settings[key] = nil
		}
	}
	if ar := m.AssumeRole.ValueString(); ar != "" {
		q := pgconn.QuoteIdent(ar)
		s.Settings["role"] = &q
	} else {
		s.Settings["role"] = nil
	}
	return s, diags
}

// roleAttributes are the attributes of a role that the catalog reports as
// they are, the same in the postgresql_role resource and data source.
type roleAttributes struct {
	Superuser       types.Bool  `tfsdk:"superuser"`
	CreateDatabase  types.Bool  `tfsdk:"create_database"`
	CreateRole      types.Bool  `tfsdk:"create_role"`
	Inherit         types.Bool  `tfsdk:"inherit"`
	Login           types.Bool  `tfsdk:"login"`
	Replication     types.Bool  `tfsdk:"replication"`
	BypassRLS       types.Bool  `tfsdk:"bypass_row_level_security"`
	ConnectionLimit types.Int64 `tfsdk:"connection_limit"`
}

func (a *roleAttributes) read(r *pg.Role) {
	a.Superuser = types.BoolValue(r.Superuser)
	a.CreateDatabase = types.BoolValue(r.CreateDB)
	a.CreateRole = types.BoolValue(r.CreateRole)
	a.Inherit = types.BoolValue(r.Inherit)
	a.Login = types.BoolValue(r.Login)
	a.Replication = types.BoolValue(r.Replication)
	a.BypassRLS = types.BoolValue(r.BypassRLS)
	a.ConnectionLimit = types.Int64Value(r.ConnLimit)
}

// options are the role options a asks for.
func (a *roleAttributes) options() pg.RoleOptions {
	return pg.RoleOptions{
		Superuser:   a.Superuser.ValueBool(),
		CreateDB:    a.CreateDatabase.ValueBool(),
		CreateRole:  a.CreateRole.ValueBool(),
		Inherit:     a.Inherit.ValueBool(),
		Login:       a.Login.ValueBool(),
		Replication: a.Replication.ValueBool(),
		BypassRLS:   a.BypassRLS.ValueBool(),
		ConnLimit:   a.ConnectionLimit.ValueInt64(),
	}
}

type roleModel struct {
	ID   types.String `tfsdk:"id"`
	OID  types.Int64  `tfsdk:"oid"`
	Name types.String `tfsdk:"name"`
	roleAttributes
	EncryptedPassword               types.Bool   `tfsdk:"encrypted_password"`
	Encrypted                       types.String `tfsdk:"encrypted"`
	Password                        types.String `tfsdk:"password"`
	PasswordDrift                   types.String `tfsdk:"password_drift"`
	PasswordWO                      types.String `tfsdk:"password_wo"`
	PasswordWOVersion               types.String `tfsdk:"password_wo_version"`
	Roles                           types.Set    `tfsdk:"roles"`
	SearchPath                      types.List   `tfsdk:"search_path"`
	ValidUntil                      types.String `tfsdk:"valid_until"`
	SkipDropRole                    types.Bool   `tfsdk:"skip_drop_role"`
	SkipReassignOwned               types.Bool   `tfsdk:"skip_reassign_owned"`
	StatementTimeout                types.Int64  `tfsdk:"statement_timeout"`
	IdleInTransactionSessionTimeout types.Int64  `tfsdk:"idle_in_transaction_session_timeout"`
	AssumeRole                      types.String `tfsdk:"assume_role"`
}
