package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// schemaSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_schema (types only).
func schemaSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":            schema.StringAttribute{Optional: true, Computed: true},
			"name":          schema.StringAttribute{Required: true},
			"database":      schema.StringAttribute{Optional: true, Computed: true},
			"owner":         schema.StringAttribute{Optional: true, Computed: true},
			"if_not_exists": schema.BoolAttribute{Optional: true},
			"drop_cascade":  schema.BoolAttribute{Optional: true},
		},
		Blocks: map[string]schema.Block{
			"policy": schema.SetNestedBlock{
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"role":              schema.StringAttribute{Optional: true},
						"usage":             schema.BoolAttribute{Optional: true},
						"usage_with_grant":  schema.BoolAttribute{Optional: true},
						"create":            schema.BoolAttribute{Optional: true},
						"create_with_grant": schema.BoolAttribute{Optional: true},
					},
				},
			},
		},
	}
}

type schemaModelV0 struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Database    types.String `tfsdk:"database"`
	Owner       types.String `tfsdk:"owner"`
	IfNotExists types.Bool   `tfsdk:"if_not_exists"`
	DropCascade types.Bool   `tfsdk:"drop_cascade"`
	Policy      types.Set    `tfsdk:"policy"`
}

// upgradeSchemaStateV0 reads cyrilgdn's layout: policy is a set of objects with
// every attribute present (role "" = PUBLIC); after an import if_not_exists and
// drop_cascade are null. The OIDs are filled by the next refresh.
func upgradeSchemaStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old schemaModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var pols []schemaPolicyModel
	if !old.Policy.IsNull() && !old.Policy.IsUnknown() {
		resp.Diagnostics.Append(old.Policy.ElementsAs(ctx, &pols, false)...)
	}
	// cyrilgdn stores unset flags as false and an unset role as "": here they
	// are null, as a configuration that leaves them out plans them.
	nullFalse := func(v types.Bool) types.Bool {
		if v.IsUnknown() || !v.ValueBool() {
			return types.BoolNull()
		}
		return v
	}
	grants := make([]schemaPolicyModel, 0, len(pols))
	for _, p := range pols {
		role := p.Role
		if role.IsUnknown() || role.ValueString() == "" {
			role = types.StringNull()
		}
		grants = append(grants, schemaPolicyModel{Role: role, Usage: nullFalse(p.Usage), UsageWithGrant: nullFalse(p.UsageWithGrant),
			Create: nullFalse(p.Create), CreateWithGrant: nullFalse(p.CreateWithGrant)})
	}
	set, diags := policySet(grants)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = types.StringValue(old.Database.ValueString() + "." + old.Name.ValueString())
	}
	owner := old.Owner
	if owner.IsUnknown() {
		owner = types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, schemaModel{
		ID:          id,
		OID:         types.Int64Null(),
		DatabaseOID: types.Int64Null(),
		Name:        old.Name,
		Database:    old.Database,
		Owner:       owner,
		IfNotExists: boolOr(old.IfNotExists, true),
		DropCascade: boolOr(old.DropCascade, false),
		Policy:      set,
	})...)
}
