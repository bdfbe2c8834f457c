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
)

var (
	_ validatedResource                     = (*objectOwnerResource)(nil)
	_ tfkit.ChangePlanner[objectOwnerModel] = (*objectOwnerResource)(nil)
	_ tfkit.IDImporter                      = (*objectOwnerResource)(nil)
)

// NewObjectOwnerResource is the constructor of postgresql_object_owner.
func NewObjectOwnerResource() resource.Resource {
	r := &objectOwnerResource{}
	// The object's identity (Terraform 1.12+) is `database`, `object_type`, `schema`, `object_name`.
	r.Lifecycle = newLifecycle[objectOwnerModel](r, "object_owner", objectOwnerSchemaV1, "database", "object_type", "schema", "object_name")
	return r
}

type objectOwnerResource struct {
	tfkit.Lifecycle[objectOwnerModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_object_owner
}

const objectOwnerImportUsage = "`<object_type>.<object_name>` or `<object_type>.<schema>.<object_name>`, optionally prefixed with `<database>.`"

// objectOwnerImport is the import ID of an object's ownership.
var objectOwnerImport = tfkit.ObjectImportForm{What: "object", Usage: objectOwnerImportUsage, Types: pg.OwnershipObjectTypes, Unqualified: pg.OwnershipUnqualifiedObjectTypes}

func objectOwnerSchemaV1() schema.Schema {
	replace := stringplanmodifier.RequiresReplace()
	database := databaseAttribute("object")
	database.MarkdownDescription = "The database holding the object; for databases and tablespaces (cluster-wide objects) the database the provider " +
		"connects to. Defaults to the provider's `database`. Changing it makes the resource manage another object (the old one keeps its owner)."
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "The owner of an existing object (`ALTER <object_type> ... OWNER TO`): a database, schema, table, view, sequence, function, type, " +
			"foreign server, large object, and the other types listed under `object_type`. The owner changes in place; an owner changed outside Terraform is " +
			"set back. **Destroying the resource leaves the object and its owner as they are**: it stops managing the ownership, it does not give the " +
			"object back to its former owner.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "`<object_type>.[<schema>.]<object_name>`, names that contain a dot in double quotes: the import ID " +
					"of the object in the provider's database.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"database": database,
			"object_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The type of the object: `" + strings.Join(pg.OwnershipObjectTypes, "`, `") + "` (any letter case). " +
					"Databases and tablespaces are cluster-wide; the others belong to `database`. Changing it makes the resource manage another object.",
				Validators:    []validator.String{stringvalidator.OneOfCaseInsensitive(pg.OwnershipObjectTypes...)},
				PlanModifiers: []planmodifier.String{replace},
			},
			"schema": optionalNameAttribute("The schema of the object, for object types that live in a schema; not allowed for `"+
				strings.Join(pg.OwnershipUnqualifiedObjectTypes, "`, `")+"`. Unset: resolved through the `search_path`. Changing it makes the resource manage another object.", replace),
			"object_name": nameAttribute("The object's name, one identifier (quoted as needed by the provider); a large object's OID. Functions, procedures and "+
				"routines are found by name, which must be unique in the schema. Changing it makes the resource manage another object.", replace),
			"owner": nameAttribute("The role that owns the object. Changes in place (`ALTER ... OWNER TO`). The new owner needs what PostgreSQL asks of an owner: " +
				"`CREATE` on the object's schema for objects in a schema, and for a database the provider's role needs `CREATEDB`."),
		},
	}
}

// ValidateConfig checks schema against object_type, and a large object's OID.
func (r *objectOwnerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m objectOwnerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !isKnown(m.ObjectType) {
		return
	}
	ot := strings.ToLower(m.ObjectType.ValueString())
	if !m.Schema.IsUnknown() && !m.Schema.IsNull() && slices.Contains(pg.OwnershipUnqualifiedObjectTypes, ot) {
		resp.Diagnostics.AddAttributeError(path.Root("schema"), "Unexpected schema",
			fmt.Sprintf("object_type %q names an object that belongs to no schema; schema must be unset.", m.ObjectType.ValueString()))
	}
	if ot == "large object" && isKnown(m.ObjectName) && strings.Trim(m.ObjectName.ValueString(), "0123456789") != "" {
		resp.Diagnostics.AddAttributeError(path.Root("object_name"), "Invalid large object OID",
			fmt.Sprintf("A large object is named by its OID (digits), not %q.", m.ObjectName.ValueString()))
	}
}

