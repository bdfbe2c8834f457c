package provider

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

func checkFunctionGone(t *testing.T, db, name string) func(*terraform.State) error {
	return acctest.CheckGone(t, db, "function", "SELECT exists(SELECT 1 FROM pg_proc WHERE proname = $1)", name)
}

// testAccFunctionInPostgres runs steps on a function named name in the
// postgres database, in parallel with the other tests, and checks at the end
// that no function of that name is left.
func testAccFunctionInPostgres(t *testing.T, name string, steps []resource.TestStep) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, "postgres", name),
		Steps:                    steps,
	})
}

// preApply is the plan checks of a step, run before it applies.
func preApply(checks ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: checks}
}

func TestAccFunction_lifecycle(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	db := acctest.RandName("fndb")
	name := acctest.RandName("fn")
	addr := "postgresql_function.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(fnName, schemaName, extra, bType, body string) string {
		return acctest.Config(`
resource "postgresql_function" "test" {
  name     = %q
  database = %q
  schema   = %q
  language = "sql"
  arg {
    name = "a"
    type = "integer"
  }
  arg {
    name    = "b"
    type    = %q
    default = "'7'"
  }
  returns = "int"
  body    = %q
  %s
}`, fnName, db, schemaName, bType, body, extra)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.Exec(t, db, "CREATE SCHEMA s1 AUTHORIZATION "+pgconn.QuoteIdent(acctest.AdminUser()),
				"CREATE SCHEMA s2 AUTHORIZATION "+pgconn.QuoteIdent(acctest.AdminUser()))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, db, name),
		Steps: []resource.TestStep{
			{
				Config: cfg(name, "s1", `volatility = "immutable"`, "int4", "SELECT a + b"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(db+".s1."+name+"(integer,int4)")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("returns"), knownvalue.StringExact("int")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("volatility"), knownvalue.StringExact("immutable")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("default"), knownvalue.StringExact("'7'")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("mode"), knownvalue.StringExact("IN")),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, db, "SELECT s1."+pgconn.QuoteIdent(name)+"(1)::text"); got != "8" {
						return fmt.Errorf("f(1) = %s", got)
					}
					return nil
				},
			},
			{ // spelling only (int4 → integer, IMMUTABLE, trailing blank line): no change
				Config:             cfg(name, "s1", `volatility = "IMMUTABLE"`, "integer", "SELECT a + b\n\n"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
			{ // body, volatility, strict, parallel, security: in place
				Config: cfg(name, "s1", `
  volatility       = "STABLE"
  strict           = true
  parallel         = "SAFE"
  security_definer = true`, "int4", "SELECT a * b"),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("strict"), knownvalue.Bool(true)),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, db, "SELECT s1."+pgconn.QuoteIdent(name)+"(2)::text"); got != "14" {
						return fmt.Errorf("f(2) = %s", got)
					}
					if !acctest.QueryBool(t, db, "SELECT provolatile = 's' AND proisstrict AND prosecdef AND proparallel = 's' FROM pg_proc WHERE proname = $1", name) {
						return fmt.Errorf("attributes not applied")
					}
					return nil
				},
			},
			{ // rename and move schema: in place
				Config: cfg(name+"_r", "s2", `
  volatility       = "STABLE"
  strict           = true
  parallel         = "SAFE"
  security_definer = true`, "int4", "SELECT a * b"),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(db+".s2."+name+"_r(integer,int4)")),
				},
			},
			{ // argument type change: replace
				Config:           cfg(name, "s2", "", "bigint", "SELECT (a + b)::int"),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				Check: func(*terraform.State) error {
					if acctest.QueryBool(t, db, "SELECT exists(SELECT 1 FROM pg_proc WHERE proname = $1)", name+"_r") {
						return fmt.Errorf("old function still exists")
					}
					return nil
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     db + ".s2." + name + "(integer, bigint)",
				ImportStateVerify: true,
				// import reads the server's spelling; the next step proves it means the same
				ImportStateVerifyIgnore: []string{"id", "arg.1.default", "returns"},
			},
			{ // forget it, then import it for real
				Config: acctest.Config(`
removed {
  from = postgresql_function.test
  lifecycle {
    destroy = false
  }
}`),
			},
			{
				Config:             cfg(name, "s2", "", "bigint", "SELECT (a + b)::int"),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      db + ".s2." + name + "(integer, bigint)",
				ImportStatePersist: true,
			},
			{ // after import: no change (server spelling = configured spelling)
				Config:   cfg(name, "s2", "", "bigint", "SELECT (a + b)::int"),
				PlanOnly: true,
			},
			{ // drift: body and volatility changed behind Terraform's back
				PreConfig:        acctest.ExecFunc(t, db, "CREATE OR REPLACE FUNCTION s2."+pgconn.QuoteIdent(name)+"(a integer, b bigint DEFAULT '7') RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 0'"),
				Config:           cfg(name, "s2", "", "bigint", "SELECT (a + b)::int"),
				ConfigPlanChecks: expectUpdate(addr),
			},
			{ // dropped out of band: recreated
				PreConfig:        acctest.ExecFunc(t, db, "DROP FUNCTION s2."+pgconn.QuoteIdent(name)+"(integer, bigint)"),
				Config:           cfg(name, "s2", "", "bigint", "SELECT (a + b)::int"),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
		},
	})
}

