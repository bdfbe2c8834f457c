package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// subscriptionSchemaV0 is the frozen schema of cyrilgdn/postgresql 1.26's postgresql_subscription (types only).
func subscriptionSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":           schema.StringAttribute{Optional: true, Computed: true},
			"name":         schema.StringAttribute{Required: true},
			"database":     schema.StringAttribute{Optional: true, Computed: true},
			"conninfo":     schema.StringAttribute{Required: true, Sensitive: true},
			"publications": schema.SetAttribute{ElementType: types.StringType, Required: true},
			"create_slot":  schema.BoolAttribute{Optional: true},
			"slot_name":    schema.StringAttribute{Optional: true},
		},
	}
}

type subscriptionModelV0 struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Database     types.String `tfsdk:"database"`
	Conninfo     types.String `tfsdk:"conninfo"`
	Publications types.Set    `tfsdk:"publications"`
	CreateSlot   types.Bool   `tfsdk:"create_slot"`
	SlotName     types.String `tfsdk:"slot_name"`
}

// upgradeSubscriptionStateV0 reads cyrilgdn's layout. create_slot and
// slot_name are null after a cyrilgdn import (and slot_name whenever it was
// not configured): create_slot becomes false (it only matters at creation and
// never replaces), slot_name stays null so the next refresh reads it.
// enabled, which cyrilgdn does not model, is true (the next refresh reads it).
func upgradeSubscriptionStateV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var old subscriptionModelV0
	resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
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
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