// ImportByID takes `<object_type>.[<schema>.]<object_name>`, optionally
// prefixed with `<database>.` (tfkit.ObjectImportForm).
func (r *objectOwnerResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c, diags := objectOwnerImport.Resolve(ctx, importServer(r.client), req.ID, func(c *tfkit.ObjectImportCandidate) (bool, error) {
		_, found, err := r.client.ReadObjectOwner(ctx, c.DB, objectTarget(c))
		return found, err
	})
	if resp.Diagnostics.Append(diags...); c == nil {
		return
	}
	resp.Diagnostics.Append(c.SetState(ctx, &resp.State)...)
}

func (r *objectOwnerResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[objectOwnerModel]) {
	planDatabase(p, r.client, func(m *objectOwnerModel) *types.String { return &m.Database })
	p.Plan.ID = p.Plan.computeID()
}

func (m *objectOwnerModel) target() pg.ObjectTarget {
	return pg.ObjectTarget{ObjectType: m.ObjectType.ValueString(), Schema: m.Schema.ValueString(), Name: m.ObjectName.ValueString()}
}

// computeID writes the import ID of the object in the provider's database,
// unknown while a part is.
func (m *objectOwnerModel) computeID() types.String {
	parts := []types.String{m.ObjectType}
	if !m.Schema.IsNull() {
		parts = append(parts, m.Schema)
	}
	parts = append(parts, m.ObjectName)
	names := make([]string, len(parts))
	for i, p := range parts {
		if p.IsUnknown() || p.IsNull() {
			return types.StringUnknown()
		}
		names[i] = p.ValueString()
	}
	return types.StringValue(tfkit.ImportID(names...))
}

func (r *objectOwnerResource) Describe(m *objectOwnerModel) string {
	return fmt.Sprintf("ownership of %s in database %q", m.target().SQL(), databaseOf(r.client, m.Database))
}

// namesUsed: the database, the schema, the new owner, and the object when
// it is a database or a schema (awaitNames).
func (r *objectOwnerResource) namesUsed(m *objectOwnerModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "schema", m.Database, m.Schema)
	n.role("owner", m.Owner)
	switch strings.ToLower(m.ObjectType.ValueString()) {
	case "database":
		n.database("object_name", m.ObjectName)
	case "schema":
		n.schema(r.client, "object_name", m.Database, m.ObjectName)
	}
	return n
}

func (r *objectOwnerResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *objectOwnerModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

func (r *objectOwnerResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, _ *objectOwnerModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

func (r *objectOwnerResource) set(ctx context.Context, m *objectOwnerModel) diag.Diagnostics {
	return tfkit.Failed("Could not change the owner", r.client.SetObjectOwner(ctx, databaseOf(r.client, m.Database), m.target(), m.Owner.ValueString()))
}

// DropObject leaves the object and its owner as they are: the resource only stops
// managing the ownership.
func (r *objectOwnerResource) DropObject(context.Context, *tfkit.Call, *objectOwnerModel) diag.Diagnostics {
	return nil
}

// ReadObject refreshes the owner; the resource is gone with its object.
func (r *objectOwnerResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *objectOwnerModel) (bool, diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	owner, found, err := r.client.ReadObjectOwner(ctx, db, m.target())
	if err != nil || !found {
		return notFound("Could not read the owner", err)
	}
	m.Database = types.StringValue(db)
	m.Owner = types.StringValue(owner)
	m.ID = m.computeID()
	return true, nil
}

type objectOwnerModel struct {
	ID         types.String `tfsdk:"id"`
	Database   types.String `tfsdk:"database"`
	ObjectType types.String `tfsdk:"object_type"`
	Schema     types.String `tfsdk:"schema"`
	ObjectName types.String `tfsdk:"object_name"`
	Owner      types.String `tfsdk:"owner"`
}
