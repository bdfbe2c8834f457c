package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeReplicationSlotV0: the layout is the same; only the id is
// recomputed when missing.
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
