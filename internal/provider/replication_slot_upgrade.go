package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// replicationSlotSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_replication_slot (types only).
func replicationSlotSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":       schema.StringAttribute{Optional: true, Computed: true},
			"name":     schema.StringAttribute{Required: true},
			"plugin":   schema.StringAttribute{Required: true},
			"database": schema.StringAttribute{Optional: true, Computed: true},
		},
	}
}

// upgradeReplicationSlotStateV0: the layout is the same; only the id is
// recomputed when missing.
func upgradeReplicationSlotStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old replicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, upgradeReplicationSlotV0(old))...)
}

func upgradeReplicationSlotV0(old replicationSlotModel) replicationSlotModel {
	m := replicationSlotModel{Name: old.Name, Plugin: old.Plugin, Database: old.Database, ID: old.ID}
	if !isKnown(m.Database) {
		m.Database = types.StringNull() // filled by the next refresh
	}
	if !isKnown(m.ID) || m.ID.ValueString() == "" {
		m.ID = types.StringNull()
		if isKnown(m.Database) {
			m.ID = types.StringValue(m.Database.ValueString() + "." + m.Name.ValueString())
		}
	}
	return m
}
