package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// publicationTestDatabase creates a database with tables owned by the admin
// role: public.t1, app.t2 and a partitioned public.m with one partition.
func publicationTestDatabase(t *testing.T, db string) {
	t.Helper()
	acctest.Database(t, db, acctest.AdminUser())
	admin := pg.QuoteIdent(acctest.AdminUser())
	acctest.Exec(t, db,
		"CREATE SCHEMA app AUTHORIZATION "+admin,
		"CREATE TABLE public.t1 (id int PRIMARY KEY, v text)",
		"CREATE TABLE app.t2 (id int PRIMARY KEY, v text)",
		`CREATE TABLE app."Odd.Tbl ü" (id int PRIMARY KEY)`, `ALTER TABLE app."Odd.Tbl ü" OWNER TO `+admin,
		"CREATE TABLE public.m (id int, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)",
		"CREATE TABLE public.m_2025 PARTITION OF public.m FOR VALUES FROM ('2025-01-01') TO ('2026-01-01')",
		"ALTER TABLE public.t1 OWNER TO "+admin, "ALTER TABLE app.t2 OWNER TO "+admin,
		"ALTER TABLE public.m OWNER TO "+admin, "ALTER TABLE public.m_2025 OWNER TO "+admin)
}

func checkPublicationGone(t *testing.T, db string, names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, n := range names {
			if acctest.QueryBool(t, db, "SELECT exists(SELECT 1 FROM pg_publication WHERE pubname = $1)", n) {
				return fmt.Errorf("publication %q still exists", n)
			}
		}
		return nil
	}
}

func TestAccPublication_lifecycle(t *testing.T) {
	db := acctest.RandName("pubdb")
	name := acctest.RandName("pub")
	owner := acctest.RandName("pubowner")
	empty := acctest.RandName("pubempty")
	addr := "postgresql_publication.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(body string) string {
		return acctest.Config(`
resource "postgresql_publication" "empty" {
  name = %q
}
resource "postgresql_publication" "test" {
  database = %q
%s
}`, empty, db, body)
	}
	full := fmt.Sprintf(`
  name                             = "%s_r"
  owner                            = %q
  tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]
  publish_via_partition_root_param = true
  drop_cascade                     = true`, name, owner)
	superOnly := func() (bool, error) { return acctest.Managed(), nil }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			// the admin's own role (on PostgreSQL 16+ a managed admin can give
			// objects only to roles it holds ADMIN OPTION on)
			acctest.AdminExec(t, "", "CREATE ROLE "+pg.QuoteIdent(owner))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pg.QuoteIdent(owner)) })
			publicationTestDatabase(t, db)
			acctest.Exec(t, "", "GRANT CREATE ON DATABASE "+pg.QuoteIdent(db)+" TO "+pg.QuoteIdent(owner))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := checkPublicationGone(t, db, name, name+"_r")(s); err != nil {
				return err
			}
			return checkPublicationGone(t, "", empty)(s)
		},
		Steps: []resource.TestStep{
			{
				Config:      cfg(`name = "x"` + "\n" + `all_tables = true` + "\n" + `tables = ["t1"]`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Conflicting\s+arguments`),
			},
			{
				Config: cfg(fmt.Sprintf(`
  name          = %q
  tables        = ["t1"]
  publish_param = ["insert", "update"]`, name)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(db+"."+name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(acctest.AdminUser())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tables"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("t1")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("all_tables"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("postgresql_publication.empty", tfjsonpath.New("database"), knownvalue.StringExact("postgres")),
					statecheck.ExpectKnownValue("postgresql_publication.empty", tfjsonpath.New("tables"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue("postgresql_publication.empty", tfjsonpath.New("schemas"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue("postgresql_publication.empty", tfjsonpath.New("publish_param"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("insert"), knownvalue.StringExact("update"), knownvalue.StringExact("delete"), knownvalue.StringExact("truncate")})),
				},
			},
			{ // same meaning, other spelling: no change
				Config: cfg(fmt.Sprintf(`
  name          = %q
  tables        = ["public.t1"]
  publish_param = ["update", "insert"]`, name)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ // tables, options, owner, name: in place
				Config: cfg(full),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("publish_param"), knownvalue.ListSizeExact(4)),
				},
				Check: func(*terraform.State) error {
					got := acctest.QueryString(t, db, "SELECT string_agg(schemaname || '.' || tablename, ',' ORDER BY schemaname, tablename) || '/' || bool_and(p.pubviaroot)::text FROM pg_publication_tables t JOIN pg_publication p USING (pubname) WHERE pubname = $1", name+"_r")
					if got != "app.Odd.Tbl ü,app.t2,public.m,public.t1/true" {
						return fmt.Errorf("published: %s", got)
					}
					if acctest.QueryBool(t, "", "SELECT pg_has_role($1, $2, 'MEMBER')", acctest.AdminUser(), owner) && acctest.Managed() {
						return fmt.Errorf("the temporary membership in %s was not revoked", owner)
					}
					return nil
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: db + "." + name + "_r", ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
			// the name quoted as in SQL
			{ResourceName: addr, ImportState: true, ImportStateId: db + `."` + name + `_r"`, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
			{ResourceName: "postgresql_publication.empty", ImportState: true, ImportStateId: "postgres." + empty, ImportStateVerify: true},
			{ // drift: a table removed and an option changed by SQL; apply repairs in place
				PreConfig: acctest.ExecFunc(t, db, "ALTER PUBLICATION "+pg.QuoteIdent(name+"_r")+" DROP TABLE public.t1",
					"ALTER PUBLICATION "+pg.QuoteIdent(name+"_r")+" SET (publish = 'insert')"),
				Config: cfg(full),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			},
			{ // dropped out of band: recreated
				PreConfig: acctest.ExecFunc(t, db, "DROP PUBLICATION "+pg.QuoteIdent(name+"_r")),
				Config:    cfg(full),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
			},
			{ // superuser only: FOR TABLES IN SCHEMA, in place
				SkipFunc: superOnly,
				Config: cfg(strings.Replace(full, `tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]`,
					`tables = ["public.t1"]`+"\n"+`schemas = ["app"]`, 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("schemas"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("app")})),
				},
			},
			{ // superuser only: all_tables replaces the publication
				SkipFunc: superOnly,
				Config: cfg(strings.NewReplacer(
					`tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]`, "all_tables = true",
					fmt.Sprintf("owner                            = %q", owner), `owner = "postgres"`).Replace(full)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tables"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(`app."Odd.Tbl ü"`), knownvalue.StringExact("app.t2"), knownvalue.StringExact("public.m"), knownvalue.StringExact("public.t1")})),
				},
			},
		},
	})
}
