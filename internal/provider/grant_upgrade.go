package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// grantModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_grant.
type grantModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	Database        types.String `tfsdk:"database"`
	Schema          types.String `tfsdk:"schema"`
	ObjectType      types.String `tfsdk:"object_type"`
	Objects         types.Set    `tfsdk:"objects"`
	Columns         types.Set    `tfsdk:"columns"`
	Privileges      types.Set    `tfsdk:"privileges"`
	WithGrantOption types.Bool   `tfsdk:"with_grant_option"`
}

// upgradeGrantV0 reads cyrilgdn's layout: `privileges = []` is stored
// there as null (-> empty set), null objects/columns become [] (unset and []
// mean the same, "all"/"none", and the state always records [] so that either
// spelling in the configuration plans no change), and the ambiguous
// `<role>_<db>_<schema>_<type>...` id is replaced by the JSON import ID.
func upgradeGrantV0(ctx context.Context, old grantModelV0) (grantModel, diag.Diagnostics) {
	m := grantModel{
		Role:            old.Role,
		Database:        old.Database,
		Schema:          old.Schema,
		ObjectType:      old.ObjectType,
		Objects:         emptyIfNull(old.Objects),
		Columns:         emptyIfNull(old.Columns),
		Privileges:      old.Privileges,
		WithGrantOption: boolOr(old.WithGrantOption, false),
	}
	if m.Schema.IsUnknown() || (!m.Schema.IsNull() && m.Schema.ValueString() == "") {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = stringSet(nil)
	}
	m.ID = types.StringValue(m.id(ctx))
	return m, nil
}
