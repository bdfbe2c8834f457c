package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                     = (*databaseResource)(nil)
	_ tfkit.ChangePlanner[databaseModel]  = (*databaseResource)(nil)
	_ tfkit.DestroyPlanner[databaseModel] = (*databaseResource)(nil)
	_ tfkit.IDImporter                    = (*databaseResource)(nil)
	_ tfkit.ImportIDAttributes            = (*databaseResource)(nil)
)

// defaultDatabaseTemplate is the template used when none is configured, as cyrilgdn/postgresql did.
const defaultDatabaseTemplate = "template0"

// serverDefaultTemplate is the template CREATE DATABASE uses when told none
// (TEMPLATE DEFAULT).
const serverDefaultTemplate = "template1"

// defaultKeyword tells what `DEFAULT` means for an attribute set only at creation.
const defaultKeyword = "With `DEFAULT` the server's choice is recorded after the next refresh, and `DEFAULT` never plans a change against it."

// isDefaultKeyword tells whether v is the keyword DEFAULT (any letter case),
// which cyrilgdn/postgresql documents for template, encoding, lc_collate,
// lc_ctype and tablespace_name: the server's default.
func isDefaultKeyword(v types.String) bool {
	return !v.IsNull() && !v.IsUnknown() && strings.EqualFold(v.ValueString(), "DEFAULT")
}

// NewDatabaseResource is the constructor of postgresql_database.
func NewDatabaseResource() resource.Resource {
	r := &databaseResource{}
	// The object's identity (Terraform 1.12+) is `name`.
	r.Lifecycle = newLifecycle[databaseModel](r, "database", databaseSchemaV1, "name")
	return r
}

type databaseResource struct {
	tfkit.Lifecycle[databaseModel]
	withClient
}

func databaseSchemaV1() schema.Schema {
	// fixed is an attribute set at creation only, of type typ (its spelling, see spellings.go)
	fixed := func(typ basetypes.StringTypable, desc string) schema.StringAttribute {
		return unsetIfEmpty(schema.StringAttribute{
			Optional: true, Computed: true, CustomType: typ,
			MarkdownDescription: desc + " PostgreSQL sets it only when the database is created: changing a configured value replaces the database " +
				"(a value differing only in spelling, such as `utf8` for `UTF8`, is no change). When left unset the server's choice is recorded and never forces a replacement.",
			PlanModifiers: []planmodifier.String{tfkit.KeepSpelling()},
		})
	}
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A PostgreSQL database (`CREATE DATABASE`). Renaming changes it in place (`ALTER DATABASE ... RENAME`), keeping its OID and content; " +
			"schemas and extensions managed in it follow the new name without being recreated.",
		Attributes: map[string]schema.Attribute{
			"id":  tfkit.IDAttr("The database name (kept equal to `name`)."),
			"oid": tfkit.OIDAttr("The database's OID. It never changes for the life of the database, renames included."),
			"name": nameAttribute("The database name: 1 to 63 bytes, any characters (it is always quoted). Changing it renames the database in place, " +
				"which PostgreSQL allows only while no session is connected to it; the provider's own database cannot be renamed."),
			"owner": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The role owning the database. Defaults to the provider's role, the role creating the database, which `DEFAULT` (any letter case) also names, as in cyrilgdn/postgresql; " +
					"when unset or `DEFAULT`, the current owner is recorded and not managed. " +
					"A non-superuser provider role (managed services) must be able to act as the owner: the provider grants itself membership in it for the statement and revokes it afterwards, " +
					"and reports which grant is missing when that is not allowed.",
				Validators: []validator.String{validators.Name()},
			}),
			"template": fixed(templateDatabaseType{}, "The template database copied to create this one (`TEMPLATE`); `template0` when unset, as in cyrilgdn/postgresql, and `DEFAULT` (any letter case) for the server's default, `template1`. "+
				"PostgreSQL does not remember it, so after an import it is null."),
			"encoding": fixed(encodingNameType{}, "The character set encoding (`ENCODING`), e.g. `UTF8`; `DEFAULT` (any letter case) for the template's. "+defaultKeyword),
			"lc_collate": fixed(localeNameType{}, "The collation order (`LC_COLLATE`), e.g. `en_US.UTF-8` or `C`; `DEFAULT` (any letter case) for the template's. A value different from the template's needs `template = \"template0\"`. "+
				defaultKeyword),
			"lc_ctype": fixed(localeNameType{}, "The character classification (`LC_CTYPE`); `DEFAULT` (any letter case) for the template's. A value different from the template's needs `template = \"template0\"`. "+
				defaultKeyword),
			"tablespace_name": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The default tablespace of the database. Changing it moves the database in place (`ALTER DATABASE ... SET TABLESPACE`), which needs that nobody is connected to it. " +
					"When unset, the current tablespace is recorded and not managed. `DEFAULT` (any letter case) creates the database in the template's tablespace and, like unset, records the current one without managing it.",
				Validators: []validator.String{validators.Name()},
			}),
			"connection_limit": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(-1),
				MarkdownDescription: "How many concurrent connections can be made to the database; `-1` (the default) means no limit. Superusers are not limited.",
				Validators:          []validator.Int64{int64validator.AtLeast(-1)},
			},
			"allow_connections": tfkit.DefaultedBoolAttr(true, "When false nobody can connect to the database (`ALLOW_CONNECTIONS false`). Defaults to true."),
			"is_template":       tfkit.DefaultedBoolAttr(false, "When true, any role with `CREATEDB` can clone the database (`IS_TEMPLATE`). A template database is made an ordinary one before it is dropped."),
			"alter_object_ownership": tfkit.DefaultedBoolAttr(false, "When true, changing `owner` also gives the new owner the objects owned by the previous owner inside the database (`ALTER ... OWNER TO` for its schemas, tables, views, sequences, functions, procedures and types outside the system schemas; "+
				"unlike `REASSIGN OWNED` it leaves the previous owner's other databases alone)."),
			"force_drop": tfkit.DefaultedBoolAttr(false, "When true, destroying the database disconnects the sessions connected to it (`DROP DATABASE ... WITH (FORCE)` on PostgreSQL 13+, "+
				"otherwise connections are disallowed and the backends terminated first). When false (the default) the drop fails while anyone is connected. "+
				"When the drop fails, connections are allowed again (and a template stays a template)."),
		},
	}
}

