package provider

import (
	"fmt"
	"os"
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
)

// TestAccRole_lifecycle: create minimal, update every attribute in place
// (same OID), reset to defaults, rename in place, import, drift repaired,
// out-of-band drop recreated.
func TestAccRole_lifecycle(t *testing.T) {
	name := acctest.RandName("role")
	renamed := name + "_renamed"
	grp := name + "_grp"
	addr := "postgresql_role.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	superOnly := ""
	if !acctest.Managed() {
		superOnly = "replication = true\n  bypass_row_level_security = true"
	}
	full := func(n string) string {
		return acctest.Config(`
resource "postgresql_role" "group" { name = %[2]q }
resource "postgresql_role" "test" {
  name                                = %[1]q
  login                               = true
  create_database                     = true
  create_role                         = true
  inherit                             = false
  connection_limit                    = 7
  password                            = "s3cret-'\"-pass"
  valid_until                         = "2099-12-31T23:59:59Z"
  roles                               = [postgresql_role.group.name]
  search_path                         = ["app", "$user", "Mixed Case"]
  statement_timeout                   = 30000
  idle_in_transaction_session_timeout = 60000
  assume_role                         = postgresql_role.group.name
  %[3]s
}`, n, grp, superOnly)
	}
	minimal := acctest.Config(`
resource "postgresql_role" "group" { name = %[2]q }
resource "postgresql_role" "test" { name = %[1]q }`, name, grp)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name, renamed, grp),
		Steps: []resource.TestStep{
			{
				Config: minimal,
				ConfigStateChecks: []statecheck.StateCheck{
					str(addr, "id", name), boolean(addr, "login", false), boolean(addr, "inherit", true),
					boolean(addr, "superuser", false), num(addr, "connection_limit", -1), str(addr, "valid_until", "infinity"),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("password"), knownvalue.Null()),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{ // every attribute in place
				Config:           full(name),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					str(addr, "valid_until", "2099-12-31T23:59:59Z"), num(addr, "connection_limit", 7),
					boolean(addr, "login", true), boolean(addr, "inherit", false), boolean(addr, "create_role", true),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("app"), knownvalue.StringExact("$user"), knownvalue.StringExact("Mixed Case")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(grp)})),
				},
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, "", "SELECT array_to_string(rolconfig, '|') FROM pg_roles WHERE rolname = $1", name); !strings.Contains(got, "statement_timeout=30000") || !strings.Contains(got, "role="+grp) {
						return fmt.Errorf("rolconfig = %s", got)
					}
					return acctest.CheckLogin(t, name, "s3cret-'\"-pass")
				},
			},
			{ // the server's spelling of the same instant is no change
				Config:   strings.Replace(full(name), "2099-12-31T23:59:59Z", "2099-12-31 23:59:59+00", 1),
				PlanOnly: true,
			},
			{ // back to defaults, in place
				Config:           minimal,
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("search_path"), knownvalue.ListSizeExact(0)),
					num(addr, "statement_timeout", 0), str(addr, "assume_role", ""), str(addr, "valid_until", "infinity"),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("password"), knownvalue.Null()),
					// roles unset = not managed: the membership stays and is reported
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(grp)})),
				},
				Check: func(*terraform.State) error {
					if acctest.QueryBool(t, "", "SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = $1", name) {
						return fmt.Errorf("password of %q was not removed", name)
					}
					return nil
				},
			},
			{ // roles = [] means no memberships
				Config:           strings.Replace(minimal, `"test" { name = "`+name+`" }`, `"test" {`+"\n name = \""+name+"\"\n roles = []\n}", 1),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetSizeExact(0)),
				},
			},
			{ // unmanaged roles: a membership granted outside is reported without a diff
				PreConfig:        acctest.ExecFunc(t, "", fmt.Sprintf(`GRANT %q TO %q`, grp, name)),
				Config:           minimal,
				ConfigPlanChecks: expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("roles"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(grp)})),
				},
			},
			{ // rename in place
				Config:           strings.Replace(minimal, `name = "`+name+`"`, `name = "`+renamed+`"`, 1),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")), str(addr, "id", renamed), str(addr, "name", renamed),
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     renamed,
				ImportStateVerify: true,
			},
			{ // drift made with SQL is repaired
				PreConfig: acctest.ExecFunc(t, "",
					fmt.Sprintf(`ALTER ROLE %q LOGIN CONNECTION LIMIT 3 VALID UNTIL '2030-01-01'`, renamed),
					fmt.Sprintf(`ALTER ROLE %q SET statement_timeout = '5s'`, renamed),
					fmt.Sprintf(`ALTER ROLE %q SET search_path = a, b`, renamed)),
				Config:           full(renamed),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")), num(addr, "statement_timeout", 30000), num(addr, "connection_limit", 7),
				},
			},
			{ // password changed outside Terraform (a rotation job): left as it is, in both modes (issue 41)
				PreConfig:        rotatePasswordFunc(t, renamed, "changed-outside-"+name),
				Config:           full(renamed),
				ConfigPlanChecks: expectEmpty(),
				Check:            func(*terraform.State) error { return acctest.CheckLogin(t, renamed, "changed-outside-"+name) },
			},
			{ // dropped outside Terraform: planned for creation, never an error
				PreConfig:        acctest.ExecFunc(t, "", fmt.Sprintf(`DROP ROLE %q`, renamed)),
				Config:           full(renamed),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
			},
		},
	})
}

