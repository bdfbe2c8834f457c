package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeGrantRoleV0 reads cyrilgdn/postgresql 1.26's postgresql_grant_role,
// whose layout is grantRoleModel's less inherit_option and set_option; its
// `<role>_<grant_role>_<admin>` id is replaced by the JSON import ID.
func upgradeGrantRoleV0(m grantRoleModel) grantRoleModel {
	m.WithAdminOption = boolOr(m.WithAdminOption, false)
	m.InheritOption = types.BoolNull()
	m.SetOption = types.BoolNull()
	m.ID = types.StringValue(m.id())
	return m
}
