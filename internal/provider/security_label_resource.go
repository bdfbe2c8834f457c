package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	_ managedResource                         = (*securityLabelResource)(nil)
	_ tfkit.ChangePlanner[securityLabelModel] = (*securityLabelResource)(nil)
	_ tfkit.IDImporter                        = (*securityLabelResource)(nil)
)

// NewSecurityLabelResource is the constructor of postgresql_security_label.
func NewSecurityLabelResource() resource.Resource {
	r := &securityLabelResource{}
	// The object's identity (Terraform 1.12+) is `database`, `label_provider`, `object_type`, `schema`, `object_name`.
	r.Lifecycle = newLifecycle[securityLabelModel](r, "security_label", securityLabelSchemaV1, "database", "label_provider", "object_type", "schema", "object_name")
	return r
}

type securityLabelResource struct {
	tfkit.Lifecycle[securityLabelModel]
	withClient
}

func securityLabelSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A security label on an existing object (`SECURITY LABEL FOR provider ON ... IS 'label'`). A label provider module " +
			"(such as `sepgsql`, or `anon` of PostgreSQL Anonymizer) must be loaded in the server; it decides which labels are valid and who may set them. " +
			"The label changes in place; destroying the resource removes the label (`IS NULL`).",
		Attributes: map[string]schema.Attribute{
			"id":             tfkit.IDAttr("`<label_provider>.<object_type>.<object_name>` (as in cyrilgdn/postgresql), or `<label_provider>.<object_type>.<schema>.<object_name>` when `schema` is set."),
			"database":       databaseAttribute("labelled object"),
			"label_provider": nameAttribute("The label provider (`FOR provider`). Changing it replaces the label.", stringplanmodifier.RequiresReplace()),
			"object_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The type of the labelled object: " + "`" + strings.Join(pg.SecurityLabelObjectTypes, "`, `") + "`" +
					" (any letter case). Changing it replaces the label. Roles, databases, tablespaces and subscriptions are cluster-wide; the others belong to `database`.",
				Validators:    []validator.String{stringvalidator.OneOfCaseInsensitive(pg.SecurityLabelObjectTypes...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"object_name": nameAttribute("The name of the labelled object, one identifier (quoted as needed by the provider). For objects in a schema, set `schema` or the name is "+
				"resolved through the `search_path`; functions, procedures, routines and aggregates are found by name, which must be unique. Changing it replaces the label.", stringplanmodifier.RequiresReplace()),
			"schema": optionalNameAttribute("The schema of the labelled object, for object types that live in a schema. Unset: resolved through the `search_path`. Changing it replaces the label.", stringplanmodifier.RequiresReplace()),
			"label": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The label; its meaning and the allowed values are the label provider's. Changes in place.",
			},
		},
	}
}

func (m *securityLabelModel) target() pg.SecurityLabelTarget {
	return pg.SecurityLabelTarget{
		Provider: m.LabelProvider.ValueString(), ObjectType: m.ObjectType.ValueString(),
		Schema: m.Schema.ValueString(), Name: m.ObjectName.ValueString(),
	}
}

func (m *securityLabelModel) computeID() types.String {
	parts := []types.String{m.LabelProvider, m.ObjectType}
	if !m.Schema.IsNull() {
		parts = append(parts, m.Schema)
	}
	return joinedID(append(parts, m.ObjectName)...)
}

func (r *securityLabelResource) Describe(m *securityLabelModel) string {
	return fmt.Sprintf("security label of provider %q on %s %q", m.LabelProvider.ValueString(), m.ObjectType.ValueString(), m.ObjectName.ValueString())
}

// namesUsed: the database and schema, and the object when it is a role, a
// database or a schema (awaitNames).
func (r *securityLabelResource) namesUsed(m *securityLabelModel) []pg.Ref {
	return commentedNames(r.client, m.Database, m.ObjectType, m.Schema, m.ObjectName)
}

func (r *securityLabelResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *securityLabelModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

func (r *securityLabelResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, _ *securityLabelModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

// set sets the label m says.
func (r *securityLabelResource) set(ctx context.Context, m *securityLabelModel) diag.Diagnostics {
	label := m.Label.ValueString()
	return tfkit.Failed("Could not set security label", r.client.SetSecurityLabel(ctx, databaseOf(r.client, m.Database), m.target(), &label))
}

func (r *securityLabelResource) DropObject(ctx context.Context, _ *tfkit.Call, state *securityLabelModel) diag.Diagnostics {
	return tfkit.Failed("Could not remove security label", r.client.SetSecurityLabel(ctx, databaseOf(r.client, state.Database), state.target(), nil))
}

func (r *securityLabelResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *securityLabelModel) (bool, diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	label, ok, err := r.client.ReadSecurityLabel(ctx, db, m.target())
	if err != nil || !ok {
		return notFound("Could not read security label", err)
	}
	m.Database = types.StringValue(db)
	m.Label = types.StringValue(label)
	m.ID = m.computeID()
	return true, nil
}

// ImportByID takes cyrilgdn's ID `<label_provider>.<object_type>.<object_name>`
// (object in the provider's database, resolved through the search_path), or
// `<label_provider>.<object_type>.<schema>.<object_name>`, either optionally
// prefixed with `<database>.`; the reading that names an existing label wins
// (tfkit.ObjectImportForm). Names are written as in the import-ID grammar
// (internal/tfkit/import_id.go): a name that contains a dot in double quotes.
func (r *securityLabelResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c, diags := securityLabelImport.Resolve(ctx, importServer(r.client), req.ID, func(c *tfkit.ObjectImportCandidate) (bool, error) {
		t := pg.SecurityLabelTarget{Provider: c.Prefix[0], ObjectType: c.Type, Schema: c.Schema, Name: c.Name}
		_, ok, err := r.client.ReadSecurityLabel(ctx, c.DB, t)
		return ok, err
	})
	if resp.Diagnostics.Append(diags...); c == nil {
		return
	}
	resp.Diagnostics.Append(c.SetState(ctx, &resp.State)...)
}

// securityLabelImport is the import ID of postgresql_security_label (ImportByID).
var securityLabelImport = tfkit.ObjectImportForm{
	What:   "security label",
	Usage:  "`<label_provider>.<object_type>.<object_name>` or `<label_provider>.<object_type>.<schema>.<object_name>`, optionally prefixed with `<database>.`",
	Prefix: []string{"label_provider"},
	Types:  pg.SecurityLabelObjectTypes,
}

func (r *securityLabelResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[securityLabelModel]) {
	planDatabase(p, r.client, func(m *securityLabelModel) *types.String { return &m.Database })
	p.Plan.ID = p.Plan.computeID()
}

func (r *securityLabelResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeSecurityLabelV0, "database", "schema"),
	}
}

type securityLabelModel struct {
	ID            types.String `tfsdk:"id"`
	Database      types.String `tfsdk:"database"`
	LabelProvider types.String `tfsdk:"label_provider"`
	ObjectType    types.String `tfsdk:"object_type"`
	ObjectName    types.String `tfsdk:"object_name"`
	Schema        types.String `tfsdk:"schema"`
	Label         types.String `tfsdk:"label"`
}
