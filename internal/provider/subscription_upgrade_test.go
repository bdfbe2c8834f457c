package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradeSubscriptionV0Fixtures(t *testing.T) {
	const conn = "host=127.0.0.1 port=25433 dbname=fx_sub_pub user=postgres password=pgfixpw"
	sub := func(name string, pubs ...string) subscriptionModel {
		return subscriptionModel{
			ID: types.StringValue("fx_sub_sub." + name), OID: types.Int64Null(), Name: types.StringValue(name),
			Database: types.StringValue("fx_sub_sub"), Conninfo: types.StringValue(conn), Publications: strSet(pubs...),
			CreateSlot: types.BoolValue(false), SlotName: types.StringNull(), Enabled: types.BoolValue(true),
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
	for file, byName := range want {
		for _, inst := range loadFixtureInstances(t, file, "postgresql_subscription") {
			t.Run(file+"/"+inst.Name, func(t *testing.T) {
				var got subscriptionModel
				runUpgrader(t, NewSubscriptionResource(), inst, &got)
				if d := cmp.Diff(byName[inst.Name], got); d != "" {
					t.Errorf("upgraded state differs (-want +got):\n%s", d)
				}
			})
		}
	}
}