// TestAccRole_names: quotes, semicolons, spaces and unicode work verbatim; 64 bytes are refused at plan.
func TestAccRole_names(t *testing.T) {
	odd := acctest.RandName(`q"uo;te ü`)
	addr := "postgresql_role.odd"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, odd),
		Steps: []resource.TestStep{
			{
				Config:      acctest.Config(`resource "postgresql_role" "long" { name = %q }`, strings.Repeat("x", 64)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`at\s+most\s+63\s+bytes`),
			},
			{
				Config:      acctest.Config(`resource "postgresql_role" "long" { name = %q }`, strings.Repeat("é", 32)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`64\s+bytes\s+long`),
			},
			{
				Config: acctest.Config(`resource "postgresql_role" "odd" {
  name        = %s
  login       = true
  password    = "odd-name-pass-7f3a"
  search_path = [%s, "public"]
}`, acctest.QuoteHCL(odd), acctest.QuoteHCL(odd)),
				ConfigStateChecks: []statecheck.StateCheck{str(addr, "name", odd), str(addr, "id", odd)},
				Check: func(*terraform.State) error {
					if !roleExists(t, odd) {
						return fmt.Errorf("role %q not found verbatim", odd)
					}
					return acctest.CheckLogin(t, odd, "odd-name-pass-7f3a")
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           odd,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password"},
			},
		},
	})
}

// TestAccRole_passwordWriteOnly: password_wo never reaches state or plan, and
// is set again only when password_wo_version changes.
func TestAccRole_passwordWriteOnly(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureWriteOnlyArguments)
	name := acctest.RandName("role_wo")
	addr := "postgresql_role.wo"
	cfg := func(pw, ver string) string {
		return acctest.Config(`resource "postgresql_role" "wo" {
  name                = %q
  login               = true
  password_wo         = %q
  password_wo_version = %q
}`, name, pw, ver)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{
				Config: cfg("first-wo-pass", "1"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("password_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("password"), knownvalue.Null()),
					str(addr, "password_wo_version", "1"),
				},
				Check: func(s *terraform.State) error {
					if err := acctest.CheckLogin(t, name, "first-wo-pass"); err != nil {
						return err
					}
					return acctest.StateDoesNotContain(s, "first-wo-pass")
				},
			},
			{ // a new value alone changes nothing: the version did not change
				Config:           cfg("second-wo-pass", "1"),
				ConfigPlanChecks: expectEmpty(),
				Check:            func(*terraform.State) error { return acctest.CheckLogin(t, name, "first-wo-pass") },
			},
			{
				Config: cfg("second-wo-pass", "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("password_wo"), knownvalue.Null()),
				}},
				Check: func(s *terraform.State) error {
					if err := acctest.CheckLogin(t, name, "second-wo-pass"); err != nil {
						return err
					}
					return acctest.StateDoesNotContain(s, "second-wo-pass")
				},
			},
		},
	})
}

