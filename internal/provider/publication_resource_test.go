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
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// publicationTestDatabase creates a database with tables owned by the admin
// role: public.t1, app.t2 and a partitioned public.m with one partition.
func publicationTestDatabase(t *testing.T, db string) {
	t.Helper()
	acctest.Database(t, db, acctest.AdminUser())
	admin := pgconn.QuoteIdent(acctest.AdminUser())
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
	return acctest.CheckGone(t, db, "publication", "SELECT exists(SELECT 1 FROM pg_publication WHERE pubname = $1)", names...)
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
	major := acctest.ServerMajor(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			// the admin's own role (on PostgreSQL 16+ a managed admin can give
			// objects only to roles it holds ADMIN OPTION on)
			acctest.AdminExec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(owner))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(owner)) })
			publicationTestDatabase(t, db)
			acctest.Exec(t, "", "GRANT CREATE ON DATABASE "+pgconn.QuoteIdent(db)+" TO "+pgconn.QuoteIdent(owner))
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
				PlanOnly: true,
			},
			{ // tables, options, owner, name: in place
				Config:           cfg(full),
				ConfigPlanChecks: expectUpdate(addr),
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
					// USAGE: the borrowed membership inherits; on PostgreSQL 16+ the admin's
					// ADMIN OPTION on the role it created is a membership without it, and
					// the admin keeps the one it borrows (pg.withRoles)
					if acctest.QueryBool(t, "", "SELECT pg_has_role($1, $2, 'USAGE')", acctest.AdminUser(), owner) && acctest.Managed() && acctest.ServerMajor(t) < 16 {
						return fmt.Errorf("the temporary membership in %s was not revoked", owner)
					}
					if got, want := adminLasting(t, owner), wantAdminLasting(t, false); got != want {
						return fmt.Errorf("the admin's own memberships in %s: %s, want %s", owner, got, want)
					}
					return nil
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: db + "." + name + "_r", ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
			// the name quoted as in SQL
			{ResourceName: addr, ImportState: true, ImportStateId: db + `."` + name + `_r"`, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
			{ResourceName: "postgresql_publication.empty", ImportState: true, ImportStateId: "postgres." + empty, ImportStateVerify: true},
			{ // drift: a table removed and an option changed by SQL; apply repairs in place
				PreConfig: acctest.ExecFunc(t, db, "ALTER PUBLICATION "+pgconn.QuoteIdent(name+"_r")+" DROP TABLE public.t1",
					"ALTER PUBLICATION "+pgconn.QuoteIdent(name+"_r")+" SET (publish = 'insert')"),
				Config:            cfg(full),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			},
			{ // dropped out of band: recreated
				PreConfig:        acctest.ExecFunc(t, db, "DROP PUBLICATION "+pgconn.QuoteIdent(name+"_r")),
				Config:           cfg(full),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
			{ // before PostgreSQL 15, schemas is a plan-time error naming the version
				SkipFunc: func() (bool, error) { return major >= 15, nil },
				Config: cfg(strings.Replace(full, `tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]`,
					`tables = ["public.t1"]`+"\n"+`schemas = ["app"]`, 1)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`needs PostgreSQL 15\s+or later`),
			},
			{ // superuser only, PostgreSQL 15+: FOR TABLES IN SCHEMA, in place
				SkipFunc: func() (bool, error) { return acctest.Managed() || major < 15, nil },
				Config: cfg(strings.Replace(full, `tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]`,
					`tables = ["public.t1"]`+"\n"+`schemas = ["app"]`, 1)),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("schemas"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("app")})),
				},
			},
			{ // superuser only: all_tables replaces the publication
				SkipFunc: superOnly,
				Config: cfg(strings.NewReplacer(
					`tables                           = ["public.t1", "app.t2", "public.m", "app.\"Odd.Tbl ü\""]`, "all_tables = true",
					fmt.Sprintf("owner                            = %q", owner), `owner = "postgres"`).Replace(full)),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tables"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(`app."Odd.Tbl ü"`), knownvalue.StringExact("app.t2"), knownvalue.StringExact("public.m"), knownvalue.StringExact("public.t1")})),
				},
			},
		},
	})
}