// ImportIDAttributes: the import ID is its name (see alreadyExists).
func (r *databaseResource) ImportIDAttributes() []string { return []string{"name"} }

// ImportByID takes the database name.
func (r *databaseResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByName(ctx, req, resp, "database")
}

func (r *databaseResource) PlanChange(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[databaseModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	plan.ID = plan.Name
	if p.Creating() {
		notePlanned(r.client, pg.KindDatabase, "", plan.Name, nil)
		if config.Template.IsNull() {
			plan.Template.StringValue = types.StringValue(defaultDatabaseTemplate)
		}
		return
	}
	notePlanned(r.client, pg.KindDatabase, "", plan.Name, &state.Name)
	// Unset optional+computed values: keep what was recorded (not managed).
	// DEFAULT (the server's choice) is the same for what the server records.
	for _, a := range []struct {
		cfg         types.String
		plan, state *types.String
		keyword     bool // DEFAULT means what the server chose
	}{
		{config.Owner, &plan.Owner, &state.Owner, true},
		{config.TablespaceName, &plan.TablespaceName, &state.TablespaceName, true},
		{config.Template.StringValue, &plan.Template.StringValue, &state.Template.StringValue, false},
		{config.Encoding.StringValue, &plan.Encoding.StringValue, &state.Encoding.StringValue, true},
		{config.LCCollate.StringValue, &plan.LCCollate.StringValue, &state.LCCollate.StringValue, true},
		{config.LCCtype.StringValue, &plan.LCCtype.StringValue, &state.LCCtype.StringValue, true},
	} {
		if a.cfg.IsNull() || (a.keyword && isDefaultKeyword(a.cfg) && !a.state.IsNull()) {
			*a.plan = *a.state
		}
	}
	// Creation-time settings: a configured value that means the state's is
	// planned as the state's (tfkit.KeepSpelling), no change; another
	// replaces the database.
	for _, a := range []struct {
		attr        string
		plan, state *types.String
	}{
		{"template", &plan.Template.StringValue, &state.Template.StringValue},
		{"encoding", &plan.Encoding.StringValue, &state.Encoding.StringValue},
		{"lc_collate", &plan.LCCollate.StringValue, &state.LCCollate.StringValue},
		{"lc_ctype", &plan.LCCtype.StringValue, &state.LCCtype.StringValue},
	} {
		if a.plan.IsUnknown() || a.plan.IsNull() || a.state.IsNull() || a.state.IsUnknown() {
			continue // after an import the template is not known: record the configured one
		}
		if a.attr != "template" && (isDefaultKeyword(*a.state) || a.state.ValueString() == "") {
			// recorded as configured at create (DEFAULT, or "" for unset), not
			// refreshed since: what the server chose is not known here; record
			// the configured value
			continue
		}
		if a.plan.Equal(*a.state) {
			continue
		}
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root(a.attr))
	}
	if len(resp.RequiresReplace) > 0 && r.client != nil && r.client.Ready() == nil && state.Name.ValueString() != r.client.DefaultDatabase() {
		r.warnDrop(ctx, state, resp, true)
	}
	if r.client != nil {
		def := r.client.DefaultDatabase()
		if state.Name.ValueString() == def {
			if len(resp.RequiresReplace) > 0 {
				resp.Diagnostics.AddError("Cannot replace the provider's own database",
					fmt.Sprintf("This plan would drop and recreate database %q, which the provider is connected to (provider argument `database`). "+
						"Connect the provider to another database (e.g. postgres) to apply it.", def))
			} else if !plan.Name.IsUnknown() && plan.Name.ValueString() != def {
				resp.Diagnostics.AddAttributeError(path.Root("name"), "Cannot rename the provider's own database",
					fmt.Sprintf("The provider is connected to database %q; PostgreSQL does not rename a database while sessions are connected to it. "+
						"Connect the provider to another database (e.g. postgres) to apply this change.", def))
			}
		}
	}
}

