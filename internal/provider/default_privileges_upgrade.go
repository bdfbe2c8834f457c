package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// upgradeDefaultPrivilegesV0 reads cyrilgdn/postgresql 1.26's
// postgresql_default_privileges, whose layout is defaultPrivilegesModel's:
// `privileges = []` is stored as null there (-> empty set); the id is
// cyrilgdn's `<role>_<db>_<schema|noschema>_<owner>_<type>`, computed again
// (the same text).
func upgradeDefaultPrivilegesV0(m defaultPrivilegesModel) defaultPrivilegesModel {
	m.WithGrantOption = boolOr(m.WithGrantOption, false)
	if m.Schema.IsUnknown() {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = tfkit.StringSet(nil)
	}
	m.ID = types.StringValue(m.id())
	return m
}
