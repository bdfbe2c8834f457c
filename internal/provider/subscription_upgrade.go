package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradeSubscriptionV0 reads cyrilgdn/postgresql 1.26's
// postgresql_subscription, whose layout is subscriptionModel's less oid and
// enabled. create_slot and slot_name are null after a cyrilgdn import (and
// slot_name whenever it was not configured): create_slot becomes false (it
// only matters at creation and never replaces), slot_name stays null so the
// next refresh reads it. enabled, which cyrilgdn does not model, is true (the
// next refresh reads it).
func upgradeSubscriptionV0(m subscriptionModel) subscriptionModel {
	m.OID = types.Int64Null()
	m.CreateSlot = boolOr(m.CreateSlot, false)
	m.Enabled = types.BoolValue(true)                                          // cyrilgdn has no such argument: its subscriptions are created enabled
	m.ConninfoWO, m.ConninfoWOVersion = types.StringNull(), types.StringNull() // this provider's write-only form
	if !isKnown(m.Database) {
		m.Database = types.StringNull()
	}
	m.ID = types.StringNull()
	if isKnown(m.Database) {
		m.ID = types.StringValue(m.Database.ValueString() + "." + m.Name.ValueString())
	}
	return m
}
