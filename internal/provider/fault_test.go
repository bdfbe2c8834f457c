package provider

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Fault-injection tests. They are not parallel: they run before the package's
// parallel tests are released, and every fault they inject is aimed at their
// own sessions only (a unique application_name, or a cluster of their own),
// since other packages' tests use the shared server meanwhile.

func skipUnlessAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	acctest.PreCheck(t)
}

// faultConfig is count roles, count schemas and a grant of USAGE on each
// schema to its role: 3*count resources.
func faultConfig(provider, prefix string, count int) string {
	return provider + fmt.Sprintf(`
resource "postgresql_role" "r" {
  count = %[2]d
  name  = "%[1]s_${count.index}"
}
resource "postgresql_schema" "s" {
  count = %[2]d
  name  = "%[1]s_${count.index}"
}
resource "postgresql_grant" "g" {
  count       = %[2]d
  database    = %[3]q
  role        = postgresql_role.r[count.index].name
  schema      = postgresql_schema.s[count.index].name
  object_type = "schema"
  privileges  = ["USAGE"]
}
`, prefix, count, acctest.DefaultDatabase())
}

// checkServerMatchesState compares the roles and schemas named prefix_* in the
// server (query runs a count with $1 = the LIKE pattern) with the state: no
// orphans, nothing twice.
func checkServerMatchesState(prefix string, count func(query string, arg string) (int, error), want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		inState := map[string]int{}
		for _, r := range s.RootModule().Resources {
			inState[r.Type]++
		}
		pattern := strings.ReplaceAll(prefix, "_", `\_`) + `\_%`
		for typ, q := range map[string]string{
			"postgresql_role":   "SELECT count(*) FROM pg_roles WHERE rolname LIKE $1",
			"postgresql_schema": "SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1",
		} {
			n, err := count(q, pattern)
			if err != nil {
				return err
			}
			if n != inState[typ] || n != want {
				return fmt.Errorf("%s: %d in the server, %d in the state, %d configured", typ, n, inState[typ], want)
			}
		}
		if inState["postgresql_grant"] != want {
			return fmt.Errorf("postgresql_grant: %d in the state, %d configured", inState["postgresql_grant"], want)
		}
		return nil
	}
}

func superCount(t *testing.T) func(string, string) (int, error) {
	return func(q, arg string) (int, error) {
		conn := acctest.SuperConn(t, "")
		defer conn.Close(context.Background())
		var n int
		err := conn.QueryRow(context.Background(), q, arg).Scan(&n)
		return n, err
	}
}

// sharedClientFromEnv is the client the provider under test uses with an
// empty provider block (same configuration, so the same shared client).
func sharedClientFromEnv(t *testing.T) *pg.Client {
	cfg, cerr := configureConfig(providerModel{}, os.Getenv, testOptions())
	if cerr != nil {
		t.Fatal(cerr.detail)
	}
	return pg.SharedClient(cfg)
}

