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
	_ validatedResource                 = (*commentResource)(nil)
	_ tfkit.ChangePlanner[commentModel] = (*commentResource)(nil)
	_ tfkit.IDImporter                  = (*commentResource)(nil)
)

// NewCommentResource is the constructor of postgresql_comment.
func NewCommentResource() resource.Resource {
	r := &commentResource{}
	// The object's identity (Terraform 1.12+) is `database`, `object_type`, `schema`, `object_name`, `column_name`.
	r.Lifecycle = newLifecycle[commentModel](r, "comment", commentSchemaV1, "database", "object_type", "schema", "object_name", "column_name")
	return r
}

type commentResource struct {
	tfkit.Lifecycle[commentModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_comment
}

const commentImportUsage = "`<object_type>.<object_name>`, `<object_type>.<schema>.<object_name>`, `column.<table>.<column_name>` or " +
	"`column.<schema>.<table>.<column_name>`, optionally prefixed with `<database>.`"

func commentSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "The comment of an existing object (`COMMENT ON <object_type> <name> IS 'comment'`), as `psql` shows with `\\d+` and `\\dd`. " +
			"The comment changes in place; destroying the resource removes it (`IS NULL`). Setting a comment requires ownership of the object " +
			"(`CREATEROLE` for a role); a provider role that is not the owner borrows the owner's privileges for the statement.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "`<object_type>.[<schema>.]<object_name>[.<column_name>]`, names that contain a dot in double quotes: the import ID " +
					"of the comment in the provider's database.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"database": commentDatabaseAttribute(),
			"object_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The type of the commented object: " + "`" + strings.Join(pg.CommentObjectTypes, "`, `") + "`" +
					" (any letter case). Roles, databases and tablespaces are cluster-wide (their comments too); the others belong to `database`. Changing it replaces the comment.",
				Validators:    []validator.String{stringvalidator.OneOfCaseInsensitive(pg.CommentObjectTypes...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"schema": optionalNameAttribute("The schema of the commented object (of its table, for a column), for object types that live in a schema; not allowed for "+
				"`"+strings.Join(pg.UnqualifiedObjectTypes, "`, `")+"`. Unset: resolved through the `search_path`. Changing it replaces the comment.", stringplanmodifier.RequiresReplace()),
			"object_name": nameAttribute("The name of the commented object (of the table, for a column), one identifier (quoted as needed by the provider). "+
				"Functions, procedures and routines are found by name, which must be unique. Changing it replaces the comment.", stringplanmodifier.RequiresReplace()),
			"column_name": optionalNameAttribute("The column, with `object_type = \"column\"` (required then, not allowed otherwise). Changing it replaces the comment.", stringplanmodifier.RequiresReplace()),
			"comment": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The comment. Not empty: PostgreSQL stores an empty comment as none (destroy the resource to remove the comment). " +
					"Changes in place.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// commentDatabaseAttribute is databaseAttribute with a description that fits:
// the resource is the comment, not the object, which stays.
func commentDatabaseAttribute() schema.StringAttribute {
	a := databaseAttribute("commented object")
	a.MarkdownDescription = "The database holding the commented object; for roles, databases and tablespaces (whose comments are cluster-wide) " +
		"the database the provider connects to. Defaults to the provider's `database`. Changing it replaces the comment " +
		"(it is removed from the object in the old database)."
	return a
}

// ValidateConfig checks the attributes that depend on object_type: column_name
// with (only) columns, schema only for objects that live in a schema.
func (r *commentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m commentModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !isKnown(m.ObjectType) {
		return
	}
	ot := strings.ToLower(m.ObjectType.ValueString())
	if !m.ColumnName.IsUnknown() {
		switch {
		case ot == "column" && m.ColumnName.IsNull():
			resp.Diagnostics.AddAttributeError(path.Root("column_name"), "Missing column_name", "object_type \"column\" needs column_name.")
		case ot != "column" && !m.ColumnName.IsNull():
			resp.Diagnostics.AddAttributeError(path.Root("column_name"), "Unexpected column_name",
				fmt.Sprintf("column_name is only allowed with object_type \"column\", not %q.", m.ObjectType.ValueString()))
		}
	}
	if !m.Schema.IsUnknown() && !m.Schema.IsNull() && slices.Contains(pg.UnqualifiedObjectTypes, ot) {
		resp.Diagnostics.AddAttributeError(path.Root("schema"), "Unexpected schema",
			fmt.Sprintf("object_type %q names an object that belongs to no schema; schema must be unset.", m.ObjectType.ValueString()))
	}
}

func (m *commentModel) target() pg.ObjectTarget {
	return pg.ObjectTarget{
		ObjectType: m.ObjectType.ValueString(), Schema: m.Schema.ValueString(),
		Name: m.ObjectName.ValueString(), Column: m.ColumnName.ValueString(),
	}
}

// computeID writes the import ID of the comment in the provider's database
// (internal/tfkit/import_id.go), unknown while a part is.
func (m *commentModel) computeID() types.String {
	parts := []types.String{m.ObjectType}
	if !m.Schema.IsNull() {
		parts = append(parts, m.Schema)
	}
	parts = append(parts, m.ObjectName)
	if !m.ColumnName.IsNull() {
		parts = append(parts, m.ColumnName)
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		if p.IsUnknown() || p.IsNull() {
			return types.StringUnknown()
		}
		names[i] = p.ValueString()
	}
	return types.StringValue(tfkit.ImportID(names...))
}

func (r *commentResource) Describe(m *commentModel) string {
	return fmt.Sprintf("comment on %s in database %q", m.target().SQL(), databaseOf(r.client, m.Database))
}

// namesUsed: the database and schema, and the object when it is a role, a
// database or a schema (awaitNames).
func (r *commentResource) namesUsed(m *commentModel) []pg.Ref {
	return commentedNames(r.client, m.Database, m.ObjectType, m.Schema, m.ObjectName)
}

func (r *commentResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *commentModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

func (r *commentResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, _ *commentModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

// set sets the comment m says.
func (r *commentResource) set(ctx context.Context, m *commentModel) diag.Diagnostics {
	defer r.client.Claim(r.factKey(m))()
	return tfkit.Failed("Could not set comment", r.client.SetComment(ctx, databaseOf(r.client, m.Database), m.target(), m.Comment.ValueString()))
}

// factKey is the comment's fact (pg/claims.go).
func (r *commentResource) factKey(m *commentModel) string {
	return pg.FactKey("comment", databaseOf(r.client, m.Database), m.target().SQL())
}

// DropObject removes the comment, unless another resource of this apply
// states it (it moved to another address: pg/claims.go). A role, database or schema renamed since
// the last read is followed by the OID recorded then (a comment removed in
// the apply that renames its role back, found by the walk), and a rename
// that lands while the comment is removed is looked up again.
func (r *commentResource) DropObject(ctx context.Context, c *tfkit.Call, state *commentModel) diag.Diagnostics {
	claimed, release := r.client.Retract(r.factKey(state))
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	db, t := databaseOf(r.client, state.Database), state.target()
	t.OID = privateOID(ctx, c, privateObjectOID)
	for try := 0; ; try++ {
		if err := r.client.DropComment(ctx, db, t); err != nil {
			return tfkit.Failed("Could not remove comment", err)
		}
		left, err := r.client.ReadComment(ctx, db, t)
		if err != nil || left == nil || try == 2 {
			return tfkit.Failed("Could not remove comment", err)
		}
	}
}

// ReadObject reads the comment (following a role, database or schema
// renamed since the last read by its OID) and records the object's OID.
func (r *commentResource) ReadObject(ctx context.Context, c *tfkit.Call, m *commentModel) (bool, diag.Diagnostics) {
	db, t := databaseOf(r.client, m.Database), m.target()
	t.OID = privateOID(ctx, c, privateObjectOID)
	found, err := r.client.ReadComment(ctx, db, t)
	if err != nil || found == nil {
		return notFound("Could not read comment", err)
	}
	m.Database = types.StringValue(db)
	m.Comment = types.StringValue(found.Text)
	m.ID = m.computeID()
	return true, savePrivateOID(ctx, c, privateObjectOID, found.OID)
}

// commentImport is the import ID of a comment.
var commentImport = tfkit.ObjectImportForm{What: "comment", Usage: commentImportUsage, Types: pg.CommentObjectTypes, Unqualified: pg.UnqualifiedObjectTypes, Columns: true}

// ImportByID takes the ID `<object_type>.<object_name>`,
// `<object_type>.<schema>.<object_name>`, `column.<table>.<column_name>` or
// `column.<schema>.<table>.<column_name>`, optionally prefixed with
// `<database>.` (the provider's database when left out), names written as in
// the import-ID grammar (internal/tfkit/import_id.go). Like postgresql_security_label's, the
// ID has a variable number of names, so it does not fit tfkit.ImportForm: every
// reading is tried against the server (the provider's database first) and the
// one that names an existing comment wins (importObjectTarget).
func (r *commentResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c, diags := commentImport.Resolve(ctx, importServer(r.client), req.ID, func(c *tfkit.ObjectImportCandidate) (bool, error) {
		found, err := r.client.ReadComment(ctx, c.DB, objectTarget(c))
		return found != nil, err
	})
	if resp.Diagnostics.Append(diags...); c == nil {
		return
	}
	resp.Diagnostics.Append(c.SetState(ctx, &resp.State)...)
}

func (r *commentResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[commentModel]) {
	planDatabase(p, r.client, func(m *commentModel) *types.String { return &m.Database })
	p.Plan.ID = p.Plan.computeID()
}

type commentModel struct {
	ID         types.String `tfsdk:"id"`
	Database   types.String `tfsdk:"database"`
	ObjectType types.String `tfsdk:"object_type"`
	Schema     types.String `tfsdk:"schema"`
	ObjectName types.String `tfsdk:"object_name"`
	ColumnName types.String `tfsdk:"column_name"`
	Comment    types.String `tfsdk:"comment"`
}
