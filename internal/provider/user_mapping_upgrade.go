package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// userMappingSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_user_mapping (types only).
func userMappingSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":          schema.StringAttribute{Optional: true, Computed: true},
			"server_name": schema.StringAttribute{Required: true},
			"user_name":   schema.StringAttribute{Required: true},
			"options":     schema.MapAttribute{ElementType: types.StringType, Optional: true},
		},
	}
}

type userMappingModelV0 struct {
	ID         types.String `tfsdk:"id"`
	ServerName types.String `tfsdk:"server_name"`
	UserName   types.String `tfsdk:"user_name"`
	Options    types.Map    `tfsdk:"options"`
}

// upgradeUserMappingStateV0 reads cyrilgdn's layout (id `<user_name>.<server_name>`,
// options null after apply and {} after a refresh, both kept: the plan treats
// them alike). The mapping lives in the provider's database, which the next
// refresh records, as it does the OID.
func upgradeUserMappingStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old userMappingModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeUserMappingV0(old))...)
}

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