// publish_generated_columns (PostgreSQL 18+): set, changed in place, repaired
// after drift, unmanaged when unset, imported.
func TestAccPublication_generatedColumns(t *testing.T) {
	acctest.SkipBelow(t, 18, "publish_generated_columns")
	db := acctest.RandName("pubgendb")
	name := acctest.RandName("pubgen")
	dflt := acctest.RandName("pubgendef")
	addr, dfltAddr := "postgresql_publication.test", "postgresql_publication.dflt"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(line string) string {
		return acctest.Config(`
resource "postgresql_publication" "dflt" {
  database = %q
  name     = %q
  tables   = ["public.g"]
}
resource "postgresql_publication" "test" {
  database = %q
  name     = %q
  tables   = ["public.g"]
  %s
}`, db, dflt, db, name, line)
	}
	gencols := func(want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := acctest.QueryString(t, db, "SELECT pubgencols::text FROM pg_publication WHERE pubname = $1", name); got != want {
				return fmt.Errorf("pubgencols of %s = %q, want %q", name, got, want)
			}
			return nil
		}
	}
	gencolsValue := func(v string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("publish_generated_columns_param"), knownvalue.StringExact(v))
	}
	drift := acctest.ExecFunc(t, db, "ALTER PUBLICATION "+pgconn.QuoteIdent(name)+" SET (publish_generated_columns = stored)")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Exec(t, db, "CREATE TABLE public.g (id int PRIMARY KEY, twice int GENERATED ALWAYS AS (id * 2) STORED)",
				"ALTER TABLE public.g OWNER TO "+pgconn.QuoteIdent(acctest.AdminUser()))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkPublicationGone(t, db, name, dflt),
		Steps: []resource.TestStep{
			{
				Config: cfg(`publish_generated_columns_param = "stored"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(dfltAddr, tfjsonpath.New("publish_generated_columns_param")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					gencolsValue("stored"),
					statecheck.ExpectKnownValue(dfltAddr, tfjsonpath.New("publish_generated_columns_param"), knownvalue.StringExact("none")),
				},
				Check: gencols("s"),
			},
			{ // in place
				Config: cfg(`publish_generated_columns_param = "none"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(dfltAddr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid")), gencolsValue("none")},
				Check:             gencols("n"),
			},
			{ // drift made with SQL: apply repairs it in place
				PreConfig:         drift,
				Config:            cfg(`publish_generated_columns_param = "none"`),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid")), gencolsValue("none")},
				Check:             gencols("n"),
			},
			{ResourceName: addr, ImportState: true, ImportStateId: db + "." + name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
			{ // unset: not managed, no diff
				Config:            cfg(""),
				ConfigPlanChecks:  expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{gencolsValue("none")},
			},
			{ // unset and changed with SQL: the refresh reports it, still no diff
				PreConfig:         drift,
				Config:            cfg(""),
				ConfigPlanChecks:  expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{gencolsValue("stored")},
				Check:             gencols("s"),
			},
			{ // another in-place change keeps the unset value
				Config: cfg(`publish_param = ["insert"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("publish_generated_columns_param"), knownvalue.StringExact("stored")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid")), gencolsValue("stored")},
				Check:             gencols("s"),
			},
		},
	})
}

// Before PostgreSQL 18 the attribute is null, and setting it is a plan-time error.
func TestAccPublication_generatedColumnsBefore18(t *testing.T) {
	acctest.SkipFrom(t, 18, "publish_generated_columns is unsupported")
	name := acctest.RandName("pubgen")
	addr := "postgresql_publication.test"
	cfg := func(line string) string {
		return acctest.Config(`
resource "postgresql_publication" "test" {
  name = %q
  %s
}`, name, line)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkPublicationGone(t, "", name),
		Steps: []resource.TestStep{
			{ // on create
				Config:      cfg(`publish_generated_columns_param = "stored"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`needs\s+PostgreSQL\s+18\s+or\s+later;\s+the\s+server\s+runs\s+PostgreSQL\s+1[0-7]`),
			},
			{
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("publish_generated_columns_param"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("publish_generated_columns_param"), knownvalue.Null()),
				},
			},
			{ // on update
				Config:      cfg(`publish_generated_columns_param = "none"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`needs\s+PostgreSQL\s+18\s+or\s+later;\s+the\s+server\s+runs\s+PostgreSQL\s+1[0-7]`),
			},
			{ResourceName: addr, ImportState: true, ImportStateId: acctest.DefaultDatabase() + "." + name, ImportStateVerify: true},
		},
	})
}

// A publication of tables another role owns: PostgreSQL adds a table to a
// publication only for its owner, so a managed admin borrows the owners'
// privileges to create the publication and to add tables to it. Before, as
// the managed admin, both failed with "must be owner of table ..." (the long
// walk, seeds 20001, 20002 and 20006 on PostgreSQL 15: tables given to
// another role by a postgresql_object_owner).
func TestAccPublication_regressionTablesOfAnotherOwner(t *testing.T) {
	db := acctest.RandName("pubdb_own")
	name := acctest.RandName("pub_own")
	tblOwner := acctest.RandName("pub_tblowner")
	addr := "postgresql_publication.test"
	cfg := func(tables string) string {
		return acctest.Config(`
resource "postgresql_publication" "test" {
  name     = %q
  database = %q
  tables   = %s
}`, name, db, tables)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			// a role the admin made (on PostgreSQL 16+ a managed admin borrows
			// only roles it holds ADMIN OPTION on)
			acctest.AdminExec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(tblOwner))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(tblOwner)) })
			publicationTestDatabase(t, db)
			// as the superuser: the admin keeps no membership in the owner
			acctest.Exec(t, db, "ALTER TABLE public.t1 OWNER TO "+pgconn.QuoteIdent(tblOwner),
				"ALTER TABLE app.t2 OWNER TO "+pgconn.QuoteIdent(tblOwner))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkPublicationGone(t, db, name),
		Steps: []resource.TestStep{
			{
				Config: cfg(`["public.t1"]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tables"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("public.t1")})),
				},
			},
			{
				Config:           cfg(`["public.t1", "app.t2"]`),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tables"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("public.t1"), knownvalue.StringExact("app.t2")})),
				},
				Check: func(*terraform.State) error {
					got := acctest.QueryString(t, db, "SELECT string_agg(schemaname || '.' || tablename, ',' ORDER BY schemaname, tablename) FROM pg_publication_tables WHERE pubname = $1", name)
					if got != "app.t2,public.t1" {
						return fmt.Errorf("published tables %q, want app.t2,public.t1", got)
					}
					return nil
				},
			},
			{Config: cfg(`["public.t1", "app.t2"]`), ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"drop_cascade"}},
		},
	})
}