// TestAccRole_metaArguments: ignore_changes, prevent_destroy,
// create_before_destroy with replace_triggered_by, and a postcondition on a
// computed attribute.
func TestAccRole_metaArguments(t *testing.T) {
	name := acctest.RandName("role_meta")
	addr := "postgresql_role.meta"
	cfg := func(rev, lifecycle string) string {
		return acctest.Config(`
resource "terraform_data" "rev" { input = %[3]q }
resource "postgresql_role" "meta" {
  name             = "%[1]s_${terraform_data.rev.output}"
  connection_limit = 5
  lifecycle {
    %[2]s
    postcondition {
      condition     = self.oid > 0 && self.id == self.name
      error_message = "oid must be known and id must equal name"
    }
  }
}`, name, lifecycle, rev)
	}
	ignore := `ignore_changes = [connection_limit]`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name+"_a", name+"_b", name+"_c"),
		Steps: []resource.TestStep{
			{Config: cfg("a", ignore), ConfigStateChecks: []statecheck.StateCheck{num(addr, "connection_limit", 5)}},
			{ // changed by SQL, ignored by the configuration: no diff, state follows the server
				PreConfig:         acctest.ExecFunc(t, "", fmt.Sprintf(`ALTER ROLE %q CONNECTION LIMIT 9`, name+"_a")),
				Config:            cfg("a", ignore),
				ConfigPlanChecks:  expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{num(addr, "connection_limit", 9)},
			},
			{ // prevent_destroy does not block a rename: renames are in place
				Config:           cfg("b", "prevent_destroy = true"),
				ConfigPlanChecks: expectUpdate(addr),
			},
			{ // ...but blocks a destroy plan
				Config:      cfg("b", "prevent_destroy = true"),
				Destroy:     true,
				ExpectError: regexp.MustCompile(`Instance\s+cannot\s+be\s+destroyed`),
			},
			{ // ...and a replacement
				Config:      cfg("c", "prevent_destroy = true\n    replace_triggered_by = [terraform_data.rev]"),
				ExpectError: regexp.MustCompile(`Instance\s+cannot\s+be\s+destroyed`),
			},
			{ // replace_triggered_by with create_before_destroy: the new role (new name) exists before the old one goes
				Config:           cfg("b", "create_before_destroy = true\n    replace_triggered_by = [terraform_data.rev]"),
				ConfigPlanChecks: expectEmpty(),
			},
			{
				Config:           cfg("c", "create_before_destroy = true\n    replace_triggered_by = [terraform_data.rev]"),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreateBeforeDestroy),
				Check: func(*terraform.State) error {
					if roleExists(t, name+"_b") || !roleExists(t, name+"_c") {
						return fmt.Errorf("expected %s_c only", name)
					}
					return nil
				},
			},
		},
	})
}

