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
)

var _ managedResource = (*securityLabelResource)(nil)

// NewSecurityLabelResource is the constructor of postgresql_security_label.
func NewSecurityLabelResource() resource.Resource {
	r := &securityLabelResource{}
	// The object's identity (Terraform 1.12+) is `database`, `label_provider`, `object_type`, `schema`, `object_name`.
	r.lifecycle = newLifecycle[securityLabelModel](r, "security_label", securityLabelSchemaV1, "database", "label_provider", "object_type", "schema", "object_name")
	return r
}

type securityLabelResource struct {
	lifecycle[securityLabelModel]
	withClient
}

func securityLabelSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A security label on an existing object (`SECURITY LABEL FOR provider ON ... IS 'label'`). A label provider module " +
			"(such as `sepgsql`, or `anon` of PostgreSQL Anonymizer) must be loaded in the server; it decides which labels are valid and who may set them. " +
			"The label changes in place; destroying the resource removes the label (`IS NULL`).",
		Attributes: map[string]schema.Attribute{
			"id":             idAttribute("`<label_provider>.<object_type>.<object_name>` (as in cyrilgdn/postgresql), or `<label_provider>.<object_type>.<schema>.<object_name>` when `schema` is set."),
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

func (r *securityLabelResource) describe(m *securityLabelModel) string {
	return fmt.Sprintf("security label of provider %q on %s %q", m.LabelProvider.ValueString(), m.ObjectType.ValueString(), m.ObjectName.ValueString())
}

func (r *securityLabelResource) create(ctx context.Context, _ *call, plan *securityLabelModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

func (r *securityLabelResource) update(ctx context.Context, _ *call, plan, _ *securityLabelModel) diag.Diagnostics {
	return r.set(ctx, plan)
}

// set sets the label m says.
func (r *securityLabelResource) set(ctx context.Context, m *securityLabelModel) diag.Diagnostics {
	label := m.Label.ValueString()
	return failed("Could not set security label", r.client.SetSecurityLabel(ctx, databaseOf(r.client, m.Database), m.target(), &label))
}

func (r *securityLabelResource) drop(ctx context.Context, _ *call, state *securityLabelModel) diag.Diagnostics {
	return failed("Could not remove security label", r.client.SetSecurityLabel(ctx, databaseOf(r.client, state.Database), state.target(), nil))
}

func (r *securityLabelResource) read(ctx context.Context, _ *call, m *securityLabelModel) (bool, diag.Diagnostics) {
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

// importState takes cyrilgdn's ID `<label_provider>.<object_type>.<object_name>`
// (object in the provider's database, resolved through the search_path), or
// `<label_provider>.<object_type>.<schema>.<object_name>`, either optionally
// prefixed with `<database>.`; the reading that names an existing label wins
// (objectImportForm). Names are written as in the import-ID grammar
// (import_id.go): a name that contains a dot in double quotes.
func (r *securityLabelResource) importState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	c, diags := securityLabelImport.resolve(ctx, r.client, req.ID, func(c *objectImportCandidate) (bool, error) {
		t := pg.SecurityLabelTarget{Provider: c.prefix[0], ObjectType: c.typ, Schema: c.schema, Name: c.name}
		_, ok, err := r.client.ReadSecurityLabel(ctx, c.db, t)
		return ok, err
	})
	if resp.Diagnostics.Append(diags...); c == nil {
		return
	}
	resp.Diagnostics.Append(c.setState(ctx, &resp.State)...)
}

// securityLabelImport is the import ID of postgresql_security_label (importState).
var securityLabelImport = objectImportForm{
	what:   "security label",
	usage:  "`<label_provider>.<object_type>.<object_name>` or `<label_provider>.<object_type>.<schema>.<object_name>`, optionally prefixed with `<database>.`",
	prefix: []string{"label_provider"},
	types:  pg.SecurityLabelObjectTypes,
}

func (r *securityLabelResource) planChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *planned[securityLabelModel]) {
	planDatabase(p, r.client, func(m *securityLabelModel) *types.String { return &m.Database })
	p.plan.ID = p.plan.computeID()
}

func (r *securityLabelResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: upgradeFromV0(upgradeSecurityLabelV0, "database", "schema"),
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
