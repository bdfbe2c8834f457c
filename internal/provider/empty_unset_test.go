package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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

// emptyCase is a resource (addr, in the configuration body writes) whose
// arguments attrs are configured "" in a regression test of issue 30.
type emptyCase struct {
	addr  string
	attrs []string
	// body is the configuration (without the provider block): attrs set to
	// the HCL values of set (absent: unset).
	body func(set map[string]string) string
	// server are the values unset means, as the server reports them.
	server map[string]string
	// check tells that the object is what unset makes.
	check    func(*terraform.State) error
	importID string
	// noImport are attrs left unset in the import step (an import cannot
	// know them: a configured value plans one update without SQL).
	noImport []string
	// v0 are the attributes of cyrilgdn's state of the object (its refresh
	// recorded the server's values for arguments configured "").
	v0 map[string]any
	// identity, when set, is an attribute that changes when the object is
	// replaced (its OID): the steps check it never changes.
	identity string
	// importUpdates: the import cannot read every argument back (it plans
	// an update in place, no replacement).
	importUpdates bool
	// more are extra steps run after the apply with "" (before the others).
	more []resource.TestStep
}

// steps are the steps proving that attrs configured "" mean unset: the
// apply records "" and makes what unset makes; then no change after a
// refresh, when switching to unset, to "" and to the server's values (so no
// replacement either), after an import, and over cyrilgdn's state.
func (c emptyCase) steps(t *testing.T) []resource.TestStep {
	with := func(v func(a string) (string, bool)) string {
		set := map[string]string{}
		for _, a := range c.attrs {
			if s, ok := v(a); ok {
				set[a] = s
			}
		}
		return c.body(set)
	}
	empty := with(func(string) (string, bool) { return `""`, true })
	unset := with(func(string) (string, bool) { return "", false })
	explicit := with(func(a string) (string, bool) { return fmt.Sprintf("%q", c.server[a]), true })
	forImport := with(func(a string) (string, bool) { return `""`, !slices.Contains(c.noImport, a) })
	var checks []statecheck.StateCheck
	for _, a := range c.attrs {
		checks = append(checks, str(c.addr, a, ""))
	}
	same := func(more ...statecheck.StateCheck) []statecheck.StateCheck { return more }
	if c.identity != "" {
		sameID := statecheck.CompareValue(compare.ValuesSame())
		same = func(more ...statecheck.StateCheck) []statecheck.StateCheck {
			return append(more, sameID.AddStateValue(c.addr, tfjsonpath.New(c.identity)))
		}
	}
	typ, name, _ := strings.Cut(strings.TrimPrefix(c.addr, "postgresql_"), ".")
	cfg := func(body string) string { return acctest.Config("%s", body) }
	steps := []resource.TestStep{
		{Config: cfg(empty), ConfigStateChecks: same(checks...), Check: c.check},
		{Config: cfg(empty), PlanOnly: true},
	}
	steps = append(steps, c.more...)
	importStep := resource.TestStep{Config: cfg(forImport), ResourceName: c.addr, ImportState: true, ImportStateId: c.importID, ImportStateKind: resource.ImportBlockWithID}
	if c.importUpdates {
		importStep.ExpectNonEmptyPlan = true
		importStep.ImportPlanChecks.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionUpdate)}
	}
	return append(steps,
		// unset, "" again, the server's values spelled out: no change, no replacement
		resource.TestStep{Config: cfg(unset), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
		resource.TestStep{Config: cfg(empty), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
		resource.TestStep{Config: cfg(explicit), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
		resource.TestStep{Config: cfg(empty), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
		importStep,
		// over the state cyrilgdn wrote (its refresh recorded the server's
		// values); not a PlanOnly step: the testing framework runs no Check there
		resource.TestStep{Config: cfg(empty), ConfigPlanChecks: expectEmpty(), Check: migratedPlanEmpty(t, empty, typ, name, c.v0)},
	)
}

// hclBlock writes resource postgresql_<addr> with the fixed arguments (HCL
// lines) and set.
func hclBlock(addr string, fixed []string, set map[string]string) string {
	typ, name, _ := strings.Cut(addr, ".")
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", typ, name)
	for _, l := range fixed {
		b.WriteString("  " + l + "\n")
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s = %s\n", k, set[k])
	}
	b.WriteString("}\n")
	return b.String()
}

func TestSameDatabase(t *testing.T) {
	for _, tc := range []struct {
		a, b types.String
		want bool
	}{
		{types.StringValue(""), types.StringNull(), true},
		{types.StringValue("x"), types.StringValue("x"), true},
		{types.StringValue("x"), types.StringValue(""), false},
		{types.StringUnknown(), types.StringValue(""), false},
		{types.StringUnknown(), types.StringUnknown(), true},
	} {
		if got := sameDatabase(nil, tc.a, tc.b); got != tc.want {
			t.Errorf("sameDatabase(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