func (r *databaseResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *databaseModel) {
	if r.client == nil || r.client.Ready() != nil {
		return
	}
	name := state.Name.ValueString()
	if name == r.client.DefaultDatabase() {
		resp.Diagnostics.AddError("Cannot drop the provider's own database",
			fmt.Sprintf("This plan would drop database %q, which the provider is connected to (provider argument `database`). "+
				"Connect the provider to another database (e.g. postgres), or remove the resource from the state (terraform state rm).", name))
		return
	}
	r.warnDrop(ctx, state, resp, false)
}

// warnDrop warns about what dropping the database of state loses, and
// refuses the plan when the drop will fail: other sessions are connected and
// the provider will not (force_drop false) or may not (another role's or a
// superuser's session) terminate them, or prepared transactions hold it.
func (r *databaseResource) warnDrop(ctx context.Context, state *databaseModel, resp *resource.ModifyPlanResponse, replacing bool) {
	name := state.Name.ValueString()
	act, err := r.client.ReadDatabaseActivity(ctx, name)
	if err != nil {
		return
	}
	verb := "destroy"
	if replacing {
		verb = "replace"
	}
	var blocked []string
	switch {
	case act.Blocking > 0 && !state.ForceDrop.ValueBool():
		blocked = append(blocked, fmt.Sprintf("other sessions are connected to it (%d) and force_drop is false. Disconnect them, or set force_drop = true "+
			"and apply that first to have the provider terminate them", act.Blocking))
	case act.Unterminable > 0:
		blocked = append(blocked, fmt.Sprintf("other sessions are connected to it that the provider's role may not terminate (%d: a superuser's, or another role's "+
			"without the privileges of pg_signal_backend), although force_drop is true. Disconnect them first", act.Unterminable))
	}
	if act.PreparedXacts > 0 {
		blocked = append(blocked, fmt.Sprintf("prepared transactions hold it (%d). Commit or roll them back first (COMMIT PREPARED / ROLLBACK PREPARED)", act.PreparedXacts))
	}
	if len(blocked) > 0 {
		resp.Diagnostics.AddError("Database cannot be dropped",
			fmt.Sprintf("Cannot %s database %q: DROP DATABASE would fail after the rest of the plan had been applied, because %s. Nothing was changed.",
				verb, name, strings.Join(blocked, "; and ")))
		return
	}
	size := "unknown size (no privilege to read it)"
	if act.SizeKnown {
		size = act.SizePretty
	}
	what := "dropped with all its content"
	if replacing {
		what = "replaced: dropped with all its content and created again empty"
	}
	msg := fmt.Sprintf("Database %q (%s) will be %s. It has %d active connection(s)", name, size, what, act.Connections)
	if act.OwnConnections > 0 {
		msg += fmt.Sprintf(", plus %d of Terraform providers (this provider closes its own before the drop)", act.OwnConnections)
	}
	msg += "."
	if act.Connections > 0 && state.ForceDrop.ValueBool() {
		msg += " force_drop is true: those sessions will be disconnected."
	}
	resp.Diagnostics.AddWarning("Database will be dropped", msg)
}

