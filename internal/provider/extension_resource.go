package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                      = (*extensionResource)(nil)
	_ tfkit.ChangePlanner[extensionModel]  = (*extensionResource)(nil)
	_ tfkit.DestroyPlanner[extensionModel] = (*extensionResource)(nil)
	_ tfkit.IDImporter                     = (*extensionResource)(nil)
	_ tfkit.ImportIDAttributes             = (*extensionResource)(nil)
)

// NewExtensionResource is the constructor of postgresql_extension.
func NewExtensionResource() resource.Resource {
	r := &extensionResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[extensionModel](r, "extension", extensionSchemaV1, "database", "name")
	return r
}

type extensionResource struct {
	tfkit.Lifecycle[extensionModel]
	withClient
}

func extensionSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "An extension installed in a database (`CREATE EXTENSION`). The schema and the version change in place " +
			"(`ALTER EXTENSION ... SET SCHEMA` / `UPDATE TO`); another name or database means another extension and replaces it. " +
			"Trusted extensions (e.g. `pgcrypto`, `hstore`, `citext`) can be installed by a non-superuser with `CREATE` on the database; untrusted ones (e.g. `postgres_fdw`) need a superuser.",
		Attributes: map[string]schema.Attribute{
			"id":   tfkit.IDAttr("`<database>.<extension>`, as in cyrilgdn/postgresql."),
			"oid":  tfkit.OIDAttr("The extension's OID in its database (`pg_extension.oid`). It does not change when the extension is moved or updated."),
			"name": nameAttribute("The extension name, as listed in `pg_available_extensions`. Changing it replaces the resource.", stringplanmodifier.RequiresReplace()),
			"database_oid": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The OID of the database holding the extension. It identifies the database across renames: when `database` changes to a name that is (or, " +
					"during this apply, becomes) the name of the database with this OID, the extension is kept and updated in place instead of being replaced (see `postgresql_schema`).",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"database": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database to install the extension in; defaults to the provider's database. Changing it replaces the resource, unless the new name " +
					"belongs to the same database after a rename (see `database_oid`).",
				Validators: []validator.String{validators.Name()},
			}),
			"schema": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The schema holding the extension's objects. When unset, PostgreSQL picks it (the extension's own or the first schema of the search path) and the provider records it. " +
					"Changing it moves the extension in place (`ALTER EXTENSION ... SET SCHEMA`), for relocatable extensions.",
				Validators: []validator.String{validators.Name()},
			}),
			"version": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The extension version. When unset, the default version is installed and the installed version is recorded without ever showing a change. " +
					"Changing it updates the extension in place (`ALTER EXTENSION ... UPDATE TO`).",
			}),
			"create_cascade": tfkit.DefaultedBoolAttr(false, "When true, creating the extension also installs the extensions it requires (`CASCADE`). They are not dropped with it."),
			"drop_cascade":   tfkit.DefaultedBoolAttr(false, "When true, dropping the extension also drops the objects that depend on it (`DROP EXTENSION ... CASCADE`). When false (the default) the drop fails if any exist."),
		},
	}
}

// extensionImport is the import ID of an extension (see internal/tfkit/import_id.go).
var extensionImport = tfkit.ImportForm{What: "extension", Names: []string{"extension"}, Database: true}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *extensionResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *extensionResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(extensionImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		e, err := r.client.ReadExtension(ctx, db, names[0])
		if err != nil || e == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", names[0])...)
		return true, nil
	})...)
}

func (r *extensionResource) PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[extensionModel]) {
	replaces := planTrackedDatabase(ctx, r.client, req, resp, p, func(m *extensionModel) (*types.String, *types.Int64, *types.Int64) {
		return &m.Database, &m.DatabaseOID, &m.OID
	})
	keepUnset(p, func(m *extensionModel) *types.String { return &m.Schema })
	if !p.Creating() && !replaces {
		r.checkMove(ctx, p.State, &p.Plan, &resp.Diagnostics)
	}
	keepUnset(p, func(m *extensionModel) *types.String { return &m.Version })
	p.Plan.ID = joinedID(p.Plan.Database, p.Plan.Name)
}

