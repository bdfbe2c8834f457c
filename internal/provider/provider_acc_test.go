package provider

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccProvider_unknownHost: a host that is unknown at plan time (it comes
// from a resource created in the same apply) never falls back to a default;
// plans that need no connection proceed, and an operation that needs one
// fails with an error naming the argument.
func TestAccProvider_unknownHost(t *testing.T) {
	name := acctest.RandName("role_unknown_host")
	cfg := func(rev string) string {
		return fmt.Sprintf(`
resource "terraform_data" "conn" {
  input = { host = %q, rev = %q }
}
provider "postgresql" {
  host = terraform_data.conn.output.host
}
resource "postgresql_role" "r" { name = %q }
`, os.Getenv("PGHOST"), rev, name)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				Config:           cfg("1"),
				ConfigPlanChecks: expectAction("postgresql_role.r", plancheck.ResourceActionCreate),
			},
			{
				Config:      cfg("2"),
				ExpectError: regexp.MustCompile(`host\s+are\s+not\s+known\s+yet`),
			},
			{Config: cfg("1")},
		},
	})
}

func TestAccProvider_expectedVersion(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `provider "postgresql" { expected_version = "99.1" }
resource "postgresql_role" "r" { name = "` + acctest.RandName("role_ev") + `" }`,
				ExpectError: regexp.MustCompile(`expected_version\s+is\s+99.1`),
			},
			{
				Config: `provider "postgresql" { expected_version = "not-a-version" }
resource "postgresql_role" "r" { name = "never_created" }`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`must\s+be\s+a\s+version`),
			},
		},
	})
}

// expected_version newer than the server used to pass the plan and fail at
// apply, after whatever the apply did first. The plan now refuses every
// change, and nothing is created.
func TestAccProvider_regressionExpectedVersionCheckedAtApply(t *testing.T) {
	role, db := acctest.RandName("role_evp"), acctest.RandName("db_evp")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`provider "postgresql" { expected_version = "99.1" }
resource "postgresql_role" "r" { name = %q }
resource "postgresql_database" "d" { name = %q }`, role, db),
				ExpectError: regexp.MustCompile(`(?s)Server\s+older\s+than\s+expected_version.*expected_version\s+is\s+99.1`),
			},
			{
				PreConfig: func() {
					if roleExists(t, role) || acctest.DatabaseExists(t, db) {
						t.Errorf("the refused plan was applied: role %s or database %s exists", role, db)
					}
				},
				Config:   acctest.ProviderBlock,
				PlanOnly: true,
			},
		},
	})
}