func (r *databaseResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeDatabaseV0, "oid", "force_drop"),
	}
}

// lookup finds the database of m: by OID first (renames behind our back), then by name.
func (r *databaseResource) lookup(ctx context.Context, m *databaseModel) (*pg.Database, error) {
	if !m.OID.IsNull() && !m.OID.IsUnknown() {
		d, err := r.client.ReadDatabaseByOID(ctx, uint32(m.OID.ValueInt64()))
		if err != nil || d != nil {
			return d, err
		}
	}
	return r.client.ReadDatabase(ctx, m.Name.ValueString())
}

func (r *databaseResource) Describe(m *databaseModel) string {
	return fmt.Sprintf("database %q", m.Name.ValueString())
}

// namesUsed: the owner and the template (awaitNames).
func (r *databaseResource) namesUsed(m *databaseModel) []pg.Ref {
	var n refs
	if !strings.EqualFold(m.Owner.ValueString(), "DEFAULT") { // the provider's role, as cyrilgdn documents
		n.role("owner", m.Owner)
	}
	if t := m.Template.ValueString(); t != "" && !strings.EqualFold(t, "DEFAULT") && t != "template0" && t != "template1" {
		n.database("template", m.Template.StringValue)
	}
	return n
}

// namesMade: the database, when created or renamed (awaitNames).
func (r *databaseResource) namesMade(plan, state *databaseModel) []pg.Ref {
	if !renamedOrNew(plan.Name, stateName(state, func(m *databaseModel) *types.String { return &m.Name })) {
		return nil
	}
	return []pg.Ref{pg.DatabaseRef("name", plan.Name.ValueString())}
}

func (r *databaseResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *databaseModel) diag.Diagnostics {
	var diags diag.Diagnostics
	spec := plan.spec()
	created, err := r.client.CreateDatabase(ctx, spec)
	if !created {
		return tfkit.Failed("Could not create database", err) // the skeleton tells how to import one that exists
	}
	if err != nil {
		// The database exists: record it, so the next apply does not try to create it again.
		diags.AddWarning("Database created with a problem", err.Error())
	}
	return diags
}

func (r *databaseResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *databaseModel) diag.Diagnostics {
	cur, err := r.lookup(ctx, state)
	if err != nil {
		return tfkit.Failed("Could not read database", err)
	}
	if cur == nil {
		return diag.Diagnostics{diag.NewErrorDiagnostic("Database not found",
			fmt.Sprintf("database %q no longer exists; refresh to plan its creation", state.Name.ValueString()))}
	}
	spec := plan.spec()
	if plan.Owner.IsUnknown() {
		spec.Owner = ""
	}
	if plan.TablespaceName.IsUnknown() {
		spec.Tablespace = ""
	}
	return tfkit.Failed("Could not update database", r.client.UpdateDatabase(ctx, cur.Name, cur, spec, plan.AlterObjectOwnership.ValueBool()))
}

func (r *databaseResource) DropObject(ctx context.Context, _ *tfkit.Call, state *databaseModel) diag.Diagnostics {
	cur, err := r.lookup(ctx, state)
	if err != nil || cur == nil {
		return tfkit.Failed("Could not read database", err) // none: already gone
	}
	return tfkit.Failed("Could not drop database", r.client.DropDatabase(ctx, cur.Name, state.ForceDrop.ValueBool()))
}

