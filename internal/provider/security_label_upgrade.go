package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeSecurityLabelV0 reads cyrilgdn/postgresql 1.26's
// postgresql_security_label, whose layout is securityLabelModel's less
// database and schema (id `<label_provider>.<object_type>.<object_name>`,
// unqualified object names). The object is in the provider's database, which
// the next refresh records.
func upgradeSecurityLabelV0(m securityLabelModel) securityLabelModel {
	m.ID = types.StringValue(m.LabelProvider.ValueString() + "." + m.ObjectType.ValueString() + "." + m.ObjectName.ValueString())
	m.Database = types.StringNull()
	m.Schema = types.StringNull()
	return m
}