// Terminating the provider's backends over and over (as a failover, a proxy
// or an idle-connection reaper does) during an apply of 120 resources: reads
// and writes retry, writes with an unknown outcome are adopted or repeated,
// and the apply succeeds with every object exactly once.
//
// The killing is bounded (killWindow from the first termination, or until
// three quarters of the roles and schemas exist), far inside
// max_retry_duration: on a loaded machine a statement can take longer than
// the gap between two waves, and an unbounded killer then starves it until
// its retries give up, which proves nothing about the provider (a CI run
// failed so, after 370 s). Every wave still kills every session of the
// provider, wherever it is.
func TestAccFault_terminatedBackends(t *testing.T) {
	skipUnlessAcc(t)
	prefix := acctest.RandName("fkill")
	app := "tfacc_fault_" + prefix
	t.Setenv("PGAPPNAME", app) // the provider's sessions, and only them, carry it
	const n = 40

	var stopOnce sync.Once
	stop := make(chan struct{})
	done := make(chan struct{})
	var kills atomic.Int64
	var started atomic.Bool
	stopKiller := func() {
		stopOnce.Do(func() {
			close(stop)
			if started.Load() {
				<-done
			}
		})
	}
	t.Cleanup(stopKiller)
	client := sharedClientFromEnv(t)
	adopted0, repeated0 := testOutcomes.Adopted.Load(), testOutcomes.Repeated.Load()
	const killWindow = 20 * time.Second
	var killedFor atomic.Int64 // nanoseconds from the first termination to the last wave
	startKiller := func() {
		started.Store(true)
		conn := acctest.SuperConn(t, "")
		pattern := strings.ReplaceAll(prefix, "_", `\_`) + `\_%`
		go func() {
			defer close(done)
			defer conn.Close(context.Background())
			var first time.Time
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(100+rand.IntN(200)) * time.Millisecond):
				}
				if !first.IsZero() {
					killedFor.Store(int64(time.Since(first)))
					var made int
					if time.Since(first) > killWindow || conn.QueryRow(context.Background(), `
SELECT (SELECT count(*) FROM pg_roles WHERE rolname LIKE $1) + (SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1)`,
						pattern).Scan(&made) == nil && made >= 3*2*n/4 {
						<-stop // the rest of the apply runs in peace
						return
					}
				}
				var k int64
				if err := conn.QueryRow(context.Background(), `
SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&k); err == nil {
					kills.Add(k)
					if k > 0 && first.IsZero() {
						first = time.Now()
					}
				}
			}
		}()
	}
	report := func() string {
		return fmt.Sprintf("%d backends terminated in %s, %d retries after connection failures, %d writes with an unknown outcome, %d adopted, %d created/updated/dropped again",
			kills.Load(), time.Duration(killedFor.Load()).Round(100*time.Millisecond), client.Retries(), client.OutcomesUnknown(),
			testOutcomes.Adopted.Load()-adopted0, testOutcomes.Repeated.Load()-repeated0)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fault counts when the test failed: %s", report())
		}
	})

	config := faultConfig(acctest.ProviderBlock, prefix, n)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: startKiller,
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						stopKiller()
						t.Logf("fault counts: %s", report())
						if kills.Load() == 0 {
							return errors.New("no backend was terminated: the test proved nothing")
						}
						if client.Retries() == 0 {
							return errors.New("no statement was retried: the terminations never reached the provider's client, or this is not the client the provider used")
						}
						return nil
					},
					checkServerMatchesState(prefix, superCount(t), n),
				),
			},
			{ // the re-apply converges (the framework checks the plan is empty)
				Config: config,
				Check:  checkServerMatchesState(prefix, superCount(t), n),
			},
		},
	})
}

// A table locked by another session: a policy on it (CREATE POLICY needs an
// ACCESS EXCLUSIVE lock; GRANT takes no lock on the table, so a grant would not
// wait) fails within lock_timeout with an error saying so and naming the
// session; once the lock is released the same configuration applies.
func TestAccFault_lockTimeout(t *testing.T) {
	skipUnlessAcc(t)
	name := acctest.RandName("flock")
	db := acctest.DefaultDatabase()
	acctest.AdminExec(t, db, fmt.Sprintf("CREATE TABLE public.%s (id int)", acctest.QI(name)))
	t.Cleanup(acctest.ExecFunc(t, db, fmt.Sprintf("DROP TABLE IF EXISTS public.%s", acctest.QI(name))))

	var holder pgx.Tx
	var holderConn *pgx.Conn
	release := func() {
		if holder != nil {
			_ = holder.Rollback(context.Background())
			_ = holderConn.Close(context.Background())
			holder = nil
		}
	}
	t.Cleanup(release)
	hold := func() {
		holderConn = acctest.SuperConn(t, db)
		tx, err := holderConn.Begin(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(context.Background(), fmt.Sprintf("LOCK TABLE public.%s IN ACCESS EXCLUSIVE MODE", acctest.QI(name))); err != nil {
			t.Fatal(err)
		}
		holder = tx
	}
	config := fmt.Sprintf(`
provider "postgresql" {
  lock_timeout = 2
}
resource "postgresql_role" "r" { name = %[1]q }
resource "postgresql_policy" "p" {
  database = %[2]q
  schema   = "public"
  table    = %[1]q
  name     = %[1]q
  command  = "SELECT"
  roles    = [postgresql_role.r.name]
  using    = "true"
}
`, name, db)
	var started time.Time
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { hold(); started = time.Now() },
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)lock\s+was\s+not\s+obtained\s+within\s+lock_timeout\s+\(2s\).*AccessExclusiveLock\s+on\s+\S*` + regexp.QuoteMeta(name) + `.*raise\s+the\s+provider\s+argument\s+lock_timeout`),
			},
			{
				PreConfig: func() {
					// the error of the first step names the lock timeout (2s) that ended the wait
					t.Logf("the locked apply failed after %s", time.Since(started).Round(time.Second))
					release()
				},
				Config: config,
				Check: func(*terraform.State) error {
					if !acctest.QueryBool(t, db, "SELECT EXISTS (SELECT 1 FROM pg_policy WHERE polname = $1)", name) {
						return errors.New("the policy was not created after the lock was released")
					}
					return nil
				},
			},
		},
	})
}

