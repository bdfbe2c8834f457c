package provider

import (
	"fmt"
	"regexp"
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

func TestCheckQuery(t *testing.T) {
	for q, ok := range map[string]bool{
		"SELECT 1":                             true,
		"select 1;":                            true,
		"  (SELECT 1) UNION (SELECT 2) ;\n":    true,
		"WITH x AS (SELECT 1) SELECT * FROM x": true,
		"VALUES (1), (2)":                      true,
		"TABLE pg_roles":                       true,
		"-- comment\n/* c */ SELECT ';'":       true,
		"SELECT $$;$$, ';', \";\"":             true,
		"SELECT 1; SELECT 2":                   false,
		"SELECT 1;;":                           false,
		"INSERT INTO t VALUES (1)":             false,
		"DEALLOCATE ALL":                       false,
		"SET search_path = x":                  false,
		"LOAD 'auto_explain'":                  false,
		"EXPLAIN ANALYZE DELETE FROM t":        false,
		"":                                     false,
		"  ;":                                  false,
		"SELECT 'unclosed":                     false,
		"selectx 1":                            false,
	} {
		if err := pg.CheckQuery(q); (err == nil) != ok {
			t.Errorf("CheckQuery(%q) = %v, want ok=%t", q, err, ok)
		}
	}
}

// queryDB creates a database the admin owns with a table, a sequence and a
// function that writes, all the admin's own (both admin modes).
func queryDB(t *testing.T, db string) {
	acctest.Database(t, db, acctest.AdminUser())
	acctest.AdminExec(t, db,
		"CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(10,2), tags text[], active boolean)",
		"INSERT INTO items VALUES (1, 'one', 1.50, '{a,b}', true), (2, NULL, 20, '{}', false), (3, 'three', NULL, NULL, NULL)",
		"CREATE SEQUENCE counter",
		"CREATE FUNCTION bump() RETURNS int VOLATILE LANGUAGE sql AS 'INSERT INTO items (id, name) VALUES (100, ''bumped'') RETURNING id'")
}

func queryConfig(db, body string) string {
	return acctest.Config(`data "postgresql_query" "q" {
  database = %q
  %s
}`, db, body)
}

// TestAccQueryDataSource_rows: rows as maps of the server's text, NULL as
// null, parameters bound by value, the columns' names and types.
func TestAccQueryDataSource_rows(t *testing.T) {
	db := acctest.RandName("querydb")
	addr := "data.postgresql_query.q"
	str := knownvalue.StringExact
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); queryDB(t, db) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: queryConfig(db, `query = "SELECT id, name, price, tags, active FROM items WHERE id >= $1 AND (name IS DISTINCT FROM $2) ORDER BY id"
  args  = ["2", "nobody'; DROP TABLE items; --"]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rows"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.MapExact(map[string]knownvalue.Check{"id": str("2"), "name": knownvalue.Null(), "price": str("20.00"), "tags": str("{}"), "active": str("f")}),
						knownvalue.MapExact(map[string]knownvalue.Check{"id": str("3"), "name": str("three"), "price": knownvalue.Null(), "tags": knownvalue.Null(), "active": knownvalue.Null()}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("columns"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("id"), "type": str("integer")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("name"), "type": str("text")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("price"), "type": str("numeric(10,2)")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("tags"), "type": str("text[]")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("active"), "type": str("boolean")}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), str(db)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("statement_timeout"), knownvalue.Int64Exact(defaultQueryTimeout)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_rows"), knownvalue.Int64Exact(defaultQueryMaxRows)),
				},
			},
			{ // a null argument is SQL NULL; no rows is an empty list
				Config: queryConfig(db, `query = "SELECT id FROM items WHERE name = $1"
  args  = [null]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rows"), knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("columns"), knownvalue.ListSizeExact(1)),
				},
			},
			{ // the provider's database by default
				Config: acctest.Config(`data "postgresql_query" "q" {
  query = "VALUES (current_database(), current_setting('transaction_read_only'))"
}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rows"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.MapExact(map[string]knownvalue.Check{"column1": str(acctest.DefaultDatabase()), "column2": str("on")}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("database"), str(acctest.DefaultDatabase())),
				},
			},
		},
	})
}

// TestAccQueryDataSource_refusesWrites: a write, a second statement, another
// kind of statement, and a function that writes all fail, and nothing they
// tried survives (the table is unchanged, the sequence did not move, no
// advisory lock is left on a pooled session).
func TestAccQueryDataSource_refusesWrites(t *testing.T) {
	db := acctest.RandName("querydb")
	readOnly := regexp.MustCompile(`read-only transaction`)
	steps := []struct {
		body string
		err  *regexp.Regexp
	}{
		{`query = "INSERT INTO items (id) VALUES (50)"`, regexp.MustCompile(`(?s)starts with INSERT.*must be one SELECT`)},
		{`query = "SELECT 1; DELETE FROM items"`, regexp.MustCompile(`more than one statement`)},
		{`query = "DEALLOCATE ALL"`, regexp.MustCompile(`starts with DEALLOCATE`)},
		{`query = "WITH gone AS (DELETE FROM items RETURNING id) SELECT count(*) FROM gone"`, readOnly},
		{`query = "SELECT bump()"`, readOnly}, // a volatile function that inserts
		{`query = "SELECT nextval('counter')"`, readOnly},
		{`query = "SELECT * INTO copied FROM items"`, readOnly},
		{`query = "SELECT pg_sleep(5)"
  statement_timeout = 1`, regexp.MustCompile(`statement timeout`)},
		{`query = "SELECT generate_series(1, 5)"
  max_rows = 3`, regexp.MustCompile(`more than 3 rows`)},
		{`query = "SELECT 1 AS a, 2 AS a"`, regexp.MustCompile(`two columns\s+named "a"`)},
		{`query = "SELECT $1::int"
  args = ["x"]`, regexp.MustCompile(`invalid input syntax for type integer`)},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: queryConfig(db, s.body), ExpectError: s.err})
	}
	// a session-level lock and setting taken by a read: neither outlives it
	ts = append(ts, resource.TestStep{
		Config: queryConfig(db, `query = "SELECT pg_advisory_lock(424242), set_config('search_path', 'nowhere', false)"`),
		Check: func(*terraform.State) error {
			if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 424242)") {
				return fmt.Errorf("the advisory lock taken by the query is still held")
			}
			return nil
		},
	})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); queryDB(t, db) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, db, "SELECT count(*)::text FROM items"); n != "3" {
				return fmt.Errorf("items has %s rows, want the 3 it was created with", n)
			}
			if acctest.QueryBool(t, db, "SELECT is_called FROM counter") {
				return fmt.Errorf("the sequence moved")
			}
			if acctest.QueryBool(t, db, "SELECT to_regclass('copied') IS NOT NULL") {
				return fmt.Errorf("SELECT INTO created a table")
			}
			return nil
		},
		Steps: ts,
	})
}

// TestAccQueryDataSource_unknownArgs: with an argument known only after
// apply, the plan defers the read (the query does not run with a guess) and
// the apply runs it.
func TestAccQueryDataSource_unknownArgs(t *testing.T) {
	role := acctest.RandName("query_role")
	addr := "data.postgresql_query.q"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`
resource "postgresql_role" "r" { name = %q }
data "postgresql_query" "q" {
  query = "SELECT rolname FROM pg_roles WHERE oid = $1::oid"
  args  = [postgresql_role.r.oid]
}`, role),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("rows")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("columns")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rows"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.MapExact(map[string]knownvalue.Check{"rolname": knownvalue.StringExact(role)}),
					})),
				},
			},
		},
	})
}
