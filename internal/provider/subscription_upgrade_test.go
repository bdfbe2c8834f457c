package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradeSubscriptionV0Fixtures(t *testing.T) {
	const conn = "host=127.0.0.1 port=25433 dbname=fx_sub_pub user=postgres password=pgfixpw"
	sub := func(name string, pubs ...string) subscriptionModel {
		return subscriptionModel{
			ID: types.StringValue("fx_sub_sub." + name), OID: types.Int64Null(), Name: types.StringValue(name),
			Database: types.StringValue("fx_sub_sub"), Conninfo: types.StringValue(conn), Publications: strSet(pubs...),
			CreateSlot: types.BoolValue(false), SlotName: types.StringNull(), Enabled: types.BoolValue(true),
			ConninfoWO: types.StringNull(), ConninfoWOVersion: types.StringNull(),
		}
	}
	custom := sub("fx_sub_custom", "fx_pub_a", "fx_pub_b")
	custom.Conninfo = types.StringValue(conn + " connect_timeout=10")
	custom.SlotName = types.StringValue("fx_custom_slot")
	want := map[string]map[string]subscriptionModel{
		"subscription/create_slot_false/terraform.tfstate": {"sub": sub("fx_sub_items", "fx_sub_pub_items")},
		"subscription/custom_slot_name/terraform.tfstate":  {"sub": custom},
		// cyrilgdn's import leaves create_slot and slot_name null; nothing here forces a replacement
		"subscription/import/terraform.tfstate": {"imp": sub("fx_sub_imp", "fx_sub_imp_pub")},
	}
	checkFixtureUpgrades(t, NewSubscriptionResource(), "postgresql_subscription", want)
}