// TestAccRole_selfProtection: the plan refuses to drop or rename the role the
// provider is connected as.
func TestAccRole_selfProtection(t *testing.T) {
	admin := acctest.AdminUser()
	attrs := `login = true
  create_database = true
  create_role = true`
	if !acctest.Managed() {
		attrs += `
  superuser = true
  replication = true
  bypass_row_level_security = true`
	}
	cfg := func(name, extra string) string {
		return acctest.Config(`resource "postgresql_role" "self" {
  name = %q
  %s
  %s
}`, name, attrs, extra)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             cfg(admin, ""),
				ResourceName:       "postgresql_role.self",
				ImportState:        true,
				ImportStateId:      admin,
				ImportStatePersist: true,
			},
			{
				Config:      cfg(admin, ""),
				Destroy:     true,
				ExpectError: regexp.MustCompile(`Cannot\s+drop\s+the\s+provider's\s+own\s+role`),
			},
			{
				Config:      cfg(admin+"_x", ""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Cannot\s+rename\s+the\s+provider's\s+own\s+role`),
			},
			{ // with skip_drop_role, destroying only forgets the role
				Config: cfg(admin, "skip_drop_role = true"),
				Check: func(*terraform.State) error {
					if !roleExists(t, admin) {
						return fmt.Errorf("admin role vanished")
					}
					return nil
				},
			},
		},
	})
}

// TestAccRole_dropReassignsOwned: dropping a role that owns objects in two
// databases reassigns them and drops its privileges first.
func TestAccRole_dropReassignsOwned(t *testing.T) {
	name := acctest.RandName("role_owner")
	db := acctest.RandName("db_owned")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			defer acctest.Exec(t, "", fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, db))
			if roleExists(t, name) {
				return fmt.Errorf("role %q still exists", name)
			}
			owner := acctest.QueryString(t, db, "SELECT tableowner::text FROM pg_tables WHERE tablename = 'owned_t'")
			if owner == name {
				return fmt.Errorf("table still owned by the dropped role")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`resource "postgresql_role" "owner" { name = %q }`, name),
				Check: func(*terraform.State) error {
					acctest.Exec(t, "", fmt.Sprintf(`CREATE DATABASE %q`, db), fmt.Sprintf(`GRANT CONNECT ON DATABASE %q TO %q`, db, name))
					if acctest.Managed() {
						acctest.Exec(t, "", fmt.Sprintf(`ALTER DATABASE %q OWNER TO %q`, db, acctest.AdminUser()))
						if acctest.ServerMajor(t) < 15 {
							// Before 15 the bootstrap superuser owns schema public (15+: the
							// database owner), and the admin could not revoke the USAGE
							// below (granted by the owner) when it drops the role.
							acctest.Exec(t, db, fmt.Sprintf(`ALTER SCHEMA public OWNER TO %q`, acctest.AdminUser()))
						}
					}
					acctest.Exec(t, db,
						`CREATE TABLE owned_t (id int)`,
						fmt.Sprintf(`ALTER TABLE owned_t OWNER TO %q`, name),
						fmt.Sprintf(`GRANT USAGE ON SCHEMA public TO %q`, name))
					return nil
				},
			},
		},
	})
}

// Unset search_path and `search_path = []` both mean "the server default":
// switching between the two spellings plans no change, whichever of them
// created the role (before the fix each switch planned an in-place update
// null <-> []). An import, then `[]`, plans no change either.
func TestAccRole_regressionEmptySearchPath(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	name := acctest.RandName("role")
	addr := "postgresql_role.test"
	unset := acctest.Config(`resource "postgresql_role" "test" { name = %q }`, name)
	empty := acctest.Config(`
resource "postgresql_role" "test" {
  name        = %q
  search_path = []
}`, name)
	set := acctest.Config(`
resource "postgresql_role" "test" {
  name        = %q
  search_path = ["public"]
}`, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{
			{Config: unset},
			{Config: empty, PlanOnly: true},
			{Config: unset, PlanOnly: true},
			{Config: set, ConfigPlanChecks: expectUpdate(addr)},
			{ // [] resets the setting
				Config:           empty,
				ConfigPlanChecks: expectUpdate(addr),
				Check: func(*terraform.State) error {
					if got := acctest.QueryString(t, "", "SELECT coalesce(array_to_string(rolconfig, '|'), '') FROM pg_roles WHERE rolname = $1", name); strings.Contains(got, "search_path") {
						return fmt.Errorf("rolconfig = %s", got)
					}
					return nil
				},
			},
			{Config: unset, PlanOnly: true},
			{Config: acctest.Config("removed {\n  from = postgresql_role.test\n  lifecycle { destroy = false }\n}\n")}, // forget it, to import it
			{Config: unset, ResourceName: addr, ImportState: true, ImportStateId: name, ImportStatePersist: true},
			{Config: empty, PlanOnly: true},
			{ // set outside Terraform: repaired whichever way "default" is spelled
				PreConfig:        acctest.ExecFunc(t, "", fmt.Sprintf(`ALTER ROLE %q SET search_path = a, b`, name)),
				Config:           unset,
				ConfigPlanChecks: expectUpdate(addr),
			},
		},
	})
}

