package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradeSecurityLabelV0Fixtures(t *testing.T) {
	sl := func(typ, name, label string) securityLabelModel {
		return securityLabelModel{
			ID: types.StringValue("dummy." + typ + "." + name), Database: types.StringNull(),
			LabelProvider: types.StringValue("dummy"), ObjectType: types.StringValue(typ), ObjectName: types.StringValue(name),
			Schema: types.StringNull(), Label: types.StringValue(label),
		}
	}
	roleLabel := map[string]securityLabelModel{"role": sl("role", "fx_sl_role", "top secret")}
	schemaTable := map[string]securityLabelModel{
		"schema": sl("schema", "fx_sl_schema", "classified"),
		"role":   sl("role", "fx_sl_role2", "unclassified"),
		"table":  sl("table", "fx_sl_t", "classified"),
	}
	want := inBothStates(map[string]map[string]securityLabelModel{"security_label/role_label": roleLabel, "security_label/schema_table_label": schemaTable})
	checkFixtureUpgrades(t, NewSecurityLabelResource(), "postgresql_security_label", want)
	checkImportFailedFixture(t, "security_label/import")
}
