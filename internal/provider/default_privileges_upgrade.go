package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeDefaultPrivilegesV0 reads cyrilgdn/postgresql 1.26's
// postgresql_default_privileges, whose layout is defaultPrivilegesModel's:
// `privileges = []` is stored as null there (-> empty set); the
// `<role>_<db>_<schema|noschema>_<owner>_<type>` id is replaced by the JSON
// import ID.
func upgradeDefaultPrivilegesV0(m defaultPrivilegesModel) defaultPrivilegesModel {
	m.WithGrantOption = boolOr(m.WithGrantOption, false)
	if m.Schema.IsUnknown() || (!m.Schema.IsNull() && m.Schema.ValueString() == "") {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = stringSet(nil)
	}
	m.ID = types.StringValue(m.id())
	return m
}
