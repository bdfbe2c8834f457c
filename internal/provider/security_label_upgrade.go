package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// securityLabelModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_security_label.
type securityLabelModelV0 struct {
	ID            types.String `tfsdk:"id"`
	ObjectType    types.String `tfsdk:"object_type"`
	ObjectName    types.String `tfsdk:"object_name"`
	LabelProvider types.String `tfsdk:"label_provider"`
	Label         types.String `tfsdk:"label"`
}

// upgradeSecurityLabelV0 reads cyrilgdn's layout (id
// `<label_provider>.<object_type>.<object_name>`, unqualified object names).
// The object is in the provider's database, which the next refresh records.
func upgradeSecurityLabelV0(old securityLabelModelV0) securityLabelModel {
	return securityLabelModel{
		ID:            types.StringValue(old.LabelProvider.ValueString() + "." + old.ObjectType.ValueString() + "." + old.ObjectName.ValueString()),
		Database:      types.StringNull(),
		LabelProvider: old.LabelProvider,
		ObjectType:    old.ObjectType,
		ObjectName:    old.ObjectName,
		Schema:        types.StringNull(),
		Label:         old.Label,
	}
}
