package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// defaultPrivilegesModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_default_privileges.
type defaultPrivilegesModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	Database        types.String `tfsdk:"database"`
	Owner           types.String `tfsdk:"owner"`
	Schema          types.String `tfsdk:"schema"`
	ObjectType      types.String `tfsdk:"object_type"`
	Privileges      types.Set    `tfsdk:"privileges"`
	WithGrantOption types.Bool   `tfsdk:"with_grant_option"`
}

// upgradeDefaultPrivilegesV0 reads cyrilgdn's layout: `privileges = []`
// is stored as null there (-> empty set); the `<role>_<db>_<schema|noschema>_<owner>_<type>`
// id is replaced by the JSON import ID.
func upgradeDefaultPrivilegesV0(old defaultPrivilegesModelV0) defaultPrivilegesModel {
	m := defaultPrivilegesModel{
		Role: old.Role, Database: old.Database, Owner: old.Owner, Schema: old.Schema, ObjectType: old.ObjectType,
		Privileges: old.Privileges, WithGrantOption: boolOr(old.WithGrantOption, false),
	}
	if m.Schema.IsUnknown() || (!m.Schema.IsNull() && m.Schema.ValueString() == "") {
		m.Schema = types.StringNull()
	}
	if m.Privileges.IsNull() || m.Privileges.IsUnknown() {
		m.Privileges = stringSet(nil)
	}
	m.ID = types.StringValue(m.id())
	return m
}
