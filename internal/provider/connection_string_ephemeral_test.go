package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// withEcho adds terraform-plugin-testing's echo provider, which copies an
// ephemeral value into a managed resource's state so that a test can look at it.
func withEcho() map[string]func() (tfprotov6.ProviderServer, error) {
	f := map[string]func() (tfprotov6.ProviderServer, error){"echo": echoprovider.NewProviderServer()}
	for k, v := range testAccProtoV6ProviderFactories {
		f[k] = v
	}
	return f
}

// loginWith connects with the connection string at attribute attr of echo
// resource addr's data and checks who and where it is.
func loginWith(t *testing.T, addr, attr, user, db, app string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		r := s.RootModule().Resources[addr]
		if r == nil {
			return fmt.Errorf("%s not in the state", addr)
		}
		dsn := r.Primary.Attributes["data."+attr]
		conn, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			return fmt.Errorf("connecting with the %s: %w", attr, err)
		}
		defer conn.Close(context.Background())
		var gotUser, gotDB, gotApp string
		if err := conn.QueryRow(context.Background(), "SELECT current_user, current_database(), current_setting('application_name')").Scan(&gotUser, &gotDB, &gotApp); err != nil {
			return err
		}
		if gotUser != user || gotDB != db || gotApp != app {
			return fmt.Errorf("the %s logs in as %q to %q (application %q), want %q, %q, %q", attr, gotUser, gotDB, gotApp, user, db, app)
		}
		return nil
	}
}

// TestAccConnectionString_ephemeral: the connection string of the provider's
// settings for another role and database (with its password), and for the
// provider's own role: without expose_credentials with no password (issue 40:
// any module could ask for the admin's), with it with the provider's
// password; both forms log in where they say; check_login refuses a wrong
// password; nothing reaches the plan or the state but through the echo
// provider.
func TestAccConnectionString_ephemeral(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureEphemeralResources)
	base := acctest.RandName("dsn")
	db, role, pw := base+"_db", base+"_r", "dsn-pass-"+base[len(base)-6:]+"'q"
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	// each step echoes into a resource of its own: the echo resource keeps
	// the data it was created with
	cfg := func(password, expose, echo string) string {
		return fmt.Sprintf(`
provider "postgresql" {
  %[4]s
}
ephemeral "postgresql_connection_string" "app" {
  database         = %[1]q
  username         = %[2]q
  password         = %[3]q
  application_name = "tf dsn test"
  check_login      = true
}
ephemeral "postgresql_connection_string" "own" {}
provider "echo" {
  data = {
    app = ephemeral.postgresql_connection_string.app
    own = ephemeral.postgresql_connection_string.own
  }
}
resource "echo" %[5]q {}
`, db, role, password, expose, echo)
	}
	str := knownvalue.StringExact
	own := func(attr string) tfjsonpath.Path { return tfjsonpath.New("data").AtMapKey("own").AtMapKey(attr) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
			acctest.AdminExec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(role)+" LOGIN PASSWORD "+pgconn.QuoteLiteral(pw))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(role)) })
		},
		ProtoV6ProviderFactories: withEcho(),
		Steps: []resource.TestStep{
			{ // a wrong password fails where it is given, with the secret masked
				Config:      cfg("not-the-password", "", "wrong"),
				ExpectError: regexp.MustCompile(`(?s)Login failed.*password authentication failed`),
			},
			{ // without the opt-in: the provider's own password is not handed out
				Config: cfg(pw, "", "unset"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.unset", own("username"), str(acctest.AdminUser())),
					statecheck.ExpectKnownValue("echo.unset", own("password"), knownvalue.Null()),
					statecheck.ExpectKnownValue("echo.unset", tfjsonpath.New("data").AtMapKey("app").AtMapKey("password"), str(pw)),
				},
				Check: resource.ComposeTestCheckFunc(
					loginWith(t, "echo.unset", "app.dsn", role, db, "tf dsn test"),
					noPasswordIn(t, "echo.unset", "own.dsn", "own.url")),
			},
			{ // expose_credentials = false says the same
				Config: cfg(pw, "expose_credentials = false", "off"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.off", own("password"), knownvalue.Null()),
				},
				Check: noPasswordIn(t, "echo.off", "own.dsn", "own.url"),
			},
			{
				Config: cfg(pw, "expose_credentials = true", "dsn"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.dsn", tfjsonpath.New("data").AtMapKey("app").AtMapKey("host"), str(os.Getenv("PGHOST"))),
					statecheck.ExpectKnownValue("echo.dsn", tfjsonpath.New("data").AtMapKey("app").AtMapKey("port"), knownvalue.Int64Exact(int64(port))),
					statecheck.ExpectKnownValue("echo.dsn", tfjsonpath.New("data").AtMapKey("app").AtMapKey("sslmode"), str(os.Getenv("PGSSLMODE"))),
					statecheck.ExpectKnownValue("echo.dsn", tfjsonpath.New("data").AtMapKey("app").AtMapKey("expires_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue("echo.dsn", own("username"), str(acctest.AdminUser())),
					statecheck.ExpectKnownValue("echo.dsn", own("database"), str(acctest.DefaultDatabase())),
					statecheck.ExpectKnownValue("echo.dsn", own("password"), str(os.Getenv("PGPASSWORD"))),
				},
				Check: resource.ComposeTestCheckFunc(
					loginWith(t, "echo.dsn", "app.dsn", role, db, "tf dsn test"),
					loginWith(t, "echo.dsn", "app.url", role, db, "tf dsn test"),
					loginWith(t, "echo.dsn", "own.dsn", acctest.AdminUser(), acctest.DefaultDatabase(), ""),
					loginWith(t, "echo.dsn", "own.url", acctest.AdminUser(), acctest.DefaultDatabase(), "")),
			},
		},
	})
}

