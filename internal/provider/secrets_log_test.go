package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	tfacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// TestAccSecrets_regressionSecretsInLogs sets every sensitive attribute of
// every resource (role password and password_wo, server and user-mapping
// options, subscription conninfo) to unique random values, creates, updates,
// refreshes, imports and destroys, and then scans the provider's own TRACE log
// and the server's statement log (log_statement = all) for them.
//
// The provider log must never hold a secret, in either admin mode. The server
// log must never hold a role password (only SCRAM verifiers are sent) and,
// when the admin may set log_statement (superuser, or on PostgreSQL 15+ a
// GRANT SET ON PARAMETER, which scripts/testdb gives the managed admin), no
// option value or conninfo either; otherwise PostgreSQL itself logs the
// statement and the test only reports it.
func TestAccSecrets_regressionSecretsInLogs(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC")
	}
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureWriteOnlyArguments) // password_wo
	logPath := acctest.ProviderLogToFile(t)
	db := acctest.RandName("secdb")
	srv := acctest.RandName("secsrv")
	rolePW, roleWO := acctest.RandName("secpw"), acctest.RandName("secwo")
	pubDB, subDB := acctest.RandName("secpub"), acctest.RandName("secsub")
	sub := strings.ReplaceAll(acctest.RandName("secsub"), "-", "_")
	slot, pubRole := sub+"_slot", sub+"_pub"
	withSub := !acctest.Managed()

	rnd := func(tag string) string { return "tfsecret-" + tag + "-" + tfacctest.RandString(20) }
	// two generations: creation, then in-place updates; some carry a quote,
	// which appears doubled inside an SQL string constant
	secrets := map[int]map[string]string{}
	for gen := 1; gen <= 2; gen++ {
		secrets[gen] = map[string]string{
			"role password":            rnd(fmt.Sprintf("rolepw%d", gen)),
			"role password_wo":         rnd(fmt.Sprintf("rolewo%d", gen)),
			"server option password":   rnd(fmt.Sprintf("srvpw%d", gen)) + "'q",
			"server option api_token":  rnd(fmt.Sprintf("srvtok%d", gen)),
			"user mapping password":    rnd(fmt.Sprintf("umpw%d", gen)) + "'q",
			"user mapping user":        rnd(fmt.Sprintf("umuser%d", gen)),
			"subscription conninfo pw": rnd(fmt.Sprintf("subpw%d", gen)),
		}
		if !withSub {
			delete(secrets[gen], "subscription conninfo pw")
		}
	}
	conninfo := func(gen int) string {
		return fmt.Sprintf("host=%s port=%s dbname=%s user=%s password=%s", os.Getenv("PGHOST"), os.Getenv("PGPORT"), pubDB, pubRole, secrets[gen]["subscription conninfo pw"])
	}
	cfg := func(gen int) string {
		s := secrets[gen]
		c := acctest.Config(`
resource "postgresql_role" "pw" {
  name     = %[1]q
  login    = true
  password = %[2]q
}
resource "postgresql_role" "wo" {
  name                = %[3]q
  login               = true
  password_wo         = %[4]q
  password_wo_version = "%[5]d"
}
resource "postgresql_server" "srv" {
  database    = %[6]q
  server_name = %[7]q
  fdw_name    = "tfacc_dummy_fdw"
  options     = { host = "db.example.internal", password = %[8]q, api_token = %[9]q }
}
resource "postgresql_user_mapping" "um" {
  database    = %[6]q
  server_name = postgresql_server.srv.server_name
  user_name   = postgresql_role.pw.name
  options     = { user = %[10]q, password = %[11]q }
}
`, rolePW, s["role password"], roleWO, s["role password_wo"], gen, db, srv,
			s["server option password"], s["server option api_token"], s["user mapping user"], s["user mapping password"])
		if withSub {
			c += fmt.Sprintf(`
resource "postgresql_subscription" "sub" {
  name         = %q
  database     = %q
  conninfo     = %q
  publications = ["pub"]
  create_slot  = false
  slot_name    = %q
}
`, sub, subDB, conninfo(gen), slot)
		}
		return c
	}
	// the publisher's role gets each generation's password as a verifier, so
	// that the setup itself never sends it in clear
	setPubPassword := func(gen int) func() {
		return func() {
			if !withSub {
				return
			}
			v, err := pg.ScramVerifier(secrets[gen]["subscription conninfo pw"])
			if err != nil {
				t.Fatal(err)
			}
			acctest.Exec(t, "", "ALTER ROLE "+pgconn.QuoteIdent(pubRole)+" PASSWORD "+pgconn.QuoteLiteral(v))
		}
	}
	umImportVerifyIgnore := []string{}
	if acctest.Managed() {
		// PostgreSQL shows another role's mapping options only to superusers
		umImportVerifyIgnore = append(umImportVerifyIgnore, "options")
	}

	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			acctest.TempDatabase(t, db,
				"CREATE FOREIGN DATA WRAPPER tfacc_dummy_fdw", // no validator: takes any option
				"GRANT USAGE ON FOREIGN DATA WRAPPER tfacc_dummy_fdw TO PUBLIC")
			if withSub {
				acctest.Exec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(pubRole)+" LOGIN REPLICATION")
				t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(pubRole)) })
				setPubPassword(1)()
				acctest.Database(t, pubDB, acctest.AdminUser())
				acctest.Database(t, subDB, acctest.AdminUser())
				acctest.Exec(t, subDB, "CREATE TABLE items (id int PRIMARY KEY)")
				acctest.Exec(t, pubDB, "CREATE TABLE items (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE items",
					"GRANT SELECT ON items TO "+pgconn.QuoteIdent(pubRole),
					fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s', 'pgoutput')", slot))
				t.Cleanup(func() {
					acctest.Exec(t, "", fmt.Sprintf("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '%s' AND NOT active", slot))
				})
			}
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname IN ($1, $2))", rolePW, roleWO) {
				return fmt.Errorf("a role still exists")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: cfg(1)},
			{Config: cfg(2), PreConfig: setPubPassword(2)}, // every secret changes in place
			{RefreshState: true},
			{
				Config: cfg(2), ResourceName: "postgresql_user_mapping.um", ImportState: true, ImportStateVerify: true,
				ImportStateId: db + "." + rolePW + "." + srv, ImportStateVerifyIgnore: umImportVerifyIgnore,
			},
			{Config: cfg(2), ResourceName: "postgresql_server.srv", ImportState: true, ImportStateId: db + "." + srv, ImportStateVerify: true},
		},
	})
	if t.Failed() {
		return
	}

	all := map[string]string{}
	roleOnly := map[string]string{}
	for gen, m := range secrets {
		for k, v := range m {
			all[fmt.Sprintf("%s (step %d)", k, gen)] = v
			if strings.HasPrefix(k, "role ") {
				roleOnly[fmt.Sprintf("%s (step %d)", k, gen)] = v
			}
		}
	}

	// The provider's log: never, in any mode. It must really hold the
	// statements that carried the secrets, or the scan proves nothing.
	for _, want := range []string{"PostgreSQL statement", "CREATE USER MAPPING", "ALTER USER MAPPING", srv, rolePW} {
		if !acctest.FileContains(t, logPath, want) {
			t.Fatalf("the provider log %s does not contain %q: it did not capture the provider's statements", logPath, want)
		}
	}
	withAdmin := map[string]string{"the provider's own password (PGPASSWORD)": os.Getenv("PGPASSWORD")}
	for k, v := range all {
		withAdmin[k] = v
	}
	if found := acctest.FileContainsAny(t, logPath, withAdmin); len(found) > 0 {
		t.Errorf("the provider's TRACE log %s contains secrets: %s", logPath, strings.Join(found, ", "))
	}

	// The server's statement log.
	serverLog := os.Getenv("PGTF_SERVER_LOG")
	if serverLog == "" {
		t.Log("PGTF_SERVER_LOG is not set: the server log is not scanned")
		return
	}
	if !acctest.FileContains(t, serverLog, "CREATE ROLE "+pgconn.QuoteIdent(rolePW)) {
		t.Fatalf("the server log %s does not log the provider's statements (log_statement = all expected)", serverLog)
	}
	if found := acctest.FileContainsAny(t, serverLog, roleOnly); len(found) > 0 {
		t.Errorf("the server log contains role passwords: %s", strings.Join(found, ", "))
	}
	if acctest.Managed() && !adminMaySetLogStatement(t) {
		// Documented: a non-superuser admin without SET on log_statement
		// cannot keep option values out of a server log that logs DDL.
		// Asserted, so that the documentation stays true.
		found := acctest.FileContainsAny(t, serverLog, all)
		if len(found) == 0 {
			t.Errorf("the managed admin may not set log_statement, yet no option value reached the server log: update the documentation")
		}
		t.Logf("the managed admin may not set log_statement: %d secret values reached the server log, as documented", len(found))
		return
	}
	if found := acctest.FileContainsAny(t, serverLog, all); len(found) > 0 {
		t.Errorf("the server log %s contains secrets: %s", serverLog, strings.Join(found, ", "))
	}
	t.Logf("scanned %d secrets in the provider log and the server log (%s mode)", len(all), acctest.Mode())
}

// adminMaySetLogStatement: whether the managed admin may SET log_statement
// (a grant on the parameter, PostgreSQL 15+; before 15 only superusers may).
func adminMaySetLogStatement(t *testing.T) bool {
	return acctest.ServerMajor(t) >= 15 &&
		acctest.QueryBool(t, "", "SELECT has_parameter_privilege($1, 'log_statement', 'SET')", acctest.AdminUser())
}