// Passwords reach the server as SCRAM-SHA-256 verifiers computed by the
// provider: the server stores that verifier, and PostgreSQL 18's MD5
// deprecation warning ("setting an MD5-encrypted password") never appears,
// whatever password_encryption says. The warning would go to the client and
// to the server log; the server log of the test cluster is checked.
func TestAccRole_passwordIsSCRAMWithoutMD5Warning(t *testing.T) {
	acctest.PreCheck(t)
	if os.Getenv("PGTF_SERVER_LOG") == "" {
		t.Skip("needs the server log (PGTF_SERVER_LOG, set by scripts/testdb)")
	}
	name := acctest.RandName("role_scram")
	from := logOffset(t)
	// Not parallel: other tests set md5 verifiers on purpose (as cyrilgdn users
	// may), which PostgreSQL 18 warns about in the same log; a sequential test
	// runs while no other test of the package does.
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{{
			Config: acctest.Config(`resource "postgresql_role" "r" {
  name     = %q
  login    = true
  password = "scram-only-pass"
}`, name),
			Check: func(*terraform.State) error {
				if err := acctest.CheckLogin(t, name, "scram-only-pass"); err != nil {
					return err
				}
				if !acctest.QueryBool(t, "", "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = $1", name) {
					return fmt.Errorf("the stored password of %s is not a SCRAM-SHA-256 verifier", name)
				}
				b, err := os.ReadFile(os.Getenv("PGTF_SERVER_LOG"))
				if err != nil {
					return err
				}
				if i := strings.Index(string(b[from:]), "MD5-encrypted password"); i >= 0 {
					return fmt.Errorf("the server warned about an MD5 password: %s", string(b[from:])[max(0, i-200):i+100])
				}
				return nil
			},
		}},
	})
}

