package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ validatedResource                           = (*defaultPrivilegesResource)(nil)
	_ tfkit.ChangePlanner[defaultPrivilegesModel] = (*defaultPrivilegesResource)(nil)
	_ tfkit.IDImporter                            = (*defaultPrivilegesResource)(nil)
)

// NewDefaultPrivilegesResource is the constructor of postgresql_default_privileges.
func NewDefaultPrivilegesResource() resource.Resource {
	r := &defaultPrivilegesResource{}
	// The object's identity (Terraform 1.12+) is `role`, `database`, `owner`, `schema`, `object_type`.
	r.Lifecycle = newLifecycle[defaultPrivilegesModel](r, "default_privileges", defaultPrivilegesSchemaV1, "role", "database", "owner", "schema", "object_type")
	return r
}

type defaultPrivilegesResource struct {
	tfkit.Lifecycle[defaultPrivilegesModel]
	withClient
}

func defaultPrivilegesSchemaV1() schema.Schema {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "The privileges a role (or `PUBLIC`) gets on objects that `owner` creates in the future (`ALTER DEFAULT PRIVILEGES`). " +
			"Authoritative for its (owner, schema, object type, grantee) entry of `pg_default_acl`: it grants the configured privileges and revokes the others. " +
			"Without `schema` the entry applies in every schema and replaces PostgreSQL's built-in defaults for that grantee (e.g. `PUBLIC` may `EXECUTE` new functions); " +
			"destroying the resource restores those built-in defaults, which removes the entry. With `schema` the entry adds to the global one, and destroying it revokes everything it granted.",
		Attributes: map[string]schema.Attribute{
			"id": tfkit.IDAttr("cyrilgdn/postgresql's id of the entry: `<role>_<database>_<schema>_<owner>_<object_type>`, with `noschema` for an entry without schema. " +
				"It is also an import ID, unless underscores in the names make it ambiguous (see Import)."),
			"role": nameAttribute("The grantee: a role name, or `public`. Changes in place: renaming the role keeps the entry (PostgreSQL records it by OID) and runs no statement; " +
				"naming another role resets the old one's default privileges and sets the new one's in one transaction."),
			"database": nameAttribute("The database the default privileges apply in. Changes in place: renaming the database keeps the entry; " +
				"naming another database sets the entry there, then resets it in the old one."),
			"owner": nameAttribute("The role whose future objects get these privileges (`FOR ROLE`). The provider's role must be a member of it, or be able to make itself one (managed services). " +
				"Changes in place: renaming the role keeps the entry; naming another role resets the old one's entry and sets the new one's in one transaction."),
			"schema": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Limit the entry to objects created in this schema (`IN SCHEMA`); unset (or `\"\"`, as cyrilgdn/postgresql read it) means every schema. " +
					"Not allowed for `object_type = \"schema\"` and `\"large_object\"`. Changes in place: renaming the schema keeps the entry; naming another schema (or none) resets the old entry " +
					"and sets the new one in one transaction (switching between unset and `\"\"` changes nothing).",
				Validators: []validator.String{validators.NameOrEmpty()},
			},
			"object_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The kind of future objects: `table`, `sequence`, `function`, `routine` (PostgreSQL treats functions and routines alike here), `type` (types and domains), " +
					"`schema` or `large_object` (PostgreSQL 18 and later). `schema` and `large_object` take no `schema`. Changing it replaces the resource (resets, then sets).",
				Validators:    []validator.String{stringvalidator.OneOf(pg.DefaultPrivilegesObjectTypes...)},
				PlanModifiers: replace,
			},
			"privileges": schema.SetAttribute{
				ElementType: types.StringType,
				Required:    true,
				MarkdownDescription: "The privileges new objects grant the grantee, case-insensitive and validated against the object type; `ALL` is kept as written. " +
					"An empty set revokes everything (e.g. `role = \"public\"`, `object_type = \"function\"`, `privileges = []` stops new functions being executable by everyone). Changes in place.",
			},
			"with_grant_option": tfkit.DefaultedBoolAttr(false, "Whether the grantee may grant these privileges to others. Not allowed with `public`. Changes in place."),
		},
	}
}

