package provider

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Plan and refresh are read-only. The policy refresh used to run CREATE POLICY
// (rolled back) to normalise expressions: with a session holding a lock on the
// table, `terraform plan` waited for the lock timeout and then showed a false
// diff. Here a session holds ACCESS EXCLUSIVE on the table while Terraform
// plans a policy, a grant and a function on it: the plan must show no
// changes, and the server's log must show no DDL, DCL, write or read-write
// transaction from the provider during it, and no wait for a lock (the
// server logs every wait longer than deadlock_timeout; a time limit on the
// plan failed on a loaded machine).
func TestAccPlan_regressionLockedTableDDLAtPlan(t *testing.T) {
	logPath := os.Getenv("PGTF_SERVER_LOG")
	if logPath == "" {
		t.Skip("PGTF_SERVER_LOG is not set (run through scripts/testdb, which logs every statement)")
	}
	db := acctest.RandName("lockdb")
	qt := pgconn.QuoteQualified("public", "items")
	admin := pgconn.QuoteIdent(acctest.AdminUser())
	cfg := acctest.Config(`
resource "postgresql_role" "g" { name = %[2]q }
resource "postgresql_policy" "test" {
  database   = %[1]q
  table      = "items"
  name       = "p"
  command    = "UPDATE"
  roles      = [postgresql_role.g.name]
  using      = "owner=current_user"
  with_check = "id>0"
}
resource "postgresql_grant" "test" {
  database    = %[1]q
  role        = postgresql_role.g.name
  schema      = "public"
  object_type = "table"
  objects     = ["items"]
  privileges  = ["SELECT", "UPDATE"]
}
resource "postgresql_function" "test" {
  database = %[1]q
  name     = "item_id"
  language = "sql"
  arg {
    name = "r"
    type = "items"
  }
  returns = "integer"
  body    = "SELECT r.id"
}`, db, db+"_g")

	var (
		lock    interface{ Close(context.Context) error }
		started time.Time
		marker  = strings.ReplaceAll(db, "-", "_")
	)
	holdLock := func() {
		conn := acctest.SuperConn(t, db)
		ctx := context.Background()
		for _, s := range []string{
			// the server ends the session (and the lock) if the test never does
			"SET idle_in_transaction_session_timeout = '120s'",
			"BEGIN",
			"LOCK TABLE " + qt + " IN ACCESS EXCLUSIVE MODE",
		} {
			if _, err := conn.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		lock = conn
		acctest.Exec(t, db, "SELECT 'pgtf-plan-begin-"+marker+"'")
		started = time.Now()
	}
	checkPlan := func() {
		elapsed := time.Since(started)
		acctest.Exec(t, db, "SELECT 'pgtf-plan-end-"+marker+"'")
		if lock != nil {
			_ = lock.Close(context.Background())
		}
		t.Logf("planning with the table locked took %s", elapsed)
		if bad := statementsBetweenMarkers(t, logPath, db, "pgtf-plan-begin-"+marker, "pgtf-plan-end-"+marker); len(bad) > 0 {
			t.Errorf("statements that plan and refresh must not run:\n%s", strings.Join(bad, "\n"))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.TempDatabase(t, db,
				"GRANT CREATE, USAGE ON SCHEMA public TO "+admin,
				"CREATE TABLE "+qt+" (id int, owner text)",
				"ALTER TABLE "+qt+" OWNER TO "+admin)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg},
			{ // refresh and plan while another session holds ACCESS EXCLUSIVE on the table
				PreConfig: holdLock,
				Config:    cfg,
				PlanOnly:  true,
			},
			{
				PreConfig: checkPlan,
				Config:    cfg,
				PlanOnly:  true,
			},
		},
	})
}

// forbiddenAtPlan matches statements that change something, take locks or
// open a read-write transaction.
var forbiddenAtPlan = regexp.MustCompile(`(?is)^\s*(CREATE|ALTER|DROP|GRANT|REVOKE|LOCK|COMMENT|SECURITY\s+LABEL|REASSIGN|TRUNCATE|INSERT|UPDATE|DELETE|MERGE|COPY|VACUUM|ANALYZE|CLUSTER|REINDEX|REFRESH|IMPORT|SET\s+(SESSION\s+)?ROLE|RESET\s+ROLE|SET\s+SESSION\s+AUTHORIZATION|DO|CALL|PREPARE\s+TRANSACTION|BEGIN(\s+ISOLATION\s+LEVEL\s+\w+(\s+\w+)?)?\s*;?\s*$|START\s+TRANSACTION\s*;?\s*$|SAVEPOINT)\b|pg_advisory|txid_current\(\)|FOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b`)