// With skip_reassign_owned = true, a role owning a table (which no resource
// of this provider drops) cannot be dropped: the destroy plan now says so
// instead of warning, and nothing of the destroy runs. Once the table is
// gone, the destroy goes through.
func TestAccRole_regressionDestroyHalfAppliedWhenDropWillFail(t *testing.T) {
	owner := acctest.RandName("rowns")
	other := acctest.RandName("rowns_other")
	table := acctest.QQ("public", owner+"_t")
	cfg := acctest.Config(`
resource "postgresql_role" "other" { name = %q }
resource "postgresql_role" "owner" {
  name                = %q
  skip_reassign_owned = true
}`, other, owner)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, owner, other),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:   acctest.ExecFunc(t, "postgres", "CREATE TABLE "+table+" (id int)", "ALTER TABLE "+table+" OWNER TO "+acctest.QI(owner)),
				Config:      cfg,
				Destroy:     true,
				ExpectError: regexp.MustCompile(`(?s)Cannot destroy role.*table\s+public\..*skip_reassign_owned\s+=\s+false`),
			},
			{
				PreConfig: func() {
					if !roleExists(t, other) || !roleExists(t, owner) {
						t.Errorf("the refused destroy dropped role %s or %s", other, owner)
					}
					acctest.Exec(t, "postgres", "DROP TABLE "+table)
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// SUPERUSER, REPLICATION and BYPASSRLS, which a non-superuser admin (managed
// services; the provider's `superuser = false`) may not give, used to plan
// fine and fail at apply with PostgreSQL's "must be superuser" after the rest
// of the apply ran. The plan now refuses them, on the attribute; a superuser
// admin creates them.
func TestAccRole_regressionReservedAttributesFailAtApply(t *testing.T) {
	other := acctest.RandName("rres_other")
	names := map[string]string{}
	for _, a := range []string{"superuser", "replication", "bypass_row_level_security"} {
		names[a] = acctest.RandName("rres_" + a[:5])
	}
	cfg := func(attr string) string {
		return acctest.Config(`
resource "postgresql_role" "other" { name = %q }
resource "postgresql_role" "r" {
  name = %q
  %s = true
}`, other, names[attr], attr)
	}
	var steps []resource.TestStep
	for _, attr := range []string{"superuser", "replication", "bypass_row_level_security"} {
		if !acctest.Managed() {
			steps = append(steps, resource.TestStep{Config: cfg(attr), ConfigStateChecks: []statecheck.StateCheck{boolean("postgresql_role.r", attr, true)}})
			continue
		}
		steps = append(steps, resource.TestStep{
			Config:      cfg(attr),
			ExpectError: regexp.MustCompile(`(?s)needs\s+a\s+superuser.*` + attr + `\s+=\s+true`),
		}, resource.TestStep{
			PreConfig: func() {
				if roleExists(t, other) || roleExists(t, names[attr]) {
					t.Errorf("the refused plan (%s = true) was applied in part", attr)
				}
			},
			Config:   acctest.ProviderBlock,
			PlanOnly: true,
		})
	}
	all := []string{other}
	for _, n := range names {
		all = append(all, n)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, all...),
		Steps:                    steps,
	})
}

// TestAccRole_regressionDropMemberOfAdminRole (issue 30): a role that is a
// member of the admin's own role (`roles = ["<admin>"]`, as users do on managed
// services) could not be destroyed by a managed admin: borrowing its
// privileges (to reassign what it owns) made a circular membership (0LP01),
// and the error suggested a GRANT that fails the same way. The admin now takes
// the role's membership in its own role out for the duration of the
// transaction and puts it back, for every change that borrows the role (here:
// a schema it owns, and the drop, which reassigns a table it owns).
func TestAccRole_regressionDropMemberOfAdminRole(t *testing.T) {
	acctest.PreCheck(t)
	if acctest.Managed() && acctest.ServerMajor(t) >= 16 {
		t.Skip("PostgreSQL 16+: the managed admin manages only the roles it created, which hold its ADMIN OPTION membership, " +
			"so none of them can also be a member of the admin's role (a circular membership): the case does not arise")
	}
	admin := acctest.AdminUser()
	name, schema, table := acctest.RandName("in_admin"), acctest.RandName("in_admin_s"), acctest.RandName("in_admin_t")
	t.Cleanup(func() { acctest.Exec(t, "", "DROP TABLE IF EXISTS public."+acctest.QI(table)) })
	config := acctest.Config("%s", acctest.Resource("postgresql_role", "member", "name", acctest.QuoteHCL(name), "roles", "["+acctest.QuoteHCL(admin)+"]")+
		acctest.Resource("postgresql_schema", "owned", "name", acctest.QuoteHCL(schema), "database", `"postgres"`, "owner", "postgresql_role.member.name"))
	isMember := func(*terraform.State) error {
		if !acctest.QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_auth_members WHERE roleid = $1::regrole AND member = $2::regrole)", acctest.QI(admin), acctest.QI(name)) {
			return fmt.Errorf("role %q is no longer a member of %q", name, admin)
		}
		// and no borrowed membership is left behind the other way
		if acctest.QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_auth_members WHERE roleid = $2::regrole AND member = $1::regrole)", acctest.QI(admin), acctest.QI(name)) {
			return fmt.Errorf("the admin %q is still a member of %q", admin, name)
		}
		if owner := acctest.QueryString(t, "", "SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = $1", schema); owner != acctest.QI(name) {
			return fmt.Errorf("schema owned by %s", owner)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if roleExists(t, name) {
				return fmt.Errorf("role %q still exists", name)
			}
			if owner := acctest.QueryString(t, "", "SELECT tableowner::text FROM pg_tables WHERE schemaname = 'public' AND tablename = $1", table); owner != admin {
				return fmt.Errorf("the table of the dropped role belongs to %q, want %q", owner, admin)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config, Check: isMember},
			{ // it owns a table outside Terraform: destroying it reassigns the table first
				PreConfig: acctest.ExecFunc(t, "", "CREATE TABLE public."+acctest.QI(table)+" (a int)",
					"ALTER TABLE public."+acctest.QI(table)+" OWNER TO "+acctest.QI(name)),
				Config:           config,
				ConfigPlanChecks: expectEmpty(),
				Check:            isMember,
			},
		},
	})
}

