package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// physicalReplicationSlotSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_physical_replication_slot (types only).
func physicalReplicationSlotSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":   schema.StringAttribute{Optional: true, Computed: true},
			"name": schema.StringAttribute{Required: true},
		},
	}
}

// upgradePhysicalReplicationSlotStateV0: same layout; the id is the name.
func upgradePhysicalReplicationSlotStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old physicalReplicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, physicalReplicationSlotModel{ID: old.Name, Name: old.Name})...)
}
