package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	tfacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
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

// noSecretsInPlan fails when the plan, as `terraform show -json` renders it
// (planned values, changes, prior state, configuration), holds one of the
// secrets.
type noSecretsInPlan map[string]string

func (s noSecretsInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	if found := containsAny(string(b), s); len(found) > 0 {
		resp.Error = fmt.Errorf("the plan JSON holds secrets: %s", strings.Join(found, ", "))
	}
}

// noSecretsInState fails when the state, as `terraform show -json` renders it,
// holds one of the secrets.
type noSecretsInState map[string]string

func (s noSecretsInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	b, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = err
		return
	}
	if found := containsAny(string(b), s); len(found) > 0 {
		resp.Error = fmt.Errorf("the state holds secrets: %s", strings.Join(found, ", "))
	}
}

func containsAny(text string, secrets map[string]string) []string {
	var found []string
	for name, v := range secrets {
		for _, f := range acctest.SecretForms(v) {
			if strings.Contains(text, f) {
				found = append(found, name)
				break
			}
		}
	}
	sort.Strings(found)
	return found
}

// TestAccWriteOnly_secretsNeverStored: every secret of the provider given in
// its write-only form (role password_wo, server and user-mapping options_wo,
// subscription conninfo_wo) is applied on create and again with a new
// version, and never appears in the state, in the plan JSON, in the
// provider's TRACE log or in Terraform's own TRACE log. Options given in
// options_wo stay out of `options`, and an apply that does not set them again
// leaves them as they are.
func TestAccWriteOnly_secretsNeverStored(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skip("acceptance test: set TF_ACC")
	}
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureWriteOnlyArguments)
	acctest.RequireCLIFeature(t, acctest.FeatureEphemeralResources) // ephemeral input variables
	logPath := acctest.ProviderLogToFile(t)
	// Terraform's own TRACE log too: the harness writes it to the same file
	// (TF_LOG_PATH_MASK), next to the provider's
	t.Setenv("TF_ACC_LOG", "TRACE")

	base := strings.ReplaceAll(acctest.RandName("wo"), "-", "_")
	db, srv, role, pubDB, subDB, pubRole := base+"_db", base+"_srv", base+"_r", base+"_pub", base+"_sub", base+"_pubr"
	sub, slot := base+"_s", base+"_slot"
	withSub := !acctest.Managed() || acctest.ServerMajor(t) >= 16

	rnd := func(tag string) string { return "tfwo-" + tag + "-" + tfacctest.RandString(20) }
	secrets := map[int]map[string]string{}
	for gen := 1; gen <= 3; gen++ {
		secrets[gen] = map[string]string{
			"role password_wo":               rnd(fmt.Sprintf("role%d", gen)),
			"server options_wo api_token":    rnd(fmt.Sprintf("srv%d", gen)) + "'q",
			"user mapping options_wo passwd": rnd(fmt.Sprintf("um%d", gen)) + "'q",
		}
		if withSub {
			secrets[gen]["subscription conninfo_wo password"] = rnd(fmt.Sprintf("sub%d", gen))
		}
	}
	conninfo := func(gen int) string {
		return fmt.Sprintf("host=%s port=%s dbname=%s user=%s password=%s", os.Getenv("PGHOST"), os.Getenv("PGPORT"), pubDB, pubRole, secrets[gen]["subscription conninfo_wo password"])
	}
	// The secrets come from ephemeral input variables (Terraform 1.10+), as
	// they would in real use: a literal in the configuration would be in the
	// plan's rendering of the configuration, whatever the provider does.
	// vars gives a generation's values; ver is the versions' value.
	vars := func(gen int) config.Variables {
		s := secrets[gen]
		v := config.Variables{
			"role_pw":   config.StringVariable(s["role password_wo"]),
			"api_token": config.StringVariable(s["server options_wo api_token"]),
			"um_pw":     config.StringVariable(s["user mapping options_wo passwd"]),
		}
		if withSub {
			v["conninfo"] = config.StringVariable(conninfo(gen))
		}
		return v
	}
	cfg := func(ver int) string {
		c := acctest.Config(`
variable "role_pw" {
  type      = string
  ephemeral = true
}
variable "api_token" {
  type      = string
  ephemeral = true
}
variable "um_pw" {
  type      = string
  ephemeral = true
}
resource "postgresql_role" "r" {
  name                = %[1]q
  login               = true
  password_wo         = var.role_pw
  password_wo_version = "%[2]d"
}
resource "postgresql_server" "srv" {
  database           = %[3]q
  server_name        = %[4]q
  fdw_name           = "tfacc_dummy_fdw"
  options            = { host = "db.example.internal" }
  options_wo         = { api_token = var.api_token }
  options_wo_version = "%[2]d"
}
resource "postgresql_user_mapping" "um" {
  database           = %[3]q
  server_name        = postgresql_server.srv.server_name
  user_name          = postgresql_role.r.name
  options            = { user = "remote" }
  options_wo         = { password = var.um_pw }
  options_wo_version = "%[2]d"
}
`, role, ver, db, srv)
		if withSub {
			c += fmt.Sprintf(`
variable "conninfo" {
  type      = string
  ephemeral = true
}
resource "postgresql_subscription" "sub" {
  name                = %q
  database            = %q
  conninfo_wo         = var.conninfo
  conninfo_wo_version = "%d"
  publications        = ["pub"]
  create_slot         = false
  slot_name           = %q
}
`, sub, subDB, ver, slot)
		}
		return c
	}
	all := map[string]string{}
	for gen, m := range secrets {
		for k, v := range m {
			all[fmt.Sprintf("%s (generation %d)", k, gen)] = v
		}
	}
	// what the server holds, read as the superuser
	expectApplied := func(gen int) func(*terraform.State) error {
		return func(*terraform.State) error {
			s := secrets[gen]
			if err := acctest.CheckLogin(t, role, s["role password_wo"]); err != nil {
				return err
			}
			if got := acctest.QueryString(t, db, "SELECT string_agg(o, ',' ORDER BY o) FROM pg_foreign_server, unnest(srvoptions) o WHERE srvname = $1", srv); got != "api_token="+s["server options_wo api_token"]+",host=db.example.internal" {
				return fmt.Errorf("server options: %q", got)
			}
			if got := acctest.QueryString(t, db, "SELECT string_agg(o, ',' ORDER BY o) FROM pg_user_mappings, unnest(umoptions) o WHERE srvname = $1", srv); got != "password="+s["user mapping options_wo passwd"]+",user=remote" {
				return fmt.Errorf("user mapping options: %q", got)
			}
			if withSub {
				if got := acctest.QueryString(t, subDB, "SELECT subconninfo FROM pg_subscription WHERE subname = $1", sub); got != conninfo(gen) {
					return fmt.Errorf("subscription conninfo: %q", got)
				}
			}
			return nil
		}
	}
	setPubPassword := func(gen int) func() {
		return func() {
			if !withSub {
				return
			}
			v, err := pg.ScramVerifier(secrets[gen]["subscription conninfo_wo password"])
			if err != nil {
				t.Fatal(err)
			}
			acctest.Exec(t, "", "ALTER ROLE "+pgconn.QuoteIdent(pubRole)+" PASSWORD "+pgconn.QuoteLiteral(v))
		}
	}
	clean := []statecheck.StateCheck{
		noSecretsInState(all),
		statecheck.ExpectKnownValue("postgresql_server.srv", tfjsonpath.New("options"), knownvalue.MapExact(map[string]knownvalue.Check{"host": knownvalue.StringExact("db.example.internal")})),
		statecheck.ExpectKnownValue("postgresql_server.srv", tfjsonpath.New("options_wo_names"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("api_token")})),
		statecheck.ExpectKnownValue("postgresql_user_mapping.um", tfjsonpath.New("options"), knownvalue.MapExact(map[string]knownvalue.Check{"user": knownvalue.StringExact("remote")})),
	}
	planClean := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretsInPlan(all)}, PostApplyPostRefresh: []plancheck.PlanCheck{noSecretsInPlan(all)}}
	resource.Test(t, resource.TestCase{
		PreCheck: func() {
			acctest.TempDatabase(t, db, "CREATE FOREIGN DATA WRAPPER tfacc_dummy_fdw", "GRANT USAGE ON FOREIGN DATA WRAPPER tfacc_dummy_fdw TO PUBLIC")
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
		CheckDestroy:             checkRoleGone(t, role),
		Steps: []resource.TestStep{
			{Config: cfg(1), ConfigVariables: vars(1), ConfigPlanChecks: planClean, ConfigStateChecks: clean, Check: expectApplied(1)},
			// new values, the same versions: nothing to do, the server keeps generation 1
			{Config: cfg(1), ConfigVariables: vars(2), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noSecretsInPlan(all)}},
				ConfigStateChecks: clean, Check: expectApplied(1)},
			// new versions: every secret set again, in place
			{Config: cfg(2), ConfigVariables: vars(3), PreConfig: setPubPassword(3), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("postgresql_server.srv", plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("postgresql_user_mapping.um", plancheck.ResourceActionUpdate),
				noSecretsInPlan(all)}}, ConfigStateChecks: clean, Check: expectApplied(3)},
			{RefreshState: true, Check: func(s *terraform.State) error {
				for name, v := range all {
					if err := acctest.StateDoesNotContain(s, v); err != nil {
						return fmt.Errorf("%s: %w", name, err)
					}
				}
				return expectApplied(3)(s)
			}},
			// an option named in both options and options_wo
			{Config: strings.Replace(cfg(2), `options            = { user = "remote" }`, `options            = { user = "remote", password = "x" }`, 1), ConfigVariables: vars(1),
				PlanOnly: true, ExpectError: regexp.MustCompile(`Option set twice`)},
			// an in-place change of another argument leaves the write-only options as they are
			{Config: strings.Replace(cfg(2), `host = "db.example.internal"`, `host = "db2.example.internal"`, 1), ConfigVariables: vars(1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretsInPlan(all)}},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, db, "SELECT string_agg(o, ',' ORDER BY o) FROM pg_foreign_server, unnest(srvoptions) o WHERE srvname = $1", srv); got != "api_token="+secrets[3]["server options_wo api_token"]+",host=db2.example.internal" {
						return fmt.Errorf("server options: %q", got)
					}
					return nil
				}},
		},
	})
	if t.Failed() {
		return
	}
	for _, want := range []string{"PostgreSQL statement", "CREATE USER MAPPING", "ALTER SERVER"} {
		if !acctest.FileContains(t, logPath, want) {
			t.Fatalf("the provider log %s does not contain %q: it did not capture the provider's statements", logPath, want)
		}
	}
	if found := acctest.FileContainsAny(t, logPath, all); len(found) > 0 {
		t.Errorf("the TRACE log %s (the provider's and Terraform's) holds secrets: %s", logPath, strings.Join(found, ", "))
	}
	if !acctest.FileContains(t, logPath, "[TRACE] terraform") && !acctest.FileContains(t, logPath, "[INFO]  Terraform version") {
		t.Fatalf("the log %s has no lines of Terraform's own", logPath)
	}
}