// testCluster is a throwaway cluster of one test (scripts/testdb), for faults
// that would disturb the shared server (a restart).
type testCluster struct {
	dir, bindir              string
	port                     string
	superPassword            string
	managedUser, managedPass string
}

var envValue = regexp.MustCompile(`(\w+)='?([^' \n]*)'?`)

func startTestCluster(t *testing.T) *testCluster {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(os.TempDir(), "pgtf-fault-"+acctest.RandName("c"))
	script := filepath.Join(root, "scripts", "testdb")
	out, err := exec.Command(script, "start", dir).CombinedOutput()
	t.Cleanup(func() { _ = exec.Command(script, "stop", dir).Run() })
	if err != nil {
		t.Fatalf("starting a cluster: %v\n%s", err, out)
	}
	c := &testCluster{dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "bindir"))
	if err != nil {
		t.Fatal(err)
	}
	c.bindir = strings.TrimSpace(string(b))
	for file, vars := range map[string]map[string]*string{
		"env.sh":         {"PGPORT": &c.port, "PGPASSWORD": &c.superPassword},
		"env-managed.sh": {"PGUSER": &c.managedUser, "PGPASSWORD": &c.managedPass},
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range envValue.FindAllStringSubmatch(string(b), -1) {
			if p, ok := vars[m[1]]; ok {
				*p = m[2]
			}
		}
	}
	return c
}

// providerBlock points the provider at the cluster as the admin of the test's mode.
func (c *testCluster) providerBlock() string {
	user, pass, super := "postgres", c.superPassword, true
	if acctest.Managed() {
		user, pass, super = c.managedUser, c.managedPass, false
	}
	return fmt.Sprintf(`
provider "postgresql" {
  host      = "127.0.0.1"
  port      = %s
  username  = %q
  password  = %q
  sslmode   = "disable"
  superuser = %v
}
`, c.port, user, pass, super)
}

func (c *testCluster) count(q, arg string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=postgres password='%s' dbname=postgres sslmode=disable", c.port, c.superPassword))
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, q, arg).Scan(&n)
	return n, err
}

// restart restarts the server (fast: sessions are terminated), waiting until it accepts connections again.
func (c *testCluster) restart() error {
	args := []string{filepath.Join(c.bindir, "pg_ctl"), "-D", filepath.Join(c.dir, "data"), "-l", filepath.Join(c.dir, "log", "postgresql.log"), "-m", "fast", "-w", "-t", "60", "restart"}
	if os.Geteuid() == 0 {
		args = append([]string{"runuser", "-u", "postgres", "--"}, args...)
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl restart: %w: %s", err, out)
	}
	return nil
}

// A server restart in the middle of an apply (as a failover does): new
// connections wait for the server, nothing fails, every object exists once.
func TestAccFault_serverRestart(t *testing.T) {
	skipUnlessAcc(t)
	c := startTestCluster(t)
	prefix := acctest.RandName("frst")
	const n = 50
	var restarted atomic.Bool
	var restartErr error
	done := make(chan struct{})
	var once sync.Once
	var watching atomic.Bool
	watch := func() {
		watching.Store(true)
		go func() {
			defer close(done)
			deadline := time.Now().Add(3 * time.Minute)
			for time.Now().Before(deadline) {
				// restart once a part of the apply is done
				if k, err := c.count("SELECT count(*) FROM pg_roles WHERE rolname LIKE $1", strings.ReplaceAll(prefix, "_", `\_`)+`\_%`); err == nil && k >= 10 {
					restartErr = c.restart()
					restarted.Store(true)
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	wait := func() { once.Do(func() { <-done }) }
	t.Cleanup(func() {
		if watching.Load() {
			<-done // bounded: the watcher gives up after 3 minutes
		}
	})
	adopted0, repeated0 := testOutcomes.Adopted.Load(), testOutcomes.Repeated.Load()
	config := faultConfig(c.providerBlock(), prefix, n)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: watch,
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						wait()
						t.Logf("fault counts: restarted %v, %d adopted, %d created/updated/dropped again",
							restarted.Load(), testOutcomes.Adopted.Load()-adopted0, testOutcomes.Repeated.Load()-repeated0)
						if restartErr != nil {
							return restartErr
						}
						if !restarted.Load() {
							return errors.New("the server was not restarted during the apply: the test proved nothing")
						}
						return nil
					},
					checkServerMatchesState(prefix, c.count, n),
				),
			},
			{
				Config: config,
				Check:  checkServerMatchesState(prefix, c.count, n),
			},
		},
	})
}