// A role that holds privileges granted by the owner of an object (not by the
// provider's role): dropping it runs DROP OWNED, which revokes them only as
// their grantor would. The managed admin, not a member of the owner, left
// them, and DROP ROLE failed ("1 object in database postgres"; found by the
// random walk of internal/walk, seed 5 step 4 as the managed admin on
// PostgreSQL 18: a schema policy block of another role's schema and its role
// removed together, Terraform dropping the role first).
func TestAccRole_regressionDropHoldingPrivilegesOfOtherOwners(t *testing.T) {
	name, owner := acctest.RandName("dropheld"), acctest.RandName("dropheld_owner")
	schema := acctest.RandName("dropheld_s")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, owner)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, name),
		Steps: []resource.TestStep{{
			Config: acctest.Config(`resource "postgresql_role" "r" { name = %q }`, name),
			Check: func(*terraform.State) error {
				// the owner grants, as a user of the owner's role would
				acctest.Exec(t, "",
					"CREATE SCHEMA "+acctest.QI(schema)+" AUTHORIZATION "+acctest.QI(owner),
					"SET ROLE "+acctest.QI(owner),
					"GRANT CREATE ON SCHEMA "+acctest.QI(schema)+" TO "+acctest.QI(name),
					"ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO "+acctest.QI(name),
					"RESET ROLE")
				return nil
			},
		}},
	})
}

// A membership the configuration stops listing that another grantor (a DBA
// role) granted too: on PostgreSQL 16 and later the provider's REVOKE took
// back only its own grant, the other stayed with a warning, and the apply
// failed with "Provider produced inconsistent result after apply" (found by
// the random walk of internal/walk, seed 20 step 4 as the managed admin on
// PostgreSQL 18). The provider now revokes it GRANTED BY its grantor, whose
// privileges it has (a superuser has all; the managed admin is given the
// DBA's here). Before PostgreSQL 16 a REVOKE takes back every grant: the test
// holds there too.
func TestAccRole_regressionMembershipGrantedByAnother(t *testing.T) {
	member, group, dba := acctest.RandName("grantedby_m"), acctest.RandName("grantedby_g"), acctest.RandName("grantedby_dba")
	config := func(roles string) string {
		return acctest.Config("%s", acctest.Resource("postgresql_role", "group", "name", acctest.QuoteHCL(group))+
			acctest.Resource("postgresql_role", "member", "name", acctest.QuoteHCL(member), "roles", roles))
	}
	isMember := func(want bool) func(*terraform.State) error {
		return func(*terraform.State) error {
			got := acctest.QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_auth_members WHERE roleid = $1::regrole AND member = $2::regrole)",
				acctest.QI(group), acctest.QI(member))
			if got != want {
				return fmt.Errorf("role %q member of %q: %v, want %v", member, group, got, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.OwnerRole(t, dba)
			if acctest.Managed() {
				// on 16+ the admin already holds it (ADMIN OPTION, its creator), without INHERIT
				grant := "GRANT " + acctest.QI(dba) + " TO " + acctest.QI(acctest.AdminUser())
				if acctest.ServerMajor(t) >= 16 {
					grant += " WITH INHERIT TRUE"
				}
				acctest.Exec(t, "", grant)
			}
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, member, group),
		Steps: []resource.TestStep{
			{Config: config("[postgresql_role.group.name]"), Check: isMember(true)},
			{ // the DBA grants the same membership; the configuration stops listing it
				PreConfig: acctest.ExecFunc(t, "",
					"GRANT "+acctest.QI(group)+" TO "+acctest.QI(dba)+" WITH ADMIN OPTION",
					"GRANT "+acctest.QI(group)+" TO "+acctest.QI(member)+" GRANTED BY "+acctest.QI(dba)),
				Config: config("[]"),
				Check:  isMember(false),
			},
			{Config: config("[]"), ConfigPlanChecks: expectEmpty(), Check: isMember(false)},
		},
	})
}