func TestAccFunction_plpgsqlDefaults(t *testing.T) {
	name := acctest.RandName("fn") + `_"Ünï"`
	addr := "postgresql_function.test"
	body := "BEGIN\n  label := upper(label);\n  SELECT sum(v) INTO total FROM unnest(vals) AS v;\nEND;\n"
	testAccFunctionInPostgres(t, name, []resource.TestStep{
		{
			Config:      acctest.Config("resource \"postgresql_function\" \"test\" {\n name = %q\n body = \"x\"\n}", strings.Repeat("f", 64)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`at\s+most\s+63\s+bytes`),
		},
		{
			Config:      acctest.Config("resource \"postgresql_function\" \"test\" {\n name = \"x\"\n body = \"x\"\n volatility = \"sometimes\"\n}"),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`volatility`),
		},
		{
			Config: acctest.Config(`
resource "postgresql_function" "noop" {
  name = "%[1]s_noop"
  body = <<-EOT
    BEGIN
      PERFORM 1;
    END;
  EOT
}
resource "postgresql_function" "tbl" {
  name     = "%[1]s_tbl"
  language = "sql"
  arg {
    name = "n"
    type = "integer"
  }
  returns = "TABLE(a int, b text)"
  body    = "SELECT n, 'x'::text"
}
resource "postgresql_function" "test" {
  name = %[2]s
  arg {
    mode = "INOUT"
    name = "label"
    type = "text"
  }
  arg {
    mode = "out"
    name = "total"
    type = "bigint"
  }
  arg {
    mode = "VARIADIC"
    name = "vals"
    type = "integer[]"
  }
  returns      = "record"
  volatility   = "STABLE"
  drop_cascade = true
  body         = %[3]s
}`, strings.Split(name, `"`)[0], acctest.QuoteHCL(name), acctest.QuoteHCL(body)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("returns"), knownvalue.StringExact("void")),
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("arg"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("database"), knownvalue.StringExact("postgres")),
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("schema"), knownvalue.StringExact("public")),
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("language"), knownvalue.StringExact("plpgsql")),
				statecheck.ExpectKnownValue("postgresql_function.noop", tfjsonpath.New("id"), knownvalue.StringExact("postgres.public."+strings.Split(name, `"`)[0]+"_noop()")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("postgres.public."+name+"(text,integer[])")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("mode"), knownvalue.StringExact("out")),
			},
		},
		{
			ResourceName:      addr,
			ImportState:       true,
			ImportStateId:     "postgres.public." + name + "(text,integer[])",
			ImportStateVerify: true,
			// mode "out" is read back as "OUT" on import; drop_cascade exists only in configuration
			ImportStateVerifyIgnore: []string{"arg.1.mode", "drop_cascade"},
		},
		{ // the same, with the name quoted as in SQL
			ResourceName:            addr,
			ImportState:             true,
			ImportStateId:           "postgres.public." + pgconn.QuoteIdent(name) + "(text,integer[])",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"arg.1.mode", "drop_cascade"},
		},
		{
			ResourceName:      "postgresql_function.tbl",
			ImportState:       true,
			ImportStateId:     "postgres.public." + strings.Split(name, `"`)[0] + "_tbl(integer)",
			ImportStateVerify: true,
			// read back as TABLE(a integer, b text)
			ImportStateVerifyIgnore: []string{"returns"},
		},
		{
			ResourceName:      "postgresql_function.noop",
			ImportState:       true,
			ImportStateId:     "postgres.public." + strings.Split(name, `"`)[0] + "_noop()",
			ImportStateVerify: true,
		},
		{ // RETURNS TABLE changed: replace
			Config: acctest.Config(`
resource "postgresql_function" "tbl" {
  name     = "%[1]s_tbl"
  language = "sql"
  arg {
    name = "n"
    type = "integer"
  }
  returns = "TABLE(a bigint, b text)"
  body    = "SELECT n::bigint, 'x'::text"
}`, strings.Split(name, `"`)[0]),
			ConfigPlanChecks: expectAction("postgresql_function.tbl", plancheck.ResourceActionDestroyBeforeCreate),
		},
	})
}

