package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeGrantRoleV0 reads cyrilgdn/postgresql 1.26's postgresql_grant_role,
// whose layout is grantRoleModel's less inherit_option and set_option; its id
// is cyrilgdn's `<role>_<grant_role>_<with_admin_option>`, computed again
// (the same text).
func upgradeGrantRoleV0(m grantRoleModel) grantRoleModel {
	m.WithAdminOption = boolOr(m.WithAdminOption, false)
	m.InheritOption = types.BoolNull()
	m.SetOption = types.BoolNull()
	m.ID = types.StringValue(m.id())
	return m
}