// noPasswordIn checks that the connection strings at attrs of echo resource
// addr's data carry no password at all (in particular not the provider's).
func noPasswordIn(t *testing.T, addr string, attrs ...string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		r := s.RootModule().Resources[addr]
		if r == nil {
			return fmt.Errorf("%s not in the state", addr)
		}
		for _, attr := range attrs {
			v := r.Primary.Attributes["data."+attr]
			if v == "" {
				return fmt.Errorf("no %s", attr)
			}
			// (pgx.ParseConfig would fill in PGPASSWORD from the environment)
			if pw := os.Getenv("PGPASSWORD"); strings.Contains(v, "password=") || (pw != "" && strings.Contains(v, pw)) {
				return fmt.Errorf("the %s carries a password", attr)
			}
			if u, err := url.Parse(v); err == nil && u.User != nil {
				if _, set := u.User.Password(); set {
					return fmt.Errorf("the %s carries a password", attr)
				}
			}
		}
		return nil
	}
}

// TestAccConnectionString_configuresProvider: what users use it for: a second
// postgresql provider configured from the ephemeral result acts as the
// application role (creating a schema the role then owns), and the role's
// password reaches neither the plan nor the state.
func TestAccConnectionString_configuresProvider(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureEphemeralResources)
	base := acctest.RandName("dsnp")
	db, role, pw := base+"_db", base+"_r", "dsnp-pass-"+base[len(base)-6:]
	addr := "postgresql_schema.app"
	cfg := acctest.Config(`
variable "app_password" {
  type      = string
  ephemeral = true
}
ephemeral "postgresql_connection_string" "app" {
  database    = %[1]q
  username    = %[2]q
  password    = var.app_password
  check_login = true
}
provider "postgresql" {
  alias     = "app"
  host      = ephemeral.postgresql_connection_string.app.host
  port      = ephemeral.postgresql_connection_string.app.port
  database  = ephemeral.postgresql_connection_string.app.database
  username  = ephemeral.postgresql_connection_string.app.username
  password  = ephemeral.postgresql_connection_string.app.password
  sslmode   = ephemeral.postgresql_connection_string.app.sslmode
  superuser = false
}
resource "postgresql_schema" "app" {
  provider = postgresql.app
  database = %[1]q
  name     = "app_objects"
}
`, db, role)
	// the password comes from an ephemeral variable, as in real use: a literal
	// (or a default) would be in the plan's rendering of the configuration
	vars := config.Variables{"app_password": config.StringVariable(pw)}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.AdminExec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(role)+" LOGIN PASSWORD "+pgconn.QuoteLiteral(pw))
			t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(role)) })
			acctest.Database(t, db, acctest.AdminUser())
			acctest.AdminExec(t, db, "GRANT CREATE ON DATABASE "+pgconn.QuoteIdent(db)+" TO "+pgconn.QuoteIdent(role))
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg, ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noSecretsInPlan{"the role's password": pw}}},
				ConfigStateChecks: []statecheck.StateCheck{
					noSecretsInState{"the role's password": pw},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(role)),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, db, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'app_objects'"); got != role {
						return fmt.Errorf("the schema is owned by %q, want %q", got, role)
					}
					return nil
				},
			},
			{Config: cfg, ConfigVariables: vars, PlanOnly: true},
		},
	})
}