func (r *defaultPrivilegesResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m defaultPrivilegesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.ObjectType.IsUnknown() || m.ObjectType.IsNull() {
		return
	}
	ot := m.ObjectType.ValueString()
	if !slices.Contains(pg.DefaultPrivilegesObjectTypes, ot) {
		return // the object_type validator says so; nothing else can be checked against it
	}
	if slices.Contains(pg.UnqualifiedDefaultPrivilegesTypes, ot) && !m.Schema.IsUnknown() && m.Schema.ValueString() != "" {
		resp.Diagnostics.AddAttributeError(path.Root("schema"), "Unexpected schema",
			fmt.Sprintf("Default privileges on %ss cannot be limited to a schema; leave schema unset.", strings.ReplaceAll(ot, "_", " ")))
	}
	if !m.Privileges.IsUnknown() {
		validatePrivileges(ctx, m.Privileges, pg.DefaultPrivileges(ot, 0), ot, &resp.Diagnostics)
	}
	if !m.Role.IsUnknown() && pg.IsPublic(m.Role.ValueString()) && m.WithGrantOption.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("with_grant_option"), "Grant option for PUBLIC", "PostgreSQL does not allow granting privileges to PUBLIC WITH GRANT OPTION.")
	}
}

func (r *defaultPrivilegesResource) Describe(m *defaultPrivilegesModel) string {
	return fmt.Sprintf("default privileges of %q on %ss of %q in database %q", m.Role.ValueString(), m.ObjectType.ValueString(), m.Owner.ValueString(), m.Database.ValueString())
}

// defaultPrivilegesArguments are the arguments naming what a pg.NotFoundError is about.
var defaultPrivilegesArguments = map[pg.Missing]string{
	pg.MissingDatabase: "database", pg.MissingSchema: "schema", pg.MissingGrantee: "role", pg.MissingOwner: "owner",
}

// namesUsed: the database, the owner, the grantee and the schema (awaitNames).
func (r *defaultPrivilegesResource) namesUsed(m *defaultPrivilegesModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.role("owner", m.Owner)
	n.role("role", m.Role)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *defaultPrivilegesResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *defaultPrivilegesModel) diag.Diagnostics {
	if release := r.client.Claim(plan.target().FactKey()); !c.HoldUntilReadBack(release) {
		defer release()
	}
	return r.set(ctx, plan)
}

// UpdateObject sets the planned privileges. When the grantee, database, owner or
// schema changed, those that no longer exist under their old names were
// renamed (the entry followed them); when one still exists, another was
// named, and the old entry is reset.
func (r *defaultPrivilegesResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *defaultPrivilegesModel) diag.Diagnostics {
	t, old := plan.target(), state.target()
	old.OwnerOID, old.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	if release := r.client.Claim(t.FactKey()); !c.HoldUntilReadBack(release) {
		defer release()
	}
	if !pg.SameDefaultPrivileges(old, t) {
		from, err := r.client.DefaultPrivilegesFrom(ctx, old, t)
		if err != nil {
			return tfkit.Failed("Could not read default privileges", err)
		}
		if !pg.SameDefaultPrivileges(from, t) {
			privs := pg.ExpandDefaultPrivileges(t.ObjectType, serverMajor(ctx, r.client), tfkit.SetStrings(ctx, plan.Privileges))
			return changeFailed("Could not alter default privileges",
				r.client.MoveDefaultPrivileges(ctx, from, t, privs, plan.WithGrantOption.ValueBool()), defaultPrivilegesArguments)
		}
	}
	return r.set(ctx, plan)
}

// set makes the grantee's default privileges what m says.
func (r *defaultPrivilegesResource) set(ctx context.Context, m *defaultPrivilegesModel) diag.Diagnostics {
	t := m.target()
	privs := pg.ExpandDefaultPrivileges(t.ObjectType, serverMajor(ctx, r.client), tfkit.SetStrings(ctx, m.Privileges))
	return changeFailed("Could not alter default privileges", r.client.SetDefaultPrivileges(ctx, t, privs, m.WithGrantOption.ValueBool(), false), defaultPrivilegesArguments)
}

