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
)

func TestAccDatabase_lifecycle(t *testing.T) {
	acctest.RequireCLIFeature(t, acctest.FeatureRemovedBlocks)
	name := acctest.RandName("db")
	renamed := name + ` "ü ß`
	owner := acctest.RandName("dbowner")
	addr := "postgresql_database.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	ownerHCL := `resource "postgresql_role" "owner" { name = "` + owner + `" }` + "\n"
	cfgRenamed := func(extra string) string {
		return acctest.Config(ownerHCL+`
resource "postgresql_database" "test" {
  name                   = %s
  owner                  = postgresql_role.owner.name
  encoding               = "utf8"
  connection_limit       = 5
  alter_object_ownership = true
  force_drop             = true
%s
}`, acctest.QuoteHCL(renamed), extra)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name, renamed) },
		Steps: []resource.TestStep{
			{ // too long a name is refused at plan time
				Config:      acctest.Config(`resource "postgresql_database" "test" { name = %q }`, strings.Repeat("d", 64)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Invalid\s+PostgreSQL\s+name`),
			},
			{
				Config: acctest.Config(ownerHCL+`resource "postgresql_database" "test" { name = %q }`, name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(acctest.AdminUser())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("template"), knownvalue.StringExact("template0")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_collate"), knownvalue.StringExact("C.UTF-8")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tablespace_name"), knownvalue.StringExact("pg_default")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(-1)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_connections"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_template"), knownvalue.Bool(false)),
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
				},
			},
			{ // rename + owner + limit in place; "utf8" means UTF8: no replacement
				PreConfig: acctest.ExecFunc(t, name, `CREATE SCHEMA old_owner_s`, `CREATE TABLE old_owner_s.t (id int)`,
					`ALTER SCHEMA old_owner_s OWNER TO `+acctest.QI(acctest.AdminUser()),
					`ALTER TABLE old_owner_s.t OWNER TO `+acctest.QI(acctest.AdminUser())),
				Config:           cfgRenamed(""),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(renamed)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("owner"), knownvalue.StringExact(owner)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("encoding"), knownvalue.StringExact("UTF8")),
				},
				Check: func(*terraform.State) error { // alter_object_ownership gave the objects inside to the new owner
					got := acctest.QueryString(t, renamed, `SELECT pg_get_userbyid(n.nspowner) || ' ' || pg_get_userbyid(c.relowner)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'old_owner_s' AND c.relname = 't'`)
					if got != owner+" "+owner {
						return fmt.Errorf("owners of the schema and table inside: %q, want %q", got, owner)
					}
					return nil
				},
			},
			{
				Config:                  cfgRenamed(""),
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           renamed,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"template", "alter_object_ownership", "force_drop"},
			},
			{ // import block: the plan after import is empty
				Config: acctest.Config(ownerHCL+`resource "postgresql_database" "test" {
  name             = %s
  owner            = postgresql_role.owner.name
  encoding         = "utf8"
  connection_limit = 5
}`, acctest.QuoteHCL(renamed)),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateId:   renamed,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{ // drift made with SQL is repaired
				PreConfig:        acctest.ExecFunc(t, "", `ALTER DATABASE `+acctest.QI(renamed)+` WITH CONNECTION LIMIT 1 ALLOW_CONNECTIONS false`),
				Config:           cfgRenamed(""),
				ConfigPlanChecks: expectUpdate(addr),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("connection_limit"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_connections"), knownvalue.Bool(true)),
				},
			},
			{ // a different collation must replace; force_drop disconnects a session still connected
				PreConfig:        acctest.HoldConnectionFunc(t, renamed),
				Config:           cfgRenamed(`  lc_collate = "C"`),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_collate"), knownvalue.StringExact("C")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("lc_ctype"), knownvalue.StringExact("C.UTF-8")),
				},
			},
			{ // dropped out of band: planned for creation again
				PreConfig: acctest.DropDatabaseFunc(t, renamed),
				Config: cfgRenamed(`  lc_collate = "C"
  is_template = true`),
				ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_template"), knownvalue.Bool(true)),
				},
			},
			{ // the provider's own database cannot be dropped by a plan
				Config:             acctest.Config(`resource "postgresql_database" "own" { name = "postgres" }`),
				ResourceName:       "postgresql_database.own",
				ImportState:        true,
				ImportStateId:      "postgres",
				ImportStatePersist: true,
			},
			{
				Config:      acctest.Config("%s", ownerHCL),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Cannot\s+drop\s+the\s+provider's\s+own\s+database`),
			},
			{ // gone already: forgetting it from the state is enough
				PreConfig: acctest.DropDatabaseFunc(t, renamed),
				Config: acctest.Config("%s", ownerHCL+`removed {
  from = postgresql_database.own
  lifecycle { destroy = false }
}`),
			},
		},
	})
}

