package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func upgradedSchema(db, name, owner string, pols ...schemaPolicyModel) schemaModel {
	set, diags := policySet(pols)
	if diags.HasError() {
		panic(diags)
	}
	return schemaModel{
		ID: types.StringValue(db + "." + name), OID: types.Int64Null(), DatabaseOID: types.Int64Null(),
		Name: types.StringValue(name), Database: types.StringValue(db), Owner: types.StringValue(owner),
		IfNotExists: types.BoolValue(true), DropCascade: types.BoolValue(false), Policy: set,
	}
}

func TestUpgradeSchemaV0Fixtures(t *testing.T) {
	// unset flags stay false, as cyrilgdn stored them and this provider does
	no := types.BoolValue(false)
	yes := types.BoolValue(true)
	pol := upgradedSchema("postgres", "fx_pol", "postgres",
		schemaPolicyModel{Role: types.StringNull(), Usage: yes, UsageWithGrant: no, Create: no, CreateWithGrant: no},
		schemaPolicyModel{Role: types.StringValue("fx_pol_reader"), Usage: yes, UsageWithGrant: no, Create: no, CreateWithGrant: no},
		schemaPolicyModel{Role: types.StringValue("fx_pol_writer"), Usage: no, UsageWithGrant: yes, Create: no, CreateWithGrant: yes},
	)
	quoted := upgradedSchema("postgres", "Fx-Quoted Schema", "postgres")
	quoted.IfNotExists, quoted.DropCascade = types.BoolValue(false), types.BoolValue(true)
	ownerDB := map[string]schemaModel{
		"app":   upgradedSchema("fx_sch_db", "app", "fx_sch_owner"),
		"plain": upgradedSchema("postgres", "fx_sch_plain", "postgres"),
	}
	want := map[string]map[string]schemaModel{
		"schema/owner_in_database/terraform.tfstate":           ownerDB,
		"schema/owner_in_database/terraform.refreshed.tfstate": ownerDB,
		"schema/policy_deprecated/terraform.tfstate":           {"pol": pol},
		"schema/policy_deprecated/terraform.refreshed.tfstate": {"pol": pol},
		"schema/quoted_cascade/terraform.tfstate":              {"quoted": quoted},
		// after import if_not_exists and drop_cascade are null: the defaults
		"schema/import/terraform.tfstate":            {"imp": upgradedSchema("fx_sch_imp_db", "fx_sch_imp", "fx_sch_imp_owner")},
		"extension/schema_version/terraform.tfstate": {"ext": upgradedSchema("fx_ext_db", "extensions", "postgres")},
	}
	checkFixtureUpgrades(t, NewSchemaResource(), "postgresql_schema", want)
}