// DropObject resets the grantee's default privileges to the built-in ones.
//
// When another resource of this apply states the same entry (the entry moved
// to another address), nothing is reset: that resource sets it (pg/claims.go).
func (r *defaultPrivilegesResource) DropObject(ctx context.Context, c *tfkit.Call, state *defaultPrivilegesModel) diag.Diagnostics {
	t := state.target()
	t.OwnerOID, t.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	claimed, release := r.client.Retract(t.FactKey())
	defer release()
	whole, kept := pg.ClaimedPrivileges(claimed)
	if len(whole) > 0 {
		return nil
	}
	if k := kept[pg.ClaimAll]; len(k) > 0 {
		// additive resources of this apply state privileges in the entry
		// (the additive form replacing this one): the rest goes
		builtin := pg.BuiltinDefaultPrivileges(t)
		ch := pg.DefaultPrivilegesChange{Target: t}
		for _, p := range pg.ExpandDefaultPrivileges(t.ObjectType, serverMajor(ctx, r.client), []string{"ALL"}) {
			if _, ok := k[p]; !ok && !slices.Contains(builtin, p) {
				ch.Revoke = append(ch.Revoke, p)
			}
			if !k[p] {
				ch.RevokeGrantOption = append(ch.RevokeGrantOption, p)
			}
		}
		return tfkit.Failed("Could not reset default privileges", r.client.ChangeDefaultPrivileges(ctx, ch))
	}
	return tfkit.Failed("Could not reset default privileges", r.client.SetDefaultPrivileges(ctx, t, pg.BuiltinDefaultPrivileges(t), false, true))
}

type defaultPrivilegesImportID struct {
	Role       string `json:"role"`
	Database   string `json:"database"`
	Owner      string `json:"owner"`
	Schema     string `json:"schema,omitempty"`
	ObjectType string `json:"object_type"`
}

const defaultPrivilegesImportExample = `{"role":"app","database":"mydb","owner":"migrator","schema":"public","object_type":"table"}`

// ImportByID takes a JSON object
// ({"role":"app","database":"db","owner":"owner","schema":"public","object_type":"table"}),
// or the resource's id, cyrilgdn/postgresql's
// `<role>_<database>_<schema or noschema>_<owner>_<object_type>`, when only
// one reading of it names existing roles, database and schema (or, of
// several, only one has an entry in pg_default_acl).
func (r *defaultPrivilegesResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id defaultPrivilegesImportID
	if strings.HasPrefix(strings.TrimSpace(req.ID), "{") {
		if err := tfkit.ParseID(req.ID, &id); err != nil {
			resp.Diagnostics.AddError("Invalid import ID", err.Error()+". Example: "+defaultPrivilegesImportExample)
			return
		}
		if id.Role == "" || id.Database == "" || id.Owner == "" || !slices.Contains(pg.DefaultPrivilegesObjectTypes, id.ObjectType) {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("role, database, owner and object_type (one of %s) are required.", strings.Join(pg.DefaultPrivilegesObjectTypes, ", ")))
			return
		}
	} else {
		var diags diag.Diagnostics
		id, diags = r.importUnderscoreID(ctx, req.ID)
		if resp.Diagnostics.Append(diags...); diags.HasError() {
			return
		}
	}
	m := defaultPrivilegesModel{
		Role: types.StringValue(id.Role), Database: types.StringValue(id.Database), Owner: types.StringValue(id.Owner),
		Schema: tfkit.ImportedString(req.ID, "schema", id.Schema), ObjectType: types.StringValue(id.ObjectType),
		Privileges: types.SetNull(types.StringType), WithGrantOption: types.BoolNull(),
	}
	m.ID = types.StringValue(m.id())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importUnderscoreID reads id as cyrilgdn/postgresql's