// In managed mode the admin cannot make a superuser own a database: the error
// names the missing grant, and nothing is left behind.
func TestAccDatabase_managedOwnerNotGrantable(t *testing.T) {
	if !acctest.Managed() {
		t.Skip("only meaningful when the provider's role is not a superuser")
	}
	name := acctest.RandName("dbsu")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps: []resource.TestStep{{
			Config: acctest.Config(`resource "postgresql_database" "test" {
  name  = %q
  owner = "postgres"
}`, name),
			ExpectError: regexp.MustCompile(`(?s)cannot\s+grant\s+itself\s+membership\s+in\s+it:\s+"postgres"\s+is\s+a\s+superuser`),
		}},
	})
}

// testAccFailedDropKeepsTemplate creates the template database name, makes its
// destroy fail (block; the error must match failure), and runs the last step
// after checking that the database is still a template that allows
// connections and letting unblock remove the cause.
func testAccFailedDropKeepsTemplate(t *testing.T, name string, forceDrop bool, block func(), failure *regexp.Regexp, unblock func(), last resource.TestStep) {
	force := "" // left out
	if forceDrop {
		force = "true"
	}
	cfg := acctest.Config("%s", acctest.Resource("postgresql_database", "test", "name", acctest.QuoteHCL(name), "is_template", "true", "force_drop", force))
	last.Config = cfg
	last.PreConfig = func() {
		if !acctest.QueryBool(t, "", "SELECT datistemplate AND datallowconn FROM pg_database WHERE datname = $1", name) {
			t.Errorf("database %s is no longer a template or no longer allows connections after the failed drop", name)
		}
		unblock()
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps: []resource.TestStep{
			{Config: cfg},
			{PreConfig: block, Config: cfg, Destroy: true, ExpectError: failure},
			last,
		},
	})
}

// Destroying a template database used to run ALTER DATABASE ... IS_TEMPLATE
// false before DROP DATABASE and leave it so when the drop failed (here:
// another session is connected and force_drop is false). The database is left
// as it was, and the error says why (since the destroy plan sees the session,
// it refuses before anything runs; the undo at apply is exercised by the
// force_drop case below); with the session gone the plan is empty.
func TestAccDatabase_regressionFailedDropKeepsTemplate(t *testing.T) {
	name := acctest.RandName("dbtpl")
	var release func()
	testAccFailedDropKeepsTemplate(t, name, false,
		func() { release = acctest.HoldConnection(t, name) }, regexp.MustCompile(`other\s+sessions\s+are\s+connected\s+to\s+it`),
		func() { release() },
		resource.TestStep{
			ConfigPlanChecks: expectEmpty(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("postgresql_database.test", tfjsonpath.New("is_template"), knownvalue.Bool(true)),
			},
		})
}

