package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func upgradedExtension(db, name, schema, version string) extensionModel {
	return extensionModel{
		ID: types.StringValue(db + "." + name), OID: types.Int64Null(), Name: types.StringValue(name),
		Database: types.StringValue(db), DatabaseOID: types.Int64Null(), Schema: types.StringValue(schema), Version: types.StringValue(version),
		CreateCascade: types.BoolValue(false), DropCascade: types.BoolValue(false),
	}
}

func TestUpgradeExtensionV0Fixtures(t *testing.T) {
	cascade := upgradedExtension("postgres", "earthdistance", "public", "1.1")
	cascade.CreateCascade, cascade.DropCascade = types.BoolValue(true), types.BoolValue(true)
	want := map[string]map[string]extensionModel{
		"extension/cascade/terraform.tfstate":        {"earthdistance": cascade},
		"extension/import/terraform.tfstate":         {"imp": upgradedExtension("postgres", "citext", "public", "1.6")},
		"extension/minimal/terraform.tfstate":        {"pgcrypto": upgradedExtension("postgres", "pgcrypto", "public", "1.3")},
		"extension/schema_version/terraform.tfstate": {"hstore": upgradedExtension("fx_ext_db", "hstore", "extensions", "1.7")},
	}
	for file, byName := range want {
		for _, inst := range loadFixtureInstances(t, file, "postgresql_extension") {
			t.Run(file+"/"+inst.Name, func(t *testing.T) {
				exp, ok := byName[inst.Name]
				if !ok {
					t.Fatalf("no expectation for %s", inst.Name)
				}
				var got extensionModel
				runUpgrader(t, NewExtensionResource(), inst, &got)
				if d := cmp.Diff(exp, got); d != "" {
					t.Errorf("upgraded state differs (-want +got):\n%s", d)
				}
			})
		}
	}
}
