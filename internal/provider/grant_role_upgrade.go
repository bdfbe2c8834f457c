package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// grantRoleSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_grant_role (types only).
func grantRoleSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":                schema.StringAttribute{Optional: true, Computed: true},
			"role":              schema.StringAttribute{Required: true},
			"grant_role":        schema.StringAttribute{Required: true},
			"with_admin_option": schema.BoolAttribute{Optional: true},
		},
	}
}

type grantRoleModelV0 struct {
	ID              types.String `tfsdk:"id"`
	Role            types.String `tfsdk:"role"`
	GrantRole       types.String `tfsdk:"grant_role"`
	WithAdminOption types.Bool   `tfsdk:"with_admin_option"`
}

// upgradeGrantRoleStateV0 reads cyrilgdn's layout; its `<role>_<grant_role>_<admin>`
// id is replaced by the JSON import ID.
func upgradeGrantRoleStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old grantRoleModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeGrantRoleV0(old))...)
}

func upgradeGrantRoleV0(old grantRoleModelV0) grantRoleModel {
	m := grantRoleModel{
		Role: old.Role, GrantRole: old.GrantRole, WithAdminOption: boolOr(old.WithAdminOption, false),
		InheritOption: types.BoolNull(), SetOption: types.BoolNull(),
	}
	m.ID = types.StringValue(m.id())
	return m
}