// TestAccFunction_spellingKeptOverEmptyAndDefault: the state keeps the
// configured spelling of the language and volatility; `""` (unset, whose
// meaning is the default plpgsql) and the default VOLATILE, spelt otherwise
// in the state, plan no change; a refresh keeps the spelling.
func TestAccFunction_spellingKeptOverEmptyAndDefault(t *testing.T) {
	name := acctest.RandName("fn")
	addr := "postgresql_function.test"
	cfg := func(attrs string) string {
		return acctest.Config(`
resource "postgresql_function" "test" {
  name = %q
  body = "BEGIN\n  PERFORM 1;\nEND;\n"
  %s
}`, name, attrs)
	}
	testAccFunctionInPostgres(t, name, []resource.TestStep{
		{
			Config: cfg(`language = "PLpgSQL"
  volatility = "volatile"
  parallel = "Unsafe"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("language"), knownvalue.StringExact("PLpgSQL")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("volatility"), knownvalue.StringExact("volatile")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("parallel"), knownvalue.StringExact("Unsafe")),
			},
		},
		{ // unset volatility and parallel, "" language: what they mean is what the state spells otherwise
			Config:           cfg(`language = ""`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("language"), knownvalue.StringExact("PLpgSQL")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("volatility"), knownvalue.StringExact("volatile")),
			},
		},
		{ // another value is a change, in place
			Config:           cfg(`volatility = "STABLE"`),
			ConfigPlanChecks: expectUpdate(addr),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("volatility"), knownvalue.StringExact("STABLE")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("language"), knownvalue.StringExact("PLpgSQL")),
			},
		},
	})
}

// TestAccCatalog_dropMissing: deleting catalog objects (functions, slots,
// publications, subscriptions) that are already gone, or whose database is gone, succeeds.
func TestAccCatalog_dropMissing(t *testing.T) {
	if testing.Short() || !accEnabled() {
		t.Skip("acceptance test")
	}
	acctest.PreCheck(t)
	c := accTestClient(t)
	ctx := t.Context()
	if err := c.DropFunction(ctx, "", 4000000000, "public", acctest.RandName("gone"), []string{"integer"}, false); err != nil {
		t.Errorf("function: %v", err)
	}
	if err := c.DropFunction(ctx, acctest.RandName("nodb"), 0, "public", "x", nil, true); err != nil {
		t.Errorf("function in missing database: %v", err)
	}
	// the destroy-plan warning counts dependents
	fn := acctest.RandName("dep")
	acctest.Exec(t, "", "CREATE FUNCTION public."+pgconn.QuoteIdent(fn)+"() RETURNS int LANGUAGE sql AS 'SELECT 1'",
		"CREATE VIEW public."+pgconn.QuoteIdent(fn+"_v")+" AS SELECT public."+pgconn.QuoteIdent(fn)+"() AS x")
	t.Cleanup(func() { acctest.Exec(t, "", "DROP FUNCTION public."+pgconn.QuoteIdent(fn)+"() CASCADE") })
	oid, err := c.FindFunction(ctx, "", "public", fn, nil)
	if err != nil || oid == 0 {
		t.Fatalf("FindFunction: %d, %v", oid, err)
	}
	if n, err := c.FunctionDependents(ctx, "", oid); err != nil || n != 1 {
		t.Errorf("FunctionDependents = %d, %v; want 1", n, err)
	}
	if err := c.DropReplicationSlot(ctx, "tfacc_gone_slot"); err != nil {
		t.Errorf("replication slot: %v", err)
	}
	if err := c.DropPublication(ctx, "", 4000000000, acctest.RandName("gone"), true); err != nil {
		t.Errorf("publication: %v", err)
	}
	if err := c.DropPublication(ctx, acctest.RandName("nodb"), 0, "x", false); err != nil {
		t.Errorf("publication in missing database: %v", err)
	}
	if err := c.DropSubscription(ctx, "", 0, acctest.RandName("gone")); err != nil {
		t.Errorf("subscription: %v", err)
	}
	if err := c.DropSubscription(ctx, acctest.RandName("nodb"), 0, "x"); err != nil {
		t.Errorf("subscription in missing database: %v", err)
	}
}

func accEnabled() bool { return os.Getenv("TF_ACC") != "" }

// accTestClient returns a pg.Client connected like the provider under test (PG* environment).
func accTestClient(t *testing.T) *pg.Client {
	t.Helper()
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := pg.NewClient(pgconn.Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres",
		Username: os.Getenv("PGUSER"), Password: os.Getenv("PGPASSWORD"),
		SSLMode: "disable", ConnectTimeout: 15 * time.Second, Superuser: os.Getenv("PGSUPERUSER") == "true",
	})
	t.Cleanup(c.Close)
	return c
}

// Without `returns`, arguments spelled differently from PostgreSQL (int,
// varchar(10), timestamptz, lower-case mode, default expressions) used to be
// replaced by the server's spelling after apply: "Provider produced
// inconsistent result" on .id and .arg[*].type.
func TestAccFunction_regressionSpellingWithoutReturns(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	name := acctest.RandName("fnspell")
	addr := "postgresql_function.test"
	id := "postgres.public." + name + "(int,varchar(10),timestamptz)"
	cfg := acctest.Config(`
resource "postgresql_function" "test" {
  name     = %q
  language = "sql"
  arg {
    name = "a"
    type = "int"
    mode = "in"
  }
  arg {
    name    = "b"
    type    = "varchar(10)"
    default = "'x'"
  }
  arg {
    name    = "c"
    type    = "timestamptz"
    default = "now()"
  }
  arg {
    name = "r"
    type = "int4"
    mode = "out"
  }
  body = "SELECT a + length(b)"
}`, name)
	testAccFunctionInPostgres(t, name, []resource.TestStep{
		{
			Config: cfg,
			ConfigPlanChecks: preApply(
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
				plancheck.ExpectUnknownValue(addr, tfjsonpath.New("returns")),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("returns"), knownvalue.StringExact("integer")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(0).AtMapKey("type"), knownvalue.StringExact("int")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(0).AtMapKey("mode"), knownvalue.StringExact("in")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("type"), knownvalue.StringExact("varchar(10)")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("default"), knownvalue.StringExact("'x'")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(2).AtMapKey("type"), knownvalue.StringExact("timestamptz")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(3).AtMapKey("mode"), knownvalue.StringExact("out")),
			},
			Check: func(*terraform.State) error {
				if got := acctest.QueryString(t, "postgres", "SELECT public."+pgconn.QuoteIdent(name)+"(1)::text"); got != "2" {
					return fmt.Errorf("f(1) = %s", got)
				}
				return nil
			},
		},
		{
			Config:   cfg,
			PlanOnly: true,
		},
		{
			ResourceName:      addr,
			ImportState:       true,
			ImportStateId:     id,
			ImportStateVerify: true,
			// read back as PostgreSQL renders them; the steps below prove they mean the same
			ImportStateVerifyIgnore: []string{"arg.0.mode", "arg.1.default", "arg.3.mode", "arg.3.type"},
		},
		{ // forget it, then import it for real: the configuration means what was imported
			Config: acctest.Config(`
removed {
  from = postgresql_function.test
  lifecycle {
    destroy = false
  }
}`),
		},
		{
			Config:             cfg,
			ResourceName:       addr,
			ImportState:        true,
			ImportStateId:      id,
			ImportStatePersist: true,
		},
		{
			Config:           cfg,
			ConfigPlanChecks: expectEmpty(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
			},
		},
	})
}

// logOffset is the current size of the server's statement log.
func logOffset(t *testing.T) int64 {
	st, err := os.Stat(os.Getenv("PGTF_SERVER_LOG"))
	if err != nil {
		t.Fatalf("server log: %v", err)
	}
	return st.Size()
}

var (
	logEntryStart = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`)
	logStatement  = regexp.MustCompile(`LOG:\s+(?:statement|execute [^:]*):\s(.*)$`)
	readOnlyStmt  = regexp.MustCompile(`(?is)^\s*(SELECT\b|BEGIN\b|START TRANSACTION\b|COMMIT\b|ROLLBACK\b|SHOW\b|WITH\b|-- ping\s*$)`) // -- ping: pgxpool's health check
	writeInSelect = regexp.MustCompile(`(?i)pg_advisory|pg_temp|nextval|set_config|txid_current\(|pg_current_xact_id\(`)
)

// statementsSince returns the statements the server logged for database db
// since offset (log_statement = all, see scripts/testdb).
func statementsSince(t *testing.T, offset int64, db string) []string {
	f, err := os.Open(os.Getenv("PGTF_SERVER_LOG"))
	if err != nil {
		t.Fatalf("server log: %v", err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, 0); err != nil {
		t.Fatal(err)
	}
	var out []string
	cur := -1
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if logEntryStart.MatchString(line) {
			cur = -1
			if strings.Contains(line, " db="+db+" ") {
				if m := logStatement.FindStringSubmatch(line); m != nil {
					out = append(out, m[1])
					cur = len(out) - 1
				}
			}
			continue
		}
		if cur >= 0 {
			out[cur] += "\n" + line
		}
	}
	return out
}

// Planning and refreshing a function used to run DDL: ModifyPlan created a
// throwaway function in pg_temp (SET LOCAL, CREATE FUNCTION: an XID, a lock,
// and the configuration's text executed) to learn PostgreSQL's spelling.
func TestAccFunction_regressionPlanIsReadOnly(t *testing.T) {
	if os.Getenv("PGTF_SERVER_LOG") == "" {
		t.Skip("needs the server's statement log (PGTF_SERVER_LOG, set by scripts/testdb)")
	}
	db := acctest.RandName("fnro")
	name := acctest.RandName("fnro")
	addr := "postgresql_function.test"
	cfg := func(intType, mode, returns string) string {
		return acctest.Config(`
resource "postgresql_function" "test" {
  name     = %q
  database = %q
  language = "sql"
  arg {
    name = "a"
    type = %q
    mode = %q
  }
  arg {
    name    = "b"
    type    = "varchar(10)"
    default = "'x'"
  }
  returns = %q
  body    = "SELECT a"
}`, name, db, intType, mode, returns)
	}
	var offset int64
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, db, name),
		Steps: []resource.TestStep{
			{
				Config: cfg("integer", "IN", "integer"),
			},
			{ // the same meaning, spelled differently: nothing to do
				PreConfig: func() { offset = logOffset(t) },
				Config:    cfg("int4", "in", "int"),
				PlanOnly:  true,
			},
			{ // an arg type change: a replacement, decided without the server
				PreConfig: func() {
					checkOnlyReads(t, statementsSince(t, offset, db))
					offset = logOffset(t)
				},
				Config:           cfg("bigint", "IN", "integer"),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
			},
		},
	})
}