// `<role>_<database>_<schema or noschema>_<owner>_<object_type>`.
func (r *defaultPrivilegesResource) importUnderscoreID(ctx context.Context, id string) (defaultPrivilegesImportID, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r.client == nil || r.client.Ready() != nil {
		diags.AddError("Cannot import", "The provider must be configured (and able to connect) to import default privileges by their underscore-joined ID.")
		return defaultPrivilegesImportID{}, diags
	}
	// the object type ends the ID; large_object has an underscore of its own
	cut := -1
	for _, ot := range pg.DefaultPrivilegesObjectTypes {
		if strings.HasSuffix(id, "_"+ot) && len(id)-len(ot)-1 > 0 && (cut < 0 || len(ot) > len(id)-cut-1) {
			cut = len(id) - len(ot) - 1
		}
	}
	if cut < 0 {
		diags.AddError("Invalid import ID", fmt.Sprintf("The import ID %q is neither a JSON object (for example %s) nor cyrilgdn/postgresql's "+
			"`<role>_<database>_<schema or noschema>_<owner>_<object_type>`, whose object type is one of %s.",
			id, defaultPrivilegesImportExample, strings.Join(pg.DefaultPrivilegesObjectTypes, ", ")))
		return defaultPrivilegesImportID{}, diags
	}
	cat, err := newImportCatalog(ctx, r.client)
	if err != nil {
		diags.AddError("Cannot import", err.Error())
		return defaultPrivilegesImportID{}, diags
	}
	var found, withEntry []defaultPrivilegesImportID
	for _, p := range underscoreSplits(id[:cut], 4) {
		if !cat.isGrantee(p[0]) || !cat.isDatabase(p[1]) || !cat.isRole(p[3]) {
			continue
		}
		for _, schema := range []string{p[2], ""} {
			if schema == "" && p[2] != "noschema" {
				continue
			}
			if schema != "" && !cat.isSchema(p[1], schema) {
				continue
			}
			d := defaultPrivilegesImportID{Role: p[0], Database: p[1], Owner: p[3], Schema: schema, ObjectType: id[cut+1:]}
			found = append(found, d)
			m := defaultPrivilegesModel{Role: types.StringValue(d.Role), Database: types.StringValue(d.Database), Owner: types.StringValue(d.Owner),
				Schema: tfkit.StringOrNull(d.Schema), ObjectType: types.StringValue(d.ObjectType)}
			if st, err := r.client.ReadDefaultPrivileges(ctx, m.target()); err == nil && st.Exists && st.HasEntry {
				withEntry = append(withEntry, d)
			}
		}
	}
	if len(found) > 1 && len(withEntry) == 1 {
		found = withEntry
	}
	if len(found) != 1 {
		readings := make([]any, len(found))
		for i, d := range found {
			readings[i] = d
		}
		return defaultPrivilegesImportID{}, underscoreImportError("default privileges entry", id, readings, defaultPrivilegesImportExample)
	}
	return found[0], diags
}

func (r *defaultPrivilegesResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[defaultPrivilegesModel]) {
	major, ok := r.planChecks(ctx, resp, p)
	if !ok {
		return
	}
	plan := &p.Plan
	if plan.Role.IsUnknown() || plan.Database.IsUnknown() || plan.Owner.IsUnknown() || plan.Schema.IsUnknown() || plan.ObjectType.IsUnknown() {
		plan.ID = types.StringUnknown()
	} else {
		plan.ID = types.StringValue(plan.id())
	}
	// an additive entry of the same configuration would fight this one
	noteDefaultPrivilegesPlan(ctx, r.plans, plan, false, major, &resp.Diagnostics)
}

// planChecks plans the entry's privileges (planPrivileges) and checks what
// the server can tell at plan time: the object type's PostgreSQL version
// (ok false: the plan fails), and that the grantee, owner, database and
// schema exist (or are created by this plan). It returns the server's major
// version (0: unknown). postgresql_default_privileges_additive plans with it too.
func (r *defaultPrivilegesResource) planChecks(ctx context.Context, resp *resource.ModifyPlanResponse, p *tfkit.Planned[defaultPrivilegesModel]) (int, bool) {
	plan := &p.Plan
	major := serverMajor(ctx, r.client)
	if ot := plan.ObjectType.ValueString(); major > 0 && major < pg.DefaultPrivilegesMinMajor[ot] {
		resp.Diagnostics.AddAttributeError(path.Root("object_type"), "Unsupported object type",
			fmt.Sprintf("Default privileges on %ss need PostgreSQL %d or later; the server runs PostgreSQL %d.", strings.ReplaceAll(ot, "_", " "), pg.DefaultPrivilegesMinMajor[ot], major))
		return major, false
	}
	planPrivileges(ctx, major, p, plan.ObjectType, func(m *defaultPrivilegesModel) *types.Set { return &m.Privileges },
		pg.DefaultPrivileges, pg.ExpandDefaultPrivileges, &resp.Diagnostics)
	if isKnown(plan.Database) && !plan.Schema.IsUnknown() && isKnown(plan.Role) && isKnown(plan.Owner) &&
		(p.Creating() || !plan.Database.Equal(p.State.Database) || !plan.Schema.Equal(p.State.Schema) ||
			!plan.Role.Equal(p.State.Role) || !plan.Owner.Equal(p.State.Owner)) {
		warnMissing(ctx, r.client, pg.Names{
			Database: plan.Database.ValueString(), Schema: plan.Schema.ValueString(),
			Roles: map[pg.Missing]string{pg.MissingGrantee: plan.Role.ValueString(), pg.MissingOwner: plan.Owner.ValueString()},
		}, defaultPrivilegesArguments, &resp.Diagnostics)
	}
	return major, true
}

