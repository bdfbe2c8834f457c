package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// schemaModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_schema.
type schemaModelV0 struct {
	ID          types.String        `tfsdk:"id"`
	Name        types.String        `tfsdk:"name"`
	Database    types.String        `tfsdk:"database"`
	Owner       types.String        `tfsdk:"owner"`
	IfNotExists types.Bool          `tfsdk:"if_not_exists"`
	DropCascade types.Bool          `tfsdk:"drop_cascade"`
	Policy      []schemaPolicyModel `tfsdk:"policy" prior:"set"`
}

// upgradeSchemaV0 reads cyrilgdn's layout: policy is a set of objects with
// every attribute present (role "" = PUBLIC); after an import if_not_exists and
// drop_cascade are null. The OIDs are filled by the next refresh.
func upgradeSchemaV0(_ context.Context, old schemaModelV0) (schemaModel, diag.Diagnostics) {
	// cyrilgdn stores unset flags as false, as this provider does, and an
	// unset role as "": here it is null, as a configuration that leaves it out
	// plans it.
	flag := func(v types.Bool) types.Bool { return types.BoolValue(v.ValueBool()) }
	grants := make([]schemaPolicyModel, 0, len(old.Policy))
	for _, p := range old.Policy {
		role := p.Role
		if role.IsUnknown() || role.ValueString() == "" {
			role = types.StringNull()
		}
		grants = append(grants, schemaPolicyModel{Role: role, Usage: flag(p.Usage), UsageWithGrant: flag(p.UsageWithGrant),
			Create: flag(p.Create), CreateWithGrant: flag(p.CreateWithGrant)})
	}
	set, diags := policySet(grants)
	if diags.HasError() {
		return schemaModel{}, diags
	}
	id := old.ID
	if id.IsNull() || id.ValueString() == "" {
		id = types.StringValue(old.Database.ValueString() + "." + old.Name.ValueString())
	}
	owner := old.Owner
	if owner.IsUnknown() {
		owner = types.StringNull()
	}
	return schemaModel{
		ID:          id,
		OID:         types.Int64Null(),
		DatabaseOID: types.Int64Null(),
		Name:        old.Name,
		Database:    old.Database,
		Owner:       owner,
		IfNotExists: boolOr(old.IfNotExists, true),
		DropCascade: boolOr(old.DropCascade, false),
		Policy:      set,
	}, diags
}
