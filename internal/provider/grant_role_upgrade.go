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

// upgradeGrantRoleV1 reads the states this provider wrote with schema
// version 1, whose id was a JSON object: the layout is the same, the id
// becomes cyrilgdn's (grantRoleID).
func upgradeGrantRoleV1(m grantRoleModel) grantRoleModel {
	m.ID = types.StringValue(m.id())
	return m
}
