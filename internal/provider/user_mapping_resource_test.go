package provider

import (
	"fmt"
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

func TestAccUserMapping_basic(t *testing.T) {
	db := acctest.RandName("umdb")
	srv := acctest.RandName("umsrv")
	role := acctest.RandName("um") + ` "Quoted.Ü"`
	other := acctest.RandName("umother")
	addr, pub := "postgresql_user_mapping.test", "postgresql_user_mapping.pub"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	samePubOID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(srvName, roleName, mappedRole, mappingBody string) string {
		return acctest.Config(`
resource "postgresql_role" "local" { name = %[3]s }
resource "postgresql_role" "other" { name = %[4]q }
resource "postgresql_server" "remote" {
  database    = %[1]q
  server_name = %[2]s
  fdw_name    = "postgres_fdw"
  options     = { host = "db.example.internal" }
}
resource "postgresql_user_mapping" "test" {
  database    = %[1]q
  server_name = postgresql_server.remote.server_name
  user_name   = %[5]s
%[6]s
}
resource "postgresql_user_mapping" "pub" {
  database    = %[1]q
  server_name = postgresql_server.remote.server_name
  user_name   = "PUBLIC"
}`, db, acctest.QuoteHCL(srvName), acctest.QuoteHCL(roleName), other, mappedRole, mappingBody)
	}
	opts1 := `  options = { user = "remote_user", password = "s3cret-'1" }`
	opts2 := `  options = { password = "s3cret-'2" }`
	checkOpts := func(user, server, want string) func(*terraform.State) error {
		return func(*terraform.State) error {
			got := acctest.QueryString(t, db, "SELECT coalesce(array_to_string(umoptions, ','), '') FROM pg_user_mappings WHERE usename = $1 AND srvname = $2", user, server)
			if got != want {
				return fmt.Errorf("options of the mapping of %q on %q = %q, want %q", user, server, got, want)
			}
			return nil
		}
	}
	// PostgreSQL shows the options of another role's mapping only to superusers,
	// and those of the PUBLIC mapping to the server's owner too: a managed admin
	// sees (and repairs) drift of the PUBLIC mapping only.
	driftSQL := []string{"ALTER USER MAPPING FOR PUBLIC SERVER " + pgconn.QuoteIdent(srv+"_renamed") + " OPTIONS (ADD user 'anyone')"}
	driftChecks := []plancheck.PlanCheck{plancheck.ExpectResourceAction(pub, plancheck.ResourceActionUpdate)}
	if !acctest.Managed() {
		driftSQL = append(driftSQL, "ALTER USER MAPPING FOR "+pgconn.QuoteIdent(role+"_renamed")+" SERVER "+pgconn.QuoteIdent(srv+"_renamed")+
			" OPTIONS (SET password 'drifted', ADD user 'x')")
		driftChecks = append(driftChecks, plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate))
	}
	var importIgnoreOptions []string
	if acctest.Managed() {
		importIgnoreOptions = []string{"options"}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.TempDatabase(t, db, acctest.FDWSetup...)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, db, "SELECT count(*)::text FROM pg_user_mappings"); n != "0" {
				return fmt.Errorf("%s user mappings left", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(srv, role, "postgresql_role.local.name", opts1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(role+"."+srv)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.MapExact(map[string]knownvalue.Check{
						"user": knownvalue.StringExact("remote_user"), "password": knownvalue.StringExact("s3cret-'1")})),
					statecheck.ExpectKnownValue(pub, tfjsonpath.New("id"), knownvalue.StringExact("PUBLIC."+srv)),
					statecheck.ExpectKnownValue(pub, tfjsonpath.New("options"), knownvalue.Null()),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					samePubOID.AddStateValue(pub, tfjsonpath.New("oid")),
				},
				Check: checkOpts(role, srv, "password=s3cret-'1,user=remote_user"),
			},
			{ // options SET/ADD/DROP in place; the server and the role renamed: the mappings follow
				Config:           cfg(srv+"_renamed", role+"_renamed", "postgresql_role.local.name", opts2),
				ConfigPlanChecks: expectUpdate(addr, pub),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					samePubOID.AddStateValue(pub, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(role+"_renamed."+srv+"_renamed")),
				},
				Check: checkOpts(role+"_renamed", srv+"_renamed", "password=s3cret-'2"),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     db + "." + role + "_renamed." + srv + "_renamed",
				ImportStateVerify: true,
				// only a superuser may read another role's mapping options
				ImportStateVerifyIgnore: importIgnoreOptions,
			},
			{ // the same, with the role's name quoted as in SQL
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           importID(db, role+"_renamed", srv+"_renamed"),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: importIgnoreOptions,
			},
			{
				ResourceName:      pub,
				ImportState:       true,
				ImportStateId:     "public." + srv + "_renamed", // not in the provider's database: found by the database prefix only
				ImportStateVerify: true,
				ExpectError:       mustRegexp(`User mapping not found`),
			},
			{
				ResourceName:                         pub,
				ImportState:                          true,
				ImportStateId:                        db + ".public." + srv + "_renamed",
				ImportStateVerify:                    true,
				ImportStateVerifyIgnore:              []string{"user_name", "id"}, // PostgreSQL spells PUBLIC "public"
				ImportStateVerifyIdentifierAttribute: "oid",
			},
			{ // drift made with SQL is repaired in place
				PreConfig: acctest.ExecFunc(t, db, driftSQL...),
				Config:    cfg(srv+"_renamed", role+"_renamed", "postgresql_role.local.name", opts2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: driftChecks,
				},
				Check: resource.ComposeTestCheckFunc(
					checkOpts(role+"_renamed", srv+"_renamed", "password=s3cret-'2"),
					checkOpts("public", srv+"_renamed", ""),
				),
			},
			{ // the mapping moves to another role: updated (drop and create in one transaction)
				Config:           cfg(srv+"_renamed", role+"_renamed", "postgresql_role.other.name", opts2),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(other+"."+srv+"_renamed")),
				},
				Check: checkOpts(other, srv+"_renamed", "password=s3cret-'2"),
			},
			{ // dropped behind Terraform's back: created again
				PreConfig:        acctest.ExecFunc(t, db, "DROP USER MAPPING FOR "+pgconn.QuoteIdent(other)+" SERVER "+pgconn.QuoteIdent(srv+"_renamed")),
				Config:           cfg(srv+"_renamed", role+"_renamed", "postgresql_role.other.name", ""),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("options"), knownvalue.Null()),
				},
			},
		},
	})
}