// checkMove refuses at plan time a move to another schema that the
// connected role cannot make: PostgreSQL requires owning every member of the
// extension, and a non-superuser cannot own or borrow a superuser's members
// (those of a trusted extension it installed belong to the bootstrap
// superuser). The apply would fail on the first such member, with other
// resources of the apply already changed. A schema that does not exist yet
// is not checked: it may be the extension's schema renamed in this apply
// (the apply then finds nothing to move).
func (r *extensionResource) checkMove(ctx context.Context, state, plan *extensionModel, diags *diag.Diagnostics) {
	if r.client == nil || r.client.Ready() != nil || plan.Schema.IsUnknown() || plan.Schema.IsNull() || plan.Database.IsUnknown() ||
		plan.Schema.ValueString() == state.Schema.ValueString() || plan.Database.ValueString() != state.Database.ValueString() {
		return
	}
	db, name := plan.Database.ValueString(), plan.Name.ValueString()
	obj, owner, err := r.client.ExtensionMoveBlocker(ctx, db, name, plan.Schema.ValueString())
	if err != nil {
		diags.AddError("Could not read extension", fmt.Sprintf("reading the members of extension %q in database %q: %v", name, db, err))
		return
	}
	if obj == "" {
		return
	}
	diags.AddAttributeError(path.Root("schema"), "Cannot move the extension to another schema",
		fmt.Sprintf("Moving extension %q in database %q from schema %q to schema %q (ALTER EXTENSION ... SET SCHEMA) requires owning every object of the extension, "+
			"and %s belongs to the superuser %q: only a superuser can move it (the members of a trusted extension installed by a role that is not a superuser belong to the bootstrap superuser). "+
			"Nothing was changed. Keep the schema, apply this change with a superuser, or drop and create the extension in the new schema "+
			"(terraform apply -replace on this resource; objects that depend on the extension are dropped with it only when drop_cascade is true).",
			name, db, state.Schema.ValueString(), plan.Schema.ValueString(), obj, owner))
}

func (r *extensionResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *extensionModel) {
	if r.client == nil || r.client.Ready() != nil {
		return
	}
	d, err := currentDatabase(ctx, r.client, state.Database, state.DatabaseOID)
	if err != nil || d == nil {
		return
	}
	db := d.Name
	e, err := r.client.ReadExtension(ctx, db, state.Name.ValueString())
	if err != nil || e == nil {
		return
	}
	n, err := r.client.CountExtensionDependents(ctx, db, e.OID)
	if err != nil || n == 0 {
		return
	}
	if state.DropCascade.ValueBool() {
		resp.Diagnostics.AddWarning("Objects depending on the extension will be dropped",
			fmt.Sprintf("%d object(s) in database %q depend on extension %q (e.g. columns of its types, functions using it); drop_cascade is true, so they will be dropped with it.", n, db, e.Name))
		return
	}
	resp.Diagnostics.AddWarning("Objects depend on the extension",
		fmt.Sprintf("%d object(s) in database %q depend on extension %q and drop_cascade is false: the drop will fail. Remove them first, or set drop_cascade = true (and apply it).", n, db, e.Name))
}

func (r *extensionResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeExtensionV0, "oid", "database_oid"),
	}
}

func (r *extensionResource) Describe(m *extensionModel) string {
	return fmt.Sprintf("extension %q in database %q", m.Name.ValueString(), m.Database.ValueString())
}

// namesUsed: the database and the schema (awaitNames).
func (r *extensionResource) namesUsed(m *extensionModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *extensionResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *extensionModel) diag.Diagnostics {
	db := plan.Database.ValueString()
	spec := plan.spec()
	defer r.client.Claim(extensionFactKey(databaseOf(r.client, plan.Database), spec.Name))()
	err := r.client.CreateExtension(ctx, db, spec, plan.CreateCascade.ValueBool())
	if err == nil {
		return nil
	}
	msg := err.Error()
	if pgconn.SQLState(err) == pgconn.CodeInsufficientPriv {
		if trusted, terr := r.client.ExtensionTrusted(ctx, db, spec.Name); terr == nil && !trusted {
			msg += fmt.Sprintf("\n\nExtension %q is not trusted: only a superuser can install it.", spec.Name)
		}
	}
	return diag.Diagnostics{diag.NewErrorDiagnostic("Could not create extension", msg)}
}