// The same, granted by the superuser, as the managed admin on PostgreSQL 16
// and later: it has not the superuser's privileges and cannot revoke it. The
// apply says so, naming the membership and its grantor, instead of
// "Provider produced inconsistent result after apply".
func TestAccRole_membershipGrantedBySuperuserManaged(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("a superuser admin revokes the superuser's grants (TestAccRole_regressionMembershipGrantedByAnother)")
	}
	acctest.SkipBelow(t, 16, "a REVOKE takes back only its grantor's grants")
	member, group := acctest.RandName("grantedsu_m"), acctest.RandName("grantedsu_g")
	config := func(roles string) string {
		return acctest.Config("%s", acctest.Resource("postgresql_role", "group", "name", acctest.QuoteHCL(group))+
			acctest.Resource("postgresql_role", "member", "name", acctest.QuoteHCL(member), "roles", roles))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, member, group),
		Steps: []resource.TestStep{
			{Config: config("[postgresql_role.group.name]")},
			{
				PreConfig:   acctest.ExecFunc(t, "", "GRANT "+acctest.QI(group)+" TO "+acctest.QI(member)),
				Config:      config("[]"),
				ExpectError: regexp.MustCompile(`(?s)is still a member\s+of.*granted\s+by`),
			},
		},
	})
}

// A role left without `roles` in its configuration, a member (through a
// postgresql_grant_role) of a role that the apply drops, renamed in that
// apply: the rename waited for the dropped role as a name it needed, since
// its planned `roles` (the server's, kept) listed it, and failed with "role
// ... does not exist; waited 2s for this apply to create it". An update now
// waits only for the roles it makes the role a member of. Found by the long
// walk, seed 20509 step 34 on PostgreSQL 18, both admin modes; without the
// fix this test failed on 18 as the managed admin, and passed once on 15 as
// the superuser (Terraform's order varies).
func TestAccRole_regressionRenamedMemberOfRoleDroppedSameApply(t *testing.T) {
	base := acctest.RandName("role_rnm")
	member, renamed, group := base+"_bob", base+"_read-only", base+"_carol"
	before := acctest.Config(`
resource "postgresql_role" "group" {
  name  = %[1]q
  roles = []
}
resource "postgresql_role" "member" {
  name = %[2]q
}
resource "postgresql_grant_role" "m" {
  role              = postgresql_role.member.name
  grant_role        = postgresql_role.group.name
  with_admin_option = true
}`, group, member)
	after := acctest.Config(`
resource "postgresql_role" "member" {
  name = %[1]q
}`, renamed)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, member, renamed, group),
		Steps: []resource.TestStep{
			{Config: before},
			{
				Config: after,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_role.member", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_role.group", plancheck.ResourceActionDestroy),
				}},
				Check: func(*terraform.State) error {
					if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = ANY($1))", []string{member, group}) {
						return fmt.Errorf("%q or %q still exists", member, group)
					}
					return nil
				},
			},
		},
	})
}
