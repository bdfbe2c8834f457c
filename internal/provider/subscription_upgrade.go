package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// subscriptionModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_subscription.
type subscriptionModelV0 struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Database     types.String `tfsdk:"database"`
	Conninfo     types.String `tfsdk:"conninfo"`
	Publications types.Set    `tfsdk:"publications"`
	CreateSlot   types.Bool   `tfsdk:"create_slot"`
	SlotName     types.String `tfsdk:"slot_name"`
}

// upgradeSubscriptionV0 reads cyrilgdn's layout. create_slot and
// slot_name are null after a cyrilgdn import (and slot_name whenever it was
// not configured): create_slot becomes false (it only matters at creation and
// never replaces), slot_name stays null so the next refresh reads it.
// enabled, which cyrilgdn does not model, is true (the next refresh reads it).
func upgradeSubscriptionV0(old subscriptionModelV0) subscriptionModel {
	m := subscriptionModel{
		OID:          types.Int64Null(),
		Name:         old.Name,
		Database:     old.Database,
		Conninfo:     old.Conninfo,
		Publications: old.Publications,
		CreateSlot:   boolOr(old.CreateSlot, false),
		SlotName:     old.SlotName,
		Enabled:      types.BoolValue(true), // cyrilgdn has no such argument: its subscriptions are created enabled
	}
	if !isKnown(m.Database) {
		m.Database = types.StringNull()
	}
	m.ID = types.StringNull()
	if isKnown(m.Database) {
		m.ID = types.StringValue(m.Database.ValueString() + "." + m.Name.ValueString())
	}
	return m
}