func (r *extensionResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *extensionModel) diag.Diagnostics {
	db := plan.Database.ValueString()
	diags := checkSameDatabase(ctx, r.client, db, state.Database.ValueString(), state.DatabaseOID)
	if diags.HasError() {
		return diags
	}
	return tfkit.Failed("Could not update extension", r.client.UpdateExtension(ctx, db, plan.spec()))
}

// extensionFactKey is an extension's fact (pg/claims.go): create installs an
// extension that is missing and adopts one that is there (CREATE EXTENSION IF
// NOT EXISTS, as cyrilgdn), so an extension moved to another address without
// a moved block is created by its new address while its old one is destroyed,
// in either order.
func extensionFactKey(db, name string) string { return pg.FactKey("extension", db, name) }

// DropObject drops the extension, unless a create of this apply states it
// (moved to another address without a moved block: extensionFactKey). Found
// by the long walk, seed 20508 step 24 on PostgreSQL 18 in both admin modes:
// the old address's drop ran after the new one's create, and the extension
// was gone ("Created object vanished", or a plan to create it again).
func (r *extensionResource) DropObject(ctx context.Context, _ *tfkit.Call, state *extensionModel) diag.Diagnostics {
	d, err := currentDatabase(ctx, r.client, state.Database, state.DatabaseOID)
	if err != nil || d == nil {
		return tfkit.Failed("Could not read database", err) // none: the database is gone, and the extension with it
	}
	claimed, release := r.client.Retract(extensionFactKey(d.Name, state.Name.ValueString()))
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	return tfkit.Failed("Could not drop extension", r.client.DropExtension(ctx, d.Name, state.Name.ValueString(), state.DropCascade.ValueBool()))
}

// ReadObject refreshes m from the server. It reports whether the extension is installed.
func (r *extensionResource) ReadObject(ctx context.Context, c *tfkit.Call, m *extensionModel) (bool, diag.Diagnostics) {
	d, err := currentDatabase(ctx, r.client, m.Database, m.DatabaseOID)
	if err != nil || d == nil {
		return notFound("Could not read database", err)
	}
	db := d.Name
	e, err := r.client.ReadExtension(ctx, db, m.Name.ValueString())
	if err != nil || e == nil {
		return notFound("Could not read extension", err)
	}
	var diags diag.Diagnostics
	if c.Op == tfkit.OpRead {
		diags.Append(recordXactPos(ctx, r.client, c.PrivateSetter())...)
	}
	m.ID = types.StringValue(db + "." + e.Name)
	m.Database = types.StringValue(db)
	m.DatabaseOID = types.Int64Value(int64(d.OID))
	m.OID = types.Int64Value(int64(e.OID))
	m.Name = types.StringValue(e.Name)
	m.Schema = types.StringValue(e.Schema)
	m.Version = types.StringValue(e.Version)
	if m.CreateCascade.IsNull() || m.CreateCascade.IsUnknown() {
		m.CreateCascade = types.BoolValue(false)
	}
	if m.DropCascade.IsNull() || m.DropCascade.IsUnknown() {
		m.DropCascade = types.BoolValue(false)
	}
	return true, diags
}

func (m *extensionModel) spec() pg.ExtensionSpec {
	s := pg.ExtensionSpec{Name: m.Name.ValueString()}
	if !m.Schema.IsUnknown() {
		s.Schema = m.Schema.ValueString()
	}
	if !m.Version.IsUnknown() {
		s.Version = m.Version.ValueString()
	}
	return s
}

type extensionModel struct {
	ID            types.String `tfsdk:"id"`
	OID           types.Int64  `tfsdk:"oid"`
	Name          types.String `tfsdk:"name"`
	Database      types.String `tfsdk:"database"`
	DatabaseOID   types.Int64  `tfsdk:"database_oid"`
	Schema        types.String `tfsdk:"schema"`
	Version       types.String `tfsdk:"version"`
	CreateCascade types.Bool   `tfsdk:"create_cascade"`
	DropCascade   types.Bool   `tfsdk:"drop_cascade"`
}