// The same with force_drop = true, where sessions are disconnected: a
// subscription in the database makes the drop fail (PostgreSQL refuses to
// drop a database that subscriptions belong to). With the subscription gone
// the plan is empty, and the destroy succeeds.
func TestAccDatabase_regressionFailedForceDropKeepsTemplate(t *testing.T) {
	name := acctest.RandName("dbtplf")
	sub := strings.ReplaceAll(name, "-", "_") + "_sub"
	t.Cleanup(func() { // if a step fails, the subscription would keep the database
		if accEnabled() && acctest.DatabaseExists(t, name) {
			acctest.Exec(t, name, "DROP SUBSCRIPTION IF EXISTS "+acctest.QI(sub))
			acctest.DropDatabaseFunc(t, name)()
		}
	})
	testAccFailedDropKeepsTemplate(t, name, true,
		// a subscription created as superuser, never connecting
		acctest.ExecFunc(t, name, "CREATE SUBSCRIPTION "+acctest.QI(sub)+
			" CONNECTION 'dbname=none' PUBLICATION p WITH (connect = false, enabled = false, create_slot = false, slot_name = NONE)"),
		regexp.MustCompile(`(?s)dropping\s+database\s+.*subscription`),
		acctest.ExecFunc(t, name, "DROP SUBSCRIPTION "+acctest.QI(sub)),
		resource.TestStep{PlanOnly: true})
}

// `DEFAULT` for template, encoding, lc_collate, lc_ctype and tablespace_name
// means the server's default, as cyrilgdn/postgresql documents it: CREATE
// DATABASE no longer fails on `TEMPLATE "DEFAULT"` / `ENCODING 'DEFAULT'`, and
// neither a refresh, an import nor a changed spelling plans a change.
func TestAccDatabase_regressionDefaultKeyword(t *testing.T) {
	name := acctest.RandName("dbdef")
	addr := "postgresql_database.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	config := func(template, keyword string) string {
		return acctest.Config(`
resource "postgresql_database" "test" {
  name            = %q
%s
  encoding        = %q
  lc_collate      = %q
  lc_ctype        = %q
  tablespace_name = %q
}`, name, template, keyword, keyword, keyword, keyword)
	}
	// the server's choice: template1's settings
	same := func(*terraform.State) error {
		q := `SELECT encoding::text || ' ' || datcollate::text || ' ' || datctype::text || ' ' || dattablespace::text FROM pg_database WHERE datname = $1`
		got, want := acctest.QueryString(t, "", q, name), acctest.QueryString(t, "", q, "template1")
		if got != want {
			return fmt.Errorf("database %s has encoding, collation, ctype and tablespace %q, template1 %q", name, got, want)
		}
		return nil
	}
	// after a refresh the state records what the server chose
	recorded := func(s *terraform.State) error {
		attrs := s.RootModule().Resources[addr].Primary.Attributes
		for attr, q := range map[string]string{
			"encoding":        `SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = $1`,
			"lc_collate":      `SELECT datcollate::text FROM pg_database WHERE datname = $1`,
			"lc_ctype":        `SELECT datctype::text FROM pg_database WHERE datname = $1`,
			"tablespace_name": `SELECT t.spcname::text FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE datname = $1`,
		} {
			if want := acctest.QueryString(t, "", q, name); attrs[attr] != want {
				return fmt.Errorf("%s = %q in the state, %q on the server", attr, attrs[attr], want)
			}
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps: []resource.TestStep{
			{
				Config: config(`  template = "DEFAULT"`, "DEFAULT"),
				ConfigStateChecks: []statecheck.StateCheck{
					sameOID.AddStateValue(addr, tfjsonpath.New("oid")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("template"), knownvalue.StringExact("DEFAULT")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("encoding"), knownvalue.StringExact("DEFAULT")),
				},
				Check: same,
			},
			{Config: config(`  template = "DEFAULT"`, "DEFAULT"), PlanOnly: true},
			{ // another spelling, and the template's name: no change; the refresh records what the server chose
				Config:            config(`  template = "template1"`, "default"),
				ConfigPlanChecks:  expectEmpty(),
				ConfigStateChecks: []statecheck.StateCheck{sameOID.AddStateValue(addr, tfjsonpath.New("oid"))},
				Check:             recorded,
			},
			{ // import: the plan after import is empty (PostgreSQL does not record the template)
				Config:          config("", "DEFAULT"),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateId:   name,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{Config: config("", "DEFAULT"), PlanOnly: true},
		},
	})
}