// lockWait matches the server's report of a session that waited for a lock
// longer than deadlock_timeout (log_lock_waits = on in scripts/testdb).
var lockWait = regexp.MustCompile(`^process \d+ (still waiting|acquired) `)

// statementsBetweenMarkers returns the statements of database db that the
// server logged (log_statement = all) between the lines holding the markers
// begin and end and that forbiddenAtPlan matches, and the server's reports of
// a session of db that waited for a lock there (log_lock_waits): planning
// never waits for a lock, whatever the machine's load.
func statementsBetweenMarkers(t *testing.T, logPath, db, begin, end string) []string {
	t.Helper()
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatalf("reading the server log: %v", err)
	}
	defer f.Close()
	entry := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ \[\d+\] db=(\S*) user=\S* (\w+):\s+(.*)$`)
	stmt := regexp.MustCompile(`^(?:statement|execute [^:]*): (.*)$`)
	type logEntry struct{ db, text string }
	var entries []logEntry
	var cur *logEntry
	in, seen := false, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	flush := func() {
		if cur != nil && in {
			entries = append(entries, *cur)
		}
		cur = nil
	}
	for sc.Scan() {
		line := sc.Text()
		if m := entry.FindStringSubmatch(line); m != nil {
			flush()
			if strings.Contains(line, begin) {
				in, seen = true, seen+1
				continue
			}
			if strings.Contains(line, end) {
				in, seen = false, seen+1
				continue
			}
			if s := stmt.FindStringSubmatch(m[3]); s != nil && m[2] == "LOG" {
				cur = &logEntry{db: m[1], text: s[1]}
			} else if m[2] == "LOG" && lockWait.MatchString(m[3]) {
				cur = &logEntry{db: m[1], text: m[3]}
			}
			continue
		}
		if cur != nil {
			cur.text += "\n" + line // continuation of a multi-line statement
		}
	}
	flush()
	if seen < 2 {
		t.Fatalf("the markers %q and %q are not both in the server log %s", begin, end, logPath)
	}
	var bad []string
	for _, e := range entries {
		if e.db == db && (forbiddenAtPlan.MatchString(e.text) || lockWait.MatchString(e.text)) {
			bad = append(bad, "  "+strings.ReplaceAll(e.text, "\n", " "))
		}
	}
	if len(entries) == 0 {
		t.Errorf("no statement of database %q was logged between the markers: the check saw nothing", db)
	}
	return bad
}

// The log check itself: it must see what it is there to see.
func TestStatementsBetweenMarkers(t *testing.T) {
	log := `2026-01-01 00:00:00.000 UTC [1] db=d user=u LOG:  statement: SELECT 'b'
2026-01-01 00:00:00.001 UTC [2] db=d user=u LOG:  execute <unnamed>: begin read only
2026-01-01 00:00:00.002 UTC [2] db=d user=u LOG:  execute stmtcache_1: SELECT p.oid
	FROM pg_policy p WHERE x FOR UPDATE
2026-01-01 00:00:00.003 UTC [2] db=d user=u LOG:  statement: CREATE POLICY pgtf_normalize ON t USING (true)
2026-01-01 00:00:00.004 UTC [2] db=other user=u LOG:  statement: DROP TABLE x
2026-01-01 00:00:00.005 UTC [2] db=d user=u LOG:  statement: begin
2026-01-01 00:00:00.006 UTC [2] db=d user=u LOG:  statement: SELECT has_table_privilege('x', 'SELECT')
2026-01-01 00:00:00.006 UTC [2] db=d user=u LOG:  process 2 still waiting for AccessShareLock on relation 16384 of database 5 after 1000.081 ms
2026-01-01 00:00:00.006 UTC [2] db=d user=u DETAIL:  Process holding the lock: 1. Wait queue: 2.
2026-01-01 00:00:00.007 UTC [1] db=d user=u LOG:  statement: SELECT 'e'
2026-01-01 00:00:00.008 UTC [2] db=d user=u LOG:  statement: DROP TABLE y
`
	p := t.TempDir() + "/log"
	if err := os.WriteFile(p, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	got := statementsBetweenMarkers(t, p, "d", "'b'", "'e'")
	want := []string{"  SELECT p.oid 	FROM pg_policy p WHERE x FOR UPDATE", "  CREATE POLICY pgtf_normalize ON t USING (true)", "  begin", "  process 2 still waiting for AccessShareLock on relation 16384 of database 5 after 1000.081 ms"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
