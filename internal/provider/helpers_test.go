package provider

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Helpers shared by the acceptance tests of every resource: plan checks,
// state checks, and the SQL checks of roles (the test-support package
// internal/acctest holds the cluster handle and SQL helpers).

// roleExists reports whether role name exists.
func roleExists(t *testing.T, name string) bool {
	return acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", name)
}

// checkRoleGone is a CheckDestroy: none of the roles names exists.
func checkRoleGone(t *testing.T, names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, n := range names {
			if roleExists(t, n) {
				return fmt.Errorf("role %q still exists", n)
			}
		}
		return nil
	}
}

// expectUpdate: the plan updates each of addrs in place.
func expectUpdate(addrs ...string) resource.ConfigPlanChecks {
	checks := make([]plancheck.PlanCheck, len(addrs))
	for i, a := range addrs {
		checks[i] = plancheck.ExpectResourceAction(a, plancheck.ResourceActionUpdate)
	}
	return resource.ConfigPlanChecks{PreApply: checks}
}

// expectAction: the plan takes action a on addr.
func expectAction(addr string, a plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, a)}}
}

// expectEmpty: the plan is empty.
func expectEmpty() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// str: attr of addr is the string want.
func str(addr, attr, want string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.StringExact(want))
}

// num: attr of addr is the number want.
func num(addr, attr string, want int64) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.Int64Exact(want))
}

// boolean: attr of addr is the bool want.
func boolean(addr, attr string, want bool) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.Bool(want))
}

// frameworkPast119 reports the terraform-plugin-framework version go.mod
// requires, and whether it is past v1.19 (the workarounds of
// protocol_server.go and model_codec.go are tied to v1.19).
func frameworkPast119(t *testing.T) (string, bool) {
	t.Helper()
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/hashicorp/terraform-plugin-framework v(\d+)\.(\d+)\.\S+`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod requires no github.com/hashicorp/terraform-plugin-framework")
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	return fmt.Sprintf("v%d.%d", major, minor), major > 1 || major == 1 && minor > 19
}
