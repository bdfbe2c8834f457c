package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
	want := map[string]map[string]securityLabelModel{
		"security_label/role_label/terraform.tfstate":                   roleLabel,
		"security_label/role_label/terraform.refreshed.tfstate":         roleLabel,
		"security_label/schema_table_label/terraform.tfstate":           schemaTable,
		"security_label/schema_table_label/terraform.refreshed.tfstate": schemaTable,
	}
	for file, byName := range want {
		for _, inst := range loadFixtureInstances(t, file, "postgresql_security_label") {
			t.Run(file+"/"+inst.Name, func(t *testing.T) {
				exp, ok := byName[inst.Name]
				if !ok {
					t.Fatalf("no expectation for %s", inst.Name)
				}
				var got securityLabelModel
				runUpgrader(t, NewSecurityLabelResource(), inst, &got)
				if d := cmp.Diff(exp, got); d != "" {
					t.Errorf("upgraded state differs (-want +got):\n%s", d)
				}
			})
		}
	}
	checkImportFailedFixture(t, "security_label/import")
}