func checkOnlyReads(t *testing.T, stmts []string) {
	t.Helper()
	reads := 0
	for _, s := range stmts {
		if !readOnlyStmt.MatchString(s) || writeInSelect.MatchString(s) {
			t.Errorf("plan/refresh ran a statement that is not a plain read: %s", s)
			continue
		}
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(s)), "SELECT") {
			reads++
		}
	}
	if reads == 0 {
		t.Errorf("no reads logged for the plan (is log_statement = all?); statements: %q", stmts)
	}
}

// Configuration text spliced into CREATE FUNCTION (arg type, default,
// returns) could carry a second statement, which the simple protocol ran.
// It is refused at validation, naming the attribute, and the statement goes
// over the extended protocol; the body is always a quoted literal.
func TestAccFunction_regressionSmuggledStatement(t *testing.T) {
	name := acctest.RandName("fnsmug")
	victim := acctest.RandName("victim")
	drop := "DROP ROLE " + pgconn.QuoteIdent(victim)
	prefix := "RETURNS int LANGUAGE sql AS 'SELECT 1'; " + drop + "; --"
	cfg := func(typ, def, returns, body string) string {
		ret := ""
		if returns != "" {
			ret = "returns = " + acctest.QuoteHCL(returns)
		}
		return acctest.Config(`
resource "postgresql_function" "test" {
  name     = %q
  language = "sql"
  arg {
    name    = "a"
    type    = %s
    default = %s
  }
  %s
  body = %s
}`, name, acctest.QuoteHCL(typ), acctest.QuoteHCL(def), ret, acctest.QuoteHCL(body))
	}
	victimAlive := func() {
		if !acctest.QueryBool(t, "postgres", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", victim) {
			t.Fatalf("role %s was dropped by smuggled SQL", victim)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Exec(t, "postgres", "CREATE ROLE "+pgconn.QuoteIdent(victim))
			if acctest.Managed() { // so that the managed admin could drop it if it ever ran
				acctest.Exec(t, "postgres", "GRANT "+pgconn.QuoteIdent(victim)+" TO "+pgconn.QuoteIdent(acctest.AdminUser())+" WITH ADMIN OPTION")
			}
			t.Cleanup(func() {
				if !acctest.QueryBool(t, "postgres", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", victim) {
					t.Errorf("role %s was dropped by smuggled SQL", victim)
				}
				acctest.Exec(t, "postgres", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(victim))
			})
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, "postgres", name),
		Steps: []resource.TestStep{
			{ // (the default and returns are not part of the signature: before the fix the smuggled statement was committed)
				Config:      cfg("int", "1) "+prefix, "", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+SQL\s+fragment.*arg\[0\]\.default`),
			},
			{
				PreConfig:   victimAlive,
				Config:      cfg("int) "+prefix, "", "", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+SQL\s+fragment.*arg\[0\]\.type`),
			},
			{
				PreConfig:   victimAlive,
				Config:      cfg("int", "", "int LANGUAGE sql AS 'SELECT 1'; "+drop+"; --", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid\s+SQL\s+fragment.*returns`),
			},
			{ // the body is sent as one quoted literal: breaking out of it only breaks the body
				PreConfig:   victimAlive,
				Config:      cfg("int", "", "int", "SELECT 1'; "+drop+"; --"),
				ExpectError: regexp.MustCompile(`unterminated\s+quoted\s+string`),
			},
			{
				PreConfig: victimAlive,
				Config:    cfg("int", "", "int", "SELECT a"),
				Check: func(*terraform.State) error {
					victimAlive()
					return nil
				},
			},
		},
	})
}

// A dynamic "arg" block whose for_each is known only after apply made the
// arg list unknown at plan, which the model could not hold.
func TestAccFunction_regressionDynamicArgUnknownForEach(t *testing.T) {
	name := acctest.RandName("fndyn")
	addr := "postgresql_function.test"
	cfg := acctest.Config(`
resource "terraform_data" "args" {
  input = [{ name = "a", type = "int" }, { name = "b", type = "text" }]
}
resource "postgresql_function" "test" {
  name     = %q
  language = "sql"
  dynamic "arg" {
    for_each = terraform_data.args.output
    content {
      name = arg.value.name
      type = arg.value.type
    }
  }
  body = "SELECT a + length(b)"
  returns = "int"
}`, name)
	testAccFunctionInPostgres(t, name, []resource.TestStep{
		{
			Config: cfg,
			ConfigPlanChecks: preApply(
				plancheck.ExpectUnknownValue(addr, tfjsonpath.New("arg")),
				plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("postgres.public."+name+"(int,text)")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("type"), knownvalue.StringExact("text")),
			},
		},
		{
			Config:   cfg,
			PlanOnly: true,
		},
	})
}

// A function in a schema another role owns: creating, renaming, moving and
// replacing a function need CREATE on its schema, which the managed admin
// has only in the schemas it owns ("permission denied for schema"; found by
// the random walk of internal/walk, seed 4 step 1 as the managed admin on
// PostgreSQL 18, where the schema's owner was a role of the configuration).
func TestAccFunction_regressionSchemaOwnedByAnotherRole(t *testing.T) {
	role, s1, s2 := acctest.RandName("fnown"), acctest.RandName("fnown_s1"), acctest.RandName("fnown_s2")
	name := acctest.RandName("fnown_f")
	addr := "postgresql_function.f"
	cfg := func(fname, schema, body string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" { name = %[1]q }
resource "postgresql_schema" "s1" {
  name  = %[2]q
  owner = postgresql_role.owner.name
}
resource "postgresql_schema" "s2" {
  name  = %[3]q
  owner = postgresql_role.owner.name
}
resource "postgresql_function" "f" {
  name     = %[4]q
  schema   = postgresql_schema.%[5]s.name
  language = "sql"
  returns  = "integer"
  body     = %[6]q
}`, role, s1, s2, fname, schema, body)
	}
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	where := func(schema, fname string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if !acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.proname = $2)", schema, fname) {
				return fmt.Errorf("no function %s.%s", schema, fname)
			}
			return nil
		}
	}
	testAccFunctionInPostgres(t, name, []resource.TestStep{
		{
			Config:            cfg(name, "s1", "SELECT 1"),
			ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			Check:             where(s1, name),
		},
		{ // renamed, moved and replaced in place
			Config:            cfg(name+"_2", "s2", "SELECT 2"),
			ConfigPlanChecks:  preApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
			ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
			Check:             where(s2, name+"_2"),
		},
	})
}
