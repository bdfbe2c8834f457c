package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// userMappingModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_user_mapping.
type userMappingModelV0 struct {
	ID         types.String `tfsdk:"id"`
	ServerName types.String `tfsdk:"server_name"`
	UserName   types.String `tfsdk:"user_name"`
	Options    types.Map    `tfsdk:"options"`
}

// upgradeUserMappingV0 reads cyrilgdn's layout (id `<user_name>.<server_name>`,
// options null after apply and {} after a refresh, both kept: the plan treats
// them alike). The mapping lives in the provider's database, which the next
// refresh records, as it does the OID.
func upgradeUserMappingV0(old userMappingModelV0) userMappingModel {
	return userMappingModel{
		ID:         types.StringValue(old.UserName.ValueString() + "." + old.ServerName.ValueString()),
		OID:        types.Int64Null(),
		Database:   types.StringNull(),
		ServerName: old.ServerName,
		UserName:   old.UserName,
		Options:    old.Options,
	}
}
