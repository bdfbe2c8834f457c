package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// grantRoleModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_grant_role.
type grantRoleModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	GrantRole       types.String `tfsdk:"grant_role"`
	WithAdminOption types.Bool   `tfsdk:"with_admin_option"`
}

// upgradeGrantRoleV0 reads cyrilgdn's layout; its `<role>_<grant_role>_<admin>`
// id is replaced by the JSON import ID.
func upgradeGrantRoleV0(old grantRoleModelV0) grantRoleModel {
	m := grantRoleModel{
		Role: old.Role, GrantRole: old.GrantRole, WithAdminOption: boolOr(old.WithAdminOption, false),
		InheritOption: types.BoolNull(), SetOption: types.BoolNull(),
	}
	m.ID = types.StringValue(m.id())
	return m
}