// ReadObject refreshes m from the server. It reports whether the database exists.
// It records the server's encoding and locales: the framework keeps m's
// spelling of them where it means the same (see spellings.go).
func (r *databaseResource) ReadObject(ctx context.Context, c *tfkit.Call, m *databaseModel) (bool, diag.Diagnostics) {
	d, err := r.lookup(ctx, m)
	if err != nil || d == nil {
		return notFound("Could not read database", err)
	}
	keep := func(cur types.String, server string) types.String {
		// DEFAULT: what was planned, read back as planned after a write; a
		// refresh records what the server chose (PlanChange plans DEFAULT as
		// no change against it)
		if c.Wrote() && isDefaultKeyword(cur) {
			return cur
		}
		return types.StringValue(server)
	}
	m.ID = types.StringValue(d.Name)
	m.OID = types.Int64Value(int64(d.OID))
	m.Name = types.StringValue(d.Name)
	m.Owner = keep(m.Owner, d.Owner)
	m.Encoding.StringValue = keep(m.Encoding.StringValue, d.Encoding)
	m.LCCollate.StringValue = keep(m.LCCollate.StringValue, d.Collate)
	m.LCCtype.StringValue = keep(m.LCCtype.StringValue, d.Ctype)
	m.TablespaceName = keep(m.TablespaceName, d.Tablespace)
	m.ConnectionLimit = types.Int64Value(d.ConnLimit)
	m.AllowConnections = types.BoolValue(d.AllowConn)
	m.IsTemplate = types.BoolValue(d.IsTemplate)
	if m.Template.IsUnknown() {
		m.Template.StringValue = types.StringNull() // PostgreSQL does not record it
	}
	if m.AlterObjectOwnership.IsNull() || m.AlterObjectOwnership.IsUnknown() {
		m.AlterObjectOwnership = types.BoolValue(false)
	}
	if m.ForceDrop.IsNull() || m.ForceDrop.IsUnknown() {
		m.ForceDrop = types.BoolValue(false)
	}
	return true, nil
}

func (m *databaseModel) spec() pg.DatabaseSpec {
	// DEFAULT: the server's choice, asked for by naming none
	orDefault := func(v types.String) string {
		if isDefaultKeyword(v) {
			return ""
		}
		return v.ValueString()
	}
	template := orDefault(m.Template.StringValue)
	if isKnown(m.Template) && m.Template.ValueString() == "" {
		template = defaultDatabaseTemplate // "" is unset
	}
	return pg.DatabaseSpec{
		Name:     m.Name.ValueString(),
		Template: template,
		DatabaseSettings: pg.DatabaseSettings{
			Owner:      orDefault(m.Owner),
			Encoding:   orDefault(m.Encoding.StringValue),
			Collate:    orDefault(m.LCCollate.StringValue),
			Ctype:      orDefault(m.LCCtype.StringValue),
			Tablespace: orDefault(m.TablespaceName),
			ConnLimit:  m.ConnectionLimit.ValueInt64(),
			AllowConn:  m.AllowConnections.ValueBool(),
			IsTemplate: m.IsTemplate.ValueBool(),
		},
	}
}

type databaseModel struct {
	ID                   types.String     `tfsdk:"id"`
	OID                  types.Int64      `tfsdk:"oid"`
	Name                 types.String     `tfsdk:"name"`
	Owner                types.String     `tfsdk:"owner"`
	Template             templateDatabase `tfsdk:"template"`
	Encoding             encodingName     `tfsdk:"encoding"`
	LCCollate            localeName       `tfsdk:"lc_collate"`
	LCCtype              localeName       `tfsdk:"lc_ctype"`
	TablespaceName       types.String     `tfsdk:"tablespace_name"`
	ConnectionLimit      types.Int64      `tfsdk:"connection_limit"`
	AllowConnections     types.Bool       `tfsdk:"allow_connections"`
	IsTemplate           types.Bool       `tfsdk:"is_template"`
	AlterObjectOwnership types.Bool       `tfsdk:"alter_object_ownership"`
	ForceDrop            types.Bool       `tfsdk:"force_drop"`
}
