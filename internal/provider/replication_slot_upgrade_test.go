package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradeReplicationSlotV0Fixtures(t *testing.T) {
	slot := func(db, name, plugin string) replicationSlotModel {
		return replicationSlotModel{ID: types.StringValue(db + "." + name), Name: types.StringValue(name), Plugin: types.StringValue(plugin), Database: types.StringValue(db)}
	}
	want := map[string]map[string]replicationSlotModel{
		"replication_slot/import/terraform.tfstate":                   {"imp": slot("fx_rs_db", "fx_slot_imp", "pgoutput")},
		"replication_slot/pgoutput_in_database/terraform.tfstate":     {"pgoutput": slot("fx_rs_db", "fx_slot_pgoutput", "pgoutput")},
		"replication_slot/test_decoding_default_db/terraform.tfstate": {"td": slot("postgres", "fx_slot_test_decoding", "test_decoding")},
	}
	checkFixtureUpgrades(t, NewReplicationSlotResource(), "postgresql_replication_slot", want)
	phys := func(name string) physicalReplicationSlotModel {
		return physicalReplicationSlotModel{ID: types.StringValue(name), Name: types.StringValue(name)}
	}
	wantPhys := map[string]map[string]physicalReplicationSlotModel{
		"physical_replication_slot/basic/terraform.tfstate":  {"a": phys("fx_phys_a"), "b": phys("fx_phys_b")},
		"physical_replication_slot/import/terraform.tfstate": {"imp": phys("fx_phys_imp")},
	}
	checkFixtureUpgrades(t, NewPhysicalReplicationSlotResource(), "postgresql_physical_replication_slot", wantPhys)
}