// A destroy whose DROP DATABASE the plan knows will fail (another session is
// connected and force_drop is false) is refused at plan time: the role
// destroyed with it is left alone. Once the session is gone, it goes through.
func TestAccDatabase_regressionDestroyHalfAppliedWhenDropWillFail(t *testing.T) {
	name := acctest.RandName("dbbusy")
	role := acctest.RandName("dbbusy_r")
	cfg := acctest.Config(`
resource "postgresql_role" "r" { name = %q }
resource "postgresql_database" "test" { name = %q }`, role, name)
	var release func()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := acctest.CheckDatabasesGone(t, name); err != nil {
				return err
			}
			return checkRoleGone(t, role)(s)
		},
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:   func() { release = acctest.HoldConnection(t, name) },
				Config:      cfg,
				Destroy:     true,
				ExpectError: regexp.MustCompile(`(?s)Cannot destroy database.*other\s+sessions\s+are\s+connected\s+to\s+it.*force_drop\s+=\s+true`),
			},
			{
				PreConfig: func() {
					if !roleExists(t, role) || !acctest.DatabaseExists(t, name) {
						t.Errorf("the refused destroy dropped role %s or database %s", role, name)
					}
					release()
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// TestAccDatabase_regressionConnectionLimitRespected (issue 31): with a
// connection_limit on a database, a non-superuser admin (which PostgreSQL
// holds to it; superusers are exempt) had applies and destroys of the objects
// in it refused with "too many connections": the provider opened a connection
// per concurrent operation. It now keeps its sessions of each database within
// the database's limit (and its role's) and retries a refused connection.
// 20 schemas and 20 grants in a database with connection_limit = 2, applied
// and destroyed with -parallelism=50. Not parallel: it sets TF_CLI_ARGS_*.
func TestAccDatabase_regressionConnectionLimitRespected(t *testing.T) {
	const n = 20
	db, reader := acctest.RandName("connlimit"), acctest.RandName("connlimit_r")
	t.Setenv("TF_CLI_ARGS_apply", "-parallelism=50")
	t.Setenv("TF_CLI_ARGS_destroy", "-parallelism=50")
	t.Setenv("TF_CLI_ARGS_plan", "-parallelism=50")
	base := acctest.Config(`
resource "postgresql_database" "db" {
  name             = %q
  connection_limit = 2
}
resource "postgresql_role" "reader" {
  name = %q
}
`, db, reader)
	objects := fmt.Sprintf(`
resource "postgresql_schema" "s" {
  count    = %[1]d
  name     = "s${count.index}"
  database = postgresql_database.db.name
}
resource "postgresql_grant" "usage" {
  count       = %[1]d
  database    = postgresql_database.db.name
  role        = postgresql_role.reader.name
  schema      = postgresql_schema.s[count.index].name
  object_type = "schema"
  privileges  = ["USAGE"]
}
`, n)
	count := func(want int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got := acctest.QueryString(t, db, `SELECT count(*)::text || '/' || count(*) FILTER (WHERE has_schema_privilege($1, oid, 'USAGE'))::text
FROM pg_namespace WHERE nspname ~ '^s[0-9]+$'`, reader)
			if exp := fmt.Sprintf("%d/%d", want, want); got != exp {
				return fmt.Errorf("schemas/granted = %s, want %s", got, exp)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, db) },
		Steps: []resource.TestStep{
			{Config: base + objects, Check: count(n)},
			{Config: base + objects, PlanOnly: true},
			{Config: base, Check: count(0)}, // 40 destroys in the database
			{Config: base + objects, Check: count(n)},
		},
	})
}

