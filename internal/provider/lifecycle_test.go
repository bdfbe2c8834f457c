package provider

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAcc_regressionOrphanAfterFailedReadBack: a Create whose object was
// created but whose read-back failed (connection lost, timeout) used to save
// nothing, so the object was an orphan and the next apply failed with
// "already exists". Now the object is recorded (tainted) before the read-back:
// the next apply replaces it and converges, with exactly one object of each.
func TestAcc_regressionOrphanAfterFailedReadBack(t *testing.T) {
	name := acctest.RandName("orphan")
	var mu sync.Mutex
	failed := map[string]bool{}
	fault := func(what string) error {
		if !strings.Contains(what, name) {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if failed[what] {
			return nil
		}
		failed[what] = true
		return errors.New("injected read-back fault: conn closed")
	}

	config := acctest.Config(`
resource "postgresql_role" "r" { name = %[1]q }
resource "postgresql_database" "d" { name = %[1]q }
resource "postgresql_schema" "s" { name = %[1]q }`, name)
	addrs := []string{"postgresql_role.r", "postgresql_database.d", "postgresql_schema.s"}
	replace := make([]plancheck.PlanCheck, 0, len(addrs))
	for _, a := range addrs {
		replace = append(replace, plancheck.ExpectResourceAction(a, plancheck.ResourceActionDestroyBeforeCreate))
	}
	one := func(query string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := acctest.QueryString(t, "", query, name); got != "1" {
				return errors.New(query + ": " + got)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testFactories(WithReadBackFault(fault)),
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)injected\s+read-back\s+fault.*recorded\s+in\s+the\s+state\s+as\s+tainted`),
			},
			{ // the recorded objects are replaced, not created a second time
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: replace, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeAggregateTestCheckFunc(
					one("SELECT count(*)::text FROM pg_roles WHERE rolname = $1"),
					one("SELECT count(*)::text FROM pg_database WHERE datname = $1"),
					resource.TestCheckResourceAttrSet("postgresql_schema.s", "oid"),
					resource.TestCheckResourceAttrSet("postgresql_role.r", "oid"),
				),
			},
		},
	})
}

// A create that failed with "already exists" gave no hint of what to do. The
// error now shows the exact import ID (for `terraform import` and an import
// block) and the identity of the object; the ID it shows imports it.
func TestAcc_regressionAlreadyExistsGivesNoHint(t *testing.T) {
	role := acctest.RandName("exists")
	db := acctest.RandName("exists_db")
	schema := "my.schema \"x\""
	words := func(text string) *regexp.Regexp {
		f := strings.Fields(text)
		for i := range f {
			f[i] = regexp.QuoteMeta(f[i])
		}
		return regexp.MustCompile(strings.Join(f, `\s+`))
	}
	schemaID := db + `."my.schema ""x"""`
	schemaImport := fmt.Sprintf(`
import {
  to = postgresql_schema.s
  id = %s
}`, acctest.QuoteHCL(schemaID))
	if acctest.CLIUnderTest(t).Supports(acctest.FeatureImportBlockIdentity) {
		schemaImport = fmt.Sprintf(`
import {
  to = postgresql_schema.s
  identity = {
    database = %q
    name     = %s
  }
}`, db, acctest.QuoteHCL(schema))
	}
	cfg := acctest.Config(`
resource "postgresql_role" "r" { name = %q }
resource "postgresql_schema" "s" {
  name          = %s
  database      = %q
  if_not_exists = false
}`, role, acctest.QuoteHCL(schema), db)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(role))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(role)) })
			acctest.Database(t, db, acctest.AdminUser())
			acctest.AdminExec(t, db, "CREATE SCHEMA "+acctest.QI(schema))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: regexp.MustCompile(`(?s)` + strings.Join([]string{
					words("Role already exists").String(),
					words("terraform import postgresql_role.<name> " + role).String(),
					words(`id = "` + role + `"`).String(),
					words(`name = "` + role + `"`).String(),
				}, ".*")),
			},
			{
				Config: cfg,
				ExpectError: regexp.MustCompile(`(?s)` + strings.Join([]string{
					words("Schema already exists").String(),
					words(`terraform import postgresql_schema.<name> '` + schemaID + `'`).String(),
					words(`id = ` + acctest.QuoteHCL(schemaID)).String(),
					words(`database = "` + db + `"`).String(),
					words(`name = ` + acctest.QuoteHCL(schema)).String(),
				}, ".*")),
			},
			{ // what the hints show imports the objects: the role by ID, the schema by identity (by ID before Terraform 1.12)
				Config: cfg + schemaImport + fmt.Sprintf(`
import {
  to = postgresql_role.r
  id = %q
}`, role),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_role.r", plancheck.ResourceActionNoop),
					// if_not_exists = false is configuration-only: an import records the default
					plancheck.ExpectResourceAction("postgresql_schema.s", plancheck.ResourceActionUpdate),
				}},
			},
		},
	})
}

// The import hints quote IDs for the shell and for HCL.
func TestAlreadyExistsHintQuoting(t *testing.T) {
	for in, want := range map[string]string{"app_db.sales": "app_db.sales", "zz tmp": "'zz tmp'", `it's`: `'it'\''s'`, `{"a":1}`: `'{"a":1}'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{`a"b\c`: `"a\"b\\c"`, "${x} %{y} $z": `"$${x} %%{y} $z"`, "l1\nl2\t\x01": `"l1\nl2\t\u0001"`} {
		if got := hclString(in); got != want {
			t.Errorf("hclString(%q) = %s, want %s", in, got, want)
		}
	}
}
