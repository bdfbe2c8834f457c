package provider

import (
	"testing"

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
	checkFixtureUpgrades(t, NewExtensionResource(), "postgresql_extension", want)
}
