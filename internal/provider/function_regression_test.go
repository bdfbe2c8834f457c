package provider

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Without `returns`, arguments spelled differently from PostgreSQL (int,
// varchar(10), timestamptz, lower-case mode, default expressions) used to be
// replaced by the server's spelling after apply: "Provider produced
// inconsistent result" on .id and .arg[*].type.
func TestAccFunction_regressionSpellingWithoutReturns(t *testing.T) {
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
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, "postgres", name),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("returns")),
					},
				},
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
					if got := acctest.QueryString(t, "postgres", "SELECT public."+pg.QuoteIdent(name)+"(1)::text"); got != "2" {
						return fmt.Errorf("f(1) = %s", got)
					}
					return nil
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
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
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
				},
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
				Config: cfg("bigint", "IN", "integer"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
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
	drop := "DROP ROLE " + pg.QuoteIdent(victim)
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
			acctest.Exec(t, "postgres", "CREATE ROLE "+pg.QuoteIdent(victim))
			if acctest.Managed() { // so that the managed admin could drop it if it ever ran
				acctest.Exec(t, "postgres", "GRANT "+pg.QuoteIdent(victim)+" TO "+pg.QuoteIdent(acctest.AdminUser())+" WITH ADMIN OPTION")
			}
			t.Cleanup(func() {
				if !acctest.QueryBool(t, "postgres", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", victim) {
					t.Errorf("role %s was dropped by smuggled SQL", victim)
				}
				acctest.Exec(t, "postgres", "DROP ROLE IF EXISTS "+pg.QuoteIdent(victim))
			})
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, "postgres", name),
		Steps: []resource.TestStep{
			{ // (the default and returns are not part of the signature: before the fix the smuggled statement was committed)
				Config:      cfg("int", "1) "+prefix, "", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid SQL fragment.*arg\[0\]\.default`),
			},
			{
				PreConfig:   victimAlive,
				Config:      cfg("int) "+prefix, "", "", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid SQL fragment.*arg\[0\]\.type`),
			},
			{
				PreConfig:   victimAlive,
				Config:      cfg("int", "", "int LANGUAGE sql AS 'SELECT 1'; "+drop+"; --", "SELECT 1"),
				ExpectError: regexp.MustCompile(`(?s)Invalid SQL fragment.*returns`),
			},
			{ // the body is sent as one quoted literal: breaking out of it only breaks the body
				PreConfig:   victimAlive,
				Config:      cfg("int", "", "int", "SELECT 1'; "+drop+"; --"),
				ExpectError: regexp.MustCompile(`unterminated quoted string`),
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
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkFunctionGone(t, "postgres", name),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("arg")),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("postgres.public."+name+"(int,text)")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("arg").AtSliceIndex(1).AtMapKey("type"), knownvalue.StringExact("text")),
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