// TestAccDatabase_regressionEmptyEncodingInconsistentResult (issue 30):
// encoding, lc_collate and lc_ctype = "" (cyrilgdn documents "unset or
// empty"), and the other optional strings spelled "" (template, owner,
// tablespace_name), were recorded as "" and the read-back of the server's
// values failed the apply with "Provider produced inconsistent result"
// (owner and tablespace_name were refused as invalid names). "" now means
// unset: the same database as unset, no change after create, refresh,
// import, over cyrilgdn's state, nor when switching between "", unset and
// the server's values.
func TestAccDatabase_regressionEmptyEncodingInconsistentResult(t *testing.T) {
	acctest.PreCheck(t)
	name := acctest.RandName("dbempty")
	attrs := []string{"template", "owner", "encoding", "lc_collate", "lc_ctype", "tablespace_name"}
	q := `SELECT pg_get_userbyid(datdba)::text || ' ' || pg_encoding_to_char(encoding) || ' ' || datcollate::text || ' ' || datctype::text || ' ' || t.spcname::text
		FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE datname = $1`
	// what unset gives: template0's settings, owned by the admin
	unset := strings.Fields(acctest.QueryString(t, "", q, "template0"))
	unset[0] = acctest.AdminUser()
	server := map[string]string{"template": "template0"}
	for i, a := range attrs[1:] {
		server[a] = unset[i]
	}
	v0 := map[string]any{"id": name, "name": name, "allow_connections": true, "alter_object_ownership": false, "connection_limit": -1, "is_template": false}
	for _, a := range attrs {
		v0[a] = server[a]
	}
	c := emptyCase{
		addr: "postgresql_database.test", attrs: attrs, server: server, importID: name, v0: v0, identity: "oid",
		body: func(set map[string]string) string {
			return hclBlock("postgresql_database.test", []string{fmt.Sprintf("name = %q", name)}, set)
		},
		check: func(*terraform.State) error {
			if got := acctest.QueryString(t, "", q, name); got != strings.Join(unset, " ") {
				return fmt.Errorf("database %s has owner, encoding, collation, ctype and tablespace %q; unset gives %q", name, got, strings.Join(unset, " "))
			}
			return nil
		},
		// PostgreSQL does not record the template: an import leaves it null,
		// and any configured template then plans one in-place update without SQL
		noImport: []string{"template"},
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps:                    c.steps(t),
	})
}

// TestAccDatabase_regressionDefaultOwnerRoleNotFound (issue 30): owner =
// "DEFAULT", which cyrilgdn documents (the role running CREATE DATABASE), was
// taken as a role name: `role "DEFAULT" does not exist`. It now creates the
// database owned by the provider's role, records the owner after a refresh,
// and never plans a change against it.
func TestAccDatabase_regressionDefaultOwnerRoleNotFound(t *testing.T) {
	name := acctest.RandName("dbdefown")
	addr := "postgresql_database.test"
	sameOID := statecheck.CompareValue(compare.ValuesSame())
	config := func(owner string) string {
		return acctest.Config(`resource "postgresql_database" "test" {
  name  = %q
  owner = %q
}`, name, owner)
	}
	same := func(more ...statecheck.StateCheck) []statecheck.StateCheck {
		return append(more, sameOID.AddStateValue(addr, tfjsonpath.New("oid")))
	}
	owned := func(*terraform.State) error {
		if got := acctest.QueryString(t, "", `SELECT pg_get_userbyid(datdba)::text FROM pg_database WHERE datname = $1`, name); got != acctest.AdminUser() {
			return fmt.Errorf("database %s is owned by %q, want the provider's role %q", name, got, acctest.AdminUser())
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return acctest.CheckDatabasesGone(t, name) },
		Steps: []resource.TestStep{
			{Config: config("DEFAULT"), ConfigStateChecks: same(str(addr, "owner", "DEFAULT")), Check: owned},
			{Config: config("DEFAULT"), PlanOnly: true},
			// the refresh records the owner; another spelling, and the role's name: no change
			{Config: config("default"), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same(str(addr, "owner", acctest.AdminUser()))},
			{Config: config(acctest.AdminUser()), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
			{Config: config("DEFAULT"), ConfigPlanChecks: expectEmpty(), ConfigStateChecks: same()},
			{Config: config("DEFAULT"), ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}
