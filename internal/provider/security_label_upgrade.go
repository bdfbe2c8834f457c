package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// securityLabelSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_security_label (types only).
func securityLabelSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":             schema.StringAttribute{Optional: true, Computed: true},
			"object_type":    schema.StringAttribute{Required: true},
			"object_name":    schema.StringAttribute{Required: true},
			"label_provider": schema.StringAttribute{Required: true},
			"label":          schema.StringAttribute{Required: true},
		},
	}
}

type securityLabelModelV0 struct {
	ID            types.String `tfsdk:"id"`
	ObjectType    types.String `tfsdk:"object_type"`
	ObjectName    types.String `tfsdk:"object_name"`
	LabelProvider types.String `tfsdk:"label_provider"`
	Label         types.String `tfsdk:"label"`
}

// upgradeSecurityLabelStateV0 reads cyrilgdn's layout (id
// `<label_provider>.<object_type>.<object_name>`, unqualified object names).
// The object is in the provider's database, which the next refresh records.
func upgradeSecurityLabelStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old securityLabelModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeSecurityLabelV0(old))...)
}

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
