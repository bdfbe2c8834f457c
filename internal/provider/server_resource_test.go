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

func checkServersGone(t *testing.T, db string, names ...string) func(*terraform.State) error {
	return acctest.CheckGone(t, db, "foreign server", "SELECT exists(SELECT 1 FROM pg_foreign_server WHERE srvname = $1)", names...)
}

func TestAccServer_basic(t *testing.T) {
	db := acctest.RandName("srvdb")
	name := acctest.RandName("srv")
	renamed := name + ` "Ünïcode.srv"`
	owner := acctest.RandName("srvown")
	addr := "postgresql_server.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(name, body string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" { name = %q }
resource "postgresql_server" "test" {
  database    = %q
  server_name = %s
%s
}`, owner, db, acctest.QuoteHCL(name), body)
	}
	full := `
  fdw_name       = "postgres_fdw"
  server_version = "16"
  server_owner   = postgresql_role.owner.name
  drop_cascade   = true
  options = {
    host = "db.example.internal"
    port = "5433"
  }`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.TempDatabase(t, db, acctest.FDWSetup...)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkServersGone(t, db, name, renamed),
		Steps: []resource.TestStep{
			{
				Config:      cfg(strings.Repeat("n", 64), `fdw_name = "file_fdw"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`PostgreSQL\s+identifiers\s+are\s+at\s+most\s+63\s+bytes`),
			},
			{
				Config: cfg(name, `
  fdw_name = "postgres_fdw"
  options = {
    host   = "db.example.internal"
    dbname = "remote"
  }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("database"), knownvalue.StringExact(db)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_owner"), knownvalue.StringExact(acctest.AdminUser())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_type"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_version"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("drop_cascade"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.MapExact(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("db.example.internal"), "dbname": knownvalue.StringExact("remote")})),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{ // rename, version, owner and options (SET, ADD, DROP) in place
				Config: cfg(renamed, full),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(renamed)),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_owner"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_version"), knownvalue.StringExact("16")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.MapExact(map[string]knownvalue.Check{
						"host": knownvalue.StringExact("db.example.internal"), "port": knownvalue.StringExact("5433")})),
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     db + "." + renamed,
				ImportStateVerify: true,
				// drop_cascade is configuration only; an import starts at its default (false)
				ImportStateVerifyIgnore: []string{"drop_cascade"},
			},
			{ // the same, with the name quoted as in SQL
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           importID(db, renamed),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"drop_cascade"},
			},
			{ // drift made with SQL is repaired in place
				PreConfig: acctest.ExecFunc(t, db,
					"ALTER SERVER "+pgconn.QuoteIdent(renamed)+" VERSION '9' OPTIONS (SET host 'drift.example', ADD fetch_size '10')"),
				Config:            cfg(renamed, full),
				ConfigPlanChecks:  expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
				Check: func(*terraform.State) error {
					got := acctest.QueryString(t, db, "SELECT array_to_string(srvoptions, ',') || ' ' || srvversion FROM pg_foreign_server WHERE srvname = $1", renamed)
					if got != "host=db.example.internal,port=5433 16" {
						return fmt.Errorf("server after repair: %s", got)
					}
					return nil
				},
			},
			{ // another wrapper and a type: replaced
				Config: cfg(renamed, `
  fdw_name    = "file_fdw"
  server_type = "files"`),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_type"), knownvalue.StringExact("files")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_owner"), knownvalue.StringExact(acctest.AdminUser())),
				},
			},
			{ // dropped behind Terraform's back: created again
				PreConfig: acctest.ExecFunc(t, db, "DROP SERVER "+pgconn.QuoteIdent(renamed)),
				Config: cfg(renamed, `
  fdw_name    = "file_fdw"
  server_type = "files"`),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
			{ // options = {} means no options, like unset
				Config: cfg(renamed, `
  fdw_name    = "file_fdw"
  server_type = "files"
  options     = {}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.MapSizeExact(0)),
				},
			},
		},
	})
}

// TestAccServer_regressionImportEmptyOptions: a server without options,
// configured with `options = {}`, planned an in-place update right after an
// import (the import recorded no options as null, and null -> {} is a change).
// Found by the conformance suite.
func TestAccServer_regressionImportEmptyOptions(t *testing.T) {
	db := acctest.RandName("srvdb")
	name := acctest.RandName("srv")
	addr := "postgresql_server.test"
	cfg := func(options string) string {
		return acctest.Config(`
resource "postgresql_server" "test" {
  database    = %q
  server_name = %q
  fdw_name    = "postgres_fdw"
%s
}`, db, name, options)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.TempDatabase(t, db, acctest.FDWSetup...)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg("  options = {}")},
			{
				Config:          cfg("  options = {}"),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   db + "." + name,
			},
			{
				// and a configuration without options stays empty too
				Config:          cfg(""),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   db + "." + name,
			},
		},
	})
}