func (r *defaultPrivilegesResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeDefaultPrivilegesV0),
	}
}

// ReadObject refreshes privileges and with_grant_option from pg_default_acl,
// keeping the state's spelling when the meaning is the same.
func (r *defaultPrivilegesResource) ReadObject(ctx context.Context, c *tfkit.Call, m *defaultPrivilegesModel) (bool, diag.Diagnostics) {
	t := m.target()
	// the owner's and grantee's OIDs at the last read: a role renamed
	// outside Terraform is followed (privateOwnerOID)
	t.OwnerOID, t.GranteeOID = privateOID(ctx, c, privateOwnerOID), privateOID(ctx, c, privateGranteeOID)
	st, err := r.client.ReadDefaultPrivileges(ctx, t)
	if err != nil || !st.Exists {
		return false, tfkit.Failed("Could not read default privileges", err)
	}
	diags := savePrivateOID(ctx, c, privateOwnerOID, st.OwnerOID)
	diags.Append(savePrivateOID(ctx, c, privateGranteeOID, st.GranteeOID)...)
	if m.Privileges.IsNull() {
		m.Privileges = tfkit.StringSet(st.Held)
	}
	if m.WithGrantOption.IsNull() {
		m.WithGrantOption = types.BoolValue(len(st.Held) > 0 && tfkit.SameStrings(st.Grantable, st.Held))
	}
	want := pg.ExpandDefaultPrivileges(t.ObjectType, serverMajor(ctx, r.client), tfkit.SetStrings(ctx, m.Privileges))
	if !tfkit.SameStrings(want, st.Held) {
		m.Privileges = tfkit.StringSet(st.Held)
	}
	wgo := m.WithGrantOption.ValueBool()
	g := tfkit.Intersect([][]string{st.Grantable, want})
	if (wgo && !tfkit.SameStrings(g, want)) || (!wgo && len(st.Grantable) > 0) {
		m.WithGrantOption = types.BoolValue(!wgo)
	}
	m.ID = types.StringValue(m.id())
	return true, diags
}

func (m *defaultPrivilegesModel) target() pg.DefaultPrivilegesTarget {
	return pg.DefaultPrivilegesTarget{
		Database: m.Database.ValueString(), Owner: m.Owner.ValueString(), Schema: m.Schema.ValueString(),
		ObjectType: m.ObjectType.ValueString(), Grantee: m.Role.ValueString(),
	}
}

// id is cyrilgdn/postgresql's id of the entry (its
// generateDefaultPrivilegesID):
// `<role>_<database>_<schema, or noschema when unset>_<owner>_<object_type>`.
// Names that contain underscores can make two entries' ids equal: the
// identity is what names an entry unambiguously.
func (m *defaultPrivilegesModel) id() string {
	schema := m.Schema.ValueString()
	if schema == "" {
		schema = "noschema"
	}
	return strings.Join([]string{m.Role.ValueString(), m.Database.ValueString(), schema, m.Owner.ValueString(), m.ObjectType.ValueString()}, "_")
}

type defaultPrivilegesModel struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	Database        types.String `tfsdk:"database"`
	Owner           types.String `tfsdk:"owner"`
	Schema          types.String `tfsdk:"schema"`
	ObjectType      types.String `tfsdk:"object_type"`
	Privileges      types.Set    `tfsdk:"privileges"`
	WithGrantOption types.Bool   `tfsdk:"with_grant_option"`
}
