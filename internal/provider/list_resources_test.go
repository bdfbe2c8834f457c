package provider

import (
	"fmt"
	"strings"
	"testing"

	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Objects made with SQL (a cluster Terraform does not manage yet) are found
// by `terraform query` with the list resources' filters, with their
// identities, in both admin modes. Terraform 1.14 and later.
func TestAccListResources_query(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	p := acctest.RandName("lst")
	db := p + "_db"
	acctest.Database(t, db, acctest.AdminUser())
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(p+"_a"), "CREATE ROLE "+acctest.QI(p+"_b"))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(p+"_a"), "DROP ROLE IF EXISTS "+acctest.QI(p+"_b"))
	})
	acctest.AdminExec(t, db, "CREATE SCHEMA "+acctest.QI(p+"_s1"), "CREATE SCHEMA "+acctest.QI(p+"_s2"), "CREATE EXTENSION IF NOT EXISTS pgcrypto")
	query := fmt.Sprintf(`
list "postgresql_role" "mine" {
  provider = postgresql
  config {
    like_any_patterns = [%[1]q]
  }
}
list "postgresql_role" "limited" {
  provider = postgresql
  limit    = 1
  config {
    like_any_patterns = [%[1]q]
  }
}
list "postgresql_database" "mine" {
  provider = postgresql
  config {
    regex_pattern = %[2]q
  }
}
list "postgresql_schema" "mine" {
  provider = postgresql
  config {
    database          = %[3]q
    like_any_patterns = [%[1]q]
  }
}
list "postgresql_extension" "mine" {
  provider = postgresql
  config {
    database = %[3]q
  }
}
`, p+"\\_%", "^"+p+"_db$", db)
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []tfresource.TestStep{
			{Config: acctest.ProviderBlock + `resource "terraform_data" "x" {}`},
			{
				Query:  true,
				Config: query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("postgresql_role.mine", 2),
					querycheck.ExpectIdentity("postgresql_role.mine", map[string]knownvalue.Check{"name": knownvalue.StringExact(p + "_a")}),
					querycheck.ExpectIdentity("postgresql_role.mine", map[string]knownvalue.Check{"name": knownvalue.StringExact(p + "_b")}),
					querycheck.ExpectLength("postgresql_role.limited", 1),
					querycheck.ExpectLength("postgresql_database.mine", 1),
					querycheck.ExpectIdentity("postgresql_database.mine", map[string]knownvalue.Check{"name": knownvalue.StringExact(db)}),
					querycheck.ExpectLength("postgresql_schema.mine", 2),
					querycheck.ExpectIdentity("postgresql_schema.mine", map[string]knownvalue.Check{
						"database": knownvalue.StringExact(db), "name": knownvalue.StringExact(p + "_s2")}),
					querycheck.ExpectLength("postgresql_extension.mine", 1),
					querycheck.ExpectIdentity("postgresql_extension.mine", map[string]knownvalue.Check{
						"database": knownvalue.StringExact(db), "name": knownvalue.StringExact("pgcrypto")}),
				},
			},
		},
	})
}

// The brownfield adoption path end to end: objects made with SQL, listed by
// `terraform query -generate-config-out`, whose generated configuration
// (import blocks and resources) then plans the imports and no change.
func TestAccListResources_generateConfigRoundTrip(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureListResources)
	p := acctest.RandName("gen")
	db := p + "_db"
	// roles first: their cleanup runs after the database's
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(p+"_app")+" LOGIN CONNECTION LIMIT 5", "CREATE ROLE "+acctest.QI(p+"_ro"))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(p+"_app"), "DROP ROLE IF EXISTS "+acctest.QI(p+"_ro"))
	})
	acctest.Database(t, db, acctest.AdminUser())
	acctest.AdminExec(t, db, "CREATE SCHEMA "+acctest.QI(p+"_s"), "CREATE EXTENSION IF NOT EXISTS pgcrypto")
	generated, err := acctest.GenerateConfig(t, fmt.Sprintf(`
list "postgresql_role" "r" {
  provider = postgresql
  config {
    like_any_patterns = [%[1]q]
  }
}
list "postgresql_database" "d" {
  provider = postgresql
  config {
    like_any_patterns = [%[2]q]
  }
}
list "postgresql_schema" "s" {
  provider = postgresql
  config {
    database          = %[2]q
    like_any_patterns = [%[1]q]
  }
}
list "postgresql_extension" "e" {
  provider = postgresql
  config {
    database = %[2]q
  }
}
`, p+"\\_%", db))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated configuration:\n%s", generated)
	for _, want := range []string{p + "_app", p + "_ro", db, p + "_s", "pgcrypto"} {
		if !strings.Contains(generated, want) {
			t.Errorf("the generated configuration does not name %q", want)
		}
	}
	changed, planText, err := acctest.PlanChanges(t, generated, "")
	if err != nil {
		t.Fatalf("%v\n%s", err, planText)
	}
	if len(changed) > 0 {
		t.Fatalf("the generated configuration plans changes beyond its imports: %v\n%s", changed, planText)
	}
	if !strings.Contains(planText, "5 to import") {
		t.Errorf("expected 5 imports:\n%s", planText)
	}
}
