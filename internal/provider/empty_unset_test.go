package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Tests of `""` read as unset (issue 30): cyrilgdn/postgresql (SDK v2) took
// an empty string for an unset argument, and configurations rely on it.

// cyrilgdnState is a state file holding postgresql_<typ>.<name> in
// cyrilgdn's layout (schema version 0) with attrs, as a cyrilgdn release
// wrote it (a refresh records the server's values for arguments configured
// "": the SDK planned them as unset).
func cyrilgdnState(t *testing.T, typ, name string, attrs map[string]any) string {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "4a3c0f9e-0000-4000-8000-0000000e5705",
		"outputs": map[string]any{},
		"resources": []any{map[string]any{
			"mode": "managed", "type": "postgresql_" + typ, "name": name,
			"provider": `provider["registry.terraform.io/pgtf/postgresql"]`,
			"instances": []any{map[string]any{
				"schema_version": 0, "attributes": attrs, "private": "bnVsbA==", "sensitive_attributes": []any{},
			}},
		}},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// migratedPlanEmpty is a Check: terraform plans body (resource blocks, no
// provider block) over the state cyrilgdn wrote for one resource
// (cyrilgdnState) with no change.
func migratedPlanEmpty(t *testing.T, body, typ, name string, attrs map[string]any) func(*terraform.State) error {
	return func(*terraform.State) error {
		changed, out, err := acctest.PlanChanges(t, body, cyrilgdnState(t, typ, name, attrs))
		if err != nil {
			return fmt.Errorf("%w\n%s", err, out)
		}
		if len(changed) > 0 {
			return fmt.Errorf("the plan over cyrilgdn's state changes %s:\n%s", strings.Join(changed, ", "), out)
		}
		return nil
	}
}
