package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// actionConfig is a configuration declaring one action, with body as its
// config block, and a terraform_data whose creation and every update (a new
// trigger value) invoke it.
func actionConfig(typ, body, trigger string) string {
	return acctest.Config(`
action %[1]q "a" {
  config {
%[2]s
  }
}

resource "terraform_data" "trigger" {
  input = %[3]q
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.%[1]s.a]
    }
  }
}
`, typ, body, trigger)
}

// eventually polls cond for up to 10 seconds: the cumulative statistics
// (pg_stat_user_tables) may show a VACUUM or ANALYZE a moment later.
func eventually(cond func() bool, format string, args ...any) error {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if cond() {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf(format, args...)
		}
	}
}

func lastStat(t *testing.T, db, column, schema, table string) bool {
	return acctest.QueryBool(t, db, "SELECT "+column+" IS NOT NULL FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2", schema, table)
}

func checkStat(t *testing.T, db, column, schema string, tables ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, tbl := range tables {
			if err := eventually(func() bool { return lastStat(t, db, column, schema, tbl) }, "%s of %s.%s is still null", column, schema, tbl); err != nil {
				return err
			}
		}
		return nil
	}
}

func checkNoStat(t *testing.T, db, column, schema, table string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		time.Sleep(500 * time.Millisecond) // statistics may lag behind (before PostgreSQL 15)
		if lastStat(t, db, column, schema, table) {
			return fmt.Errorf("%s of %s.%s is set: the table was processed but the provider's role may not", column, schema, table)
		}
		return nil
	}
}

// maintenanceSchema creates a database (the superuser's, where the admin may
// create schemas: not one it owns, whose every table a database owner may
// vacuum and analyze) with a schema holding the admin's tables t1 and "T 2"
// (a name that needs quoting), and "other", owned by a role the admin has no
// privileges of; the database is dropped at the end.
func maintenanceSchema(t *testing.T) (db, schema, foreign string) {
	db = acctest.RandName("maint_db")
	schema = acctest.RandName("Maint ü")
	foreign = acctest.RandName("maint_owner")
	acctest.ForeignOwnerRole(t, foreign)
	acctest.TempDatabase(t, db, "GRANT CREATE ON DATABASE "+acctest.QI(db)+" TO "+acctest.QI(acctest.AdminUser()))
	acctest.AdminExec(t, db,
		"CREATE SCHEMA "+acctest.QI(schema),
		"CREATE TABLE "+acctest.QQ(schema, "t1")+" (id int)",
		"INSERT INTO "+acctest.QQ(schema, "t1")+" SELECT generate_series(1, 100)",
		"CREATE TABLE "+acctest.QQ(schema, "T 2")+" (id int)",
	)
	acctest.Exec(t, db,
		"GRANT CREATE, USAGE ON SCHEMA "+acctest.QI(schema)+" TO "+acctest.QI(foreign),
		"CREATE TABLE "+acctest.QQ(schema, "other")+" (id int)",
		"ALTER TABLE "+acctest.QQ(schema, "other")+" OWNER TO "+acctest.QI(foreign))
	return db, schema, foreign
}

func relfilenode(t *testing.T, db, schema, table string) string {
	return acctest.QueryString(t, db, "SELECT pg_relation_filenode($1::regclass)::text", acctest.QQ(schema, table))
}

// postgresql_vacuum on a schema vacuums every table the provider's role may
// process (all of them for a superuser, not the foreign role's table for the
// managed admin); FULL on one table rewrites it; a table the role may not
// vacuum and a missing table are errors, not PostgreSQL's silent skip.
func TestAccAction_vacuum(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	db, schema, _ := maintenanceSchema(t)
	var before string
	otherCheck := checkStat(t, db, "last_vacuum", schema, "other")
	if acctest.Managed() {
		otherCheck = checkNoStat(t, db, "last_vacuum", schema, "other")
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: actionConfig("postgresql_vacuum", fmt.Sprintf("database = %[2]s\n    schema = %[1]s", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "1"),
				Check: resource.ComposeTestCheckFunc(
					checkStat(t, db, "last_vacuum", schema, "t1", "T 2"),
					otherCheck,
				),
			},
			{
				PreConfig: func() { before = relfilenode(t, db, schema, "T 2") },
				Config: actionConfig("postgresql_vacuum", fmt.Sprintf(`database = %s
    schema = %s
    table = "T 2"
    full = true
    freeze = true
    analyze = true`, acctest.QuoteHCL(db), acctest.QuoteHCL(schema)), "2"),
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error {
						if after := relfilenode(t, db, schema, "T 2"); after == before {
							return fmt.Errorf("VACUUM FULL did not rewrite the table: file node %s unchanged", after)
						}
						return nil
					},
					checkStat(t, db, "last_analyze", schema, "T 2"),
				),
			},
			{
				Config:      actionConfig("postgresql_vacuum", fmt.Sprintf("database = %[2]s\n    schema = %[1]s\n    table = \"missing\"", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "3"),
				ExpectError: funcErr(`no table or materialized view`, `"missing"`),
			},
		},
	})
}

// A table the managed admin may not vacuum is an error naming the rule.
func TestAccAction_vacuumNotAllowed(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	if !acctest.Managed() {
		t.Skip("the superuser may vacuum every table")
	}
	db, schema, _ := maintenanceSchema(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      actionConfig("postgresql_vacuum", fmt.Sprintf("database = %[2]s\n    schema = %[1]s\n    table = \"other\"", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "1"),
			ExpectError: funcErr(`may not vacuum`, `it must be a superuser, the table's owner`),
		}},
	})
}

// postgresql_analyze on one table, then on the whole schema.
func TestAccAction_analyze(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	db, schema, _ := maintenanceSchema(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      actionConfig("postgresql_analyze", `table = ""`, "0"),
				PlanOnly:    true,
				ExpectError: funcErr(`Invalid PostgreSQL name`),
			},
			{
				Config: actionConfig("postgresql_analyze", fmt.Sprintf("database = %[2]s\n    schema = %[1]s\n    table = \"t1\"", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "1"),
				Check: resource.ComposeTestCheckFunc(
					checkStat(t, db, "last_analyze", schema, "t1"),
					checkNoStat(t, db, "last_analyze", schema, "T 2"),
				),
			},
			{
				Config: actionConfig("postgresql_analyze", fmt.Sprintf("database = %[2]s\n    schema = %[1]s", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "2"),
				Check:  checkStat(t, db, "last_analyze", schema, "t1", "T 2"),
			},
			{
				// one partition, named on its own
				PreConfig: func() {
					acctest.AdminExec(t, db,
						"CREATE TABLE "+acctest.QQ(schema, "p")+" (id int) PARTITION BY RANGE (id)",
						"CREATE TABLE "+acctest.QQ(schema, "p1")+" PARTITION OF "+acctest.QQ(schema, "p")+" FOR VALUES FROM (0) TO (10)")
				},
				Config: actionConfig("postgresql_analyze", fmt.Sprintf("database = %[2]s\n    schema = %[1]s\n    table = \"p1\"", acctest.QuoteHCL(schema), acctest.QuoteHCL(db)), "3"),
				Check:  checkStat(t, db, "last_analyze", schema, "p1"),
			},
			{
				Config:      actionConfig("postgresql_analyze", `schema = "tfacc_no_such_schema"`, "4"),
				ExpectError: funcErr(`schema "tfacc_no_such_schema" does not exist`),
			},
		},
	})
}

// postgresql_refresh_materialized_view brings a view's rows up to date, plainly
// and CONCURRENTLY; a missing view is an error.
func TestAccAction_refreshMaterializedView(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	schema := acctest.RandName("mv")
	acctest.AdminExec(t, "",
		"CREATE SCHEMA "+acctest.QI(schema),
		"CREATE TABLE "+acctest.QQ(schema, "src")+" (id int)",
		"CREATE MATERIALIZED VIEW "+acctest.QQ(schema, "Counts")+" AS SELECT count(*) AS n FROM "+acctest.QQ(schema, "src"),
		"CREATE UNIQUE INDEX ON "+acctest.QQ(schema, "Counts")+" (n)",
		"INSERT INTO "+acctest.QQ(schema, "src")+" SELECT generate_series(1, 3)",
	)
	t.Cleanup(func() { acctest.Exec(t, "", "DROP SCHEMA IF EXISTS "+acctest.QI(schema)+" CASCADE") })
	count := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := acctest.QueryString(t, "", "SELECT n::text FROM "+acctest.QQ(schema, "Counts")); got != want {
				return fmt.Errorf("materialized view shows %s rows, want %s", got, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: actionConfig("postgresql_refresh_materialized_view", fmt.Sprintf("schema = %q\n    name = \"Counts\"", schema), "1"),
				Check:  count("3"),
			},
			{
				PreConfig: func() { acctest.Exec(t, "", "INSERT INTO "+acctest.QQ(schema, "src")+" VALUES (4), (5)") },
				Config:    actionConfig("postgresql_refresh_materialized_view", fmt.Sprintf("schema = %q\n    name = \"Counts\"\n    concurrently = true", schema), "2"),
				Check:     count("5"),
			},
			{
				Config:      actionConfig("postgresql_refresh_materialized_view", fmt.Sprintf("schema = %q\n    name = \"src\"", schema), "3"),
				ExpectError: funcErr(`"src"`, `is not a materialized view`),
			},
		},
	})
}

// postgresql_terminate_connections ends the sessions in a database, then
// those of a role, and leaves other sessions alone; neither database nor role
// is refused at validation.
func TestAccAction_terminateConnections(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	db := acctest.RandName("term_db")
	acctest.Database(t, db, acctest.AdminUser())
	role, password := acctest.RandName("term_role"), "pw-"+acctest.RandName("x")
	acctest.AdminExec(t, "", fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", acctest.QI(role), password))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(role)) })
	var inDB, inDB2, ofRole, bystander int32
	alive := func(want bool, pids ...*int32) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, pid := range pids {
				if err := eventually(func() bool { return acctest.SessionAlive(t, *pid) == want }, "session %d: alive should be %v", *pid, want); err != nil {
					return err
				}
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      actionConfig("postgresql_terminate_connections", "", "0"),
				ExpectError: funcErr(`Missing database or role`),
				PlanOnly:    true,
			},
			{
				PreConfig: func() {
					inDB = acctest.HoldSessionAs(t, db, acctest.AdminUser(), os.Getenv("PGPASSWORD"))
					inDB2 = acctest.HoldSessionAs(t, db, role, password)
					ofRole = acctest.HoldSessionAs(t, "", role, password)
					bystander = acctest.HoldSessionAs(t, "", acctest.AdminUser(), os.Getenv("PGPASSWORD"))
				},
				Config: actionConfig("postgresql_terminate_connections", fmt.Sprintf("database = %q", db), "1"),
				Check:  resource.ComposeTestCheckFunc(alive(false, &inDB, &inDB2), alive(true, &ofRole, &bystander)),
			},
			{
				Config: actionConfig("postgresql_terminate_connections", fmt.Sprintf("role = %q", role), "2"),
				Check:  resource.ComposeTestCheckFunc(alive(false, &ofRole), alive(true, &bystander)),
			},
		},
	})
}

// postgresql_reassign_owned moves a table and a schema of two roles to a third
// in two databases (as the managed admin too, which borrows the roles'
// privileges); on PostgreSQL 16+ the managed admin cannot take the privileges
// of a role it did not create, and the error says which grant fixes it.
func TestAccAction_reassignOwned(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	old1, old2, newRole := acctest.RandName("old1"), acctest.RandName("old2"), acctest.RandName("new")
	for _, r := range []string{old1, old2, newRole} {
		acctest.OwnerRole(t, r)
	}
	dbs := []string{acctest.RandName("reassign_a"), acctest.RandName("reassign_b")}
	for _, db := range dbs {
		acctest.Database(t, db, acctest.AdminUser())
		acctest.Exec(t, db,
			"CREATE TABLE t (id int)", "ALTER TABLE t OWNER TO "+acctest.QI(old1),
			"CREATE SCHEMA s AUTHORIZATION "+acctest.QI(old2))
	}
	owners := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			for _, db := range dbs {
				got := acctest.QueryString(t, db, `SELECT (SELECT relowner::regrole::text FROM pg_class WHERE oid = 'public.t'::regclass) || ' ' ||
  (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 's')`)
				if w := acctest.QI(want); got != w+" "+w {
					return fmt.Errorf("database %s: owners of table t and schema s are %s, want %s", db, got, want)
				}
			}
			return nil
		}
	}
	steps := []resource.TestStep{{
		Config:      actionConfig("postgresql_reassign_owned", fmt.Sprintf("old_roles = [%q]\n    new_role = %q\n    database = %q\n    databases = [%q]", old1, newRole, dbs[0], dbs[1]), "0"),
		ExpectError: funcErr(`Conflicting database and databases`),
		PlanOnly:    true,
	}, {
		Config: actionConfig("postgresql_reassign_owned", fmt.Sprintf(`old_roles = [%q, %q]
    new_role  = %q
    databases = [%q, %q]`, old1, old2, newRole, dbs[0], dbs[1]), "1"),
		Check: owners(newRole),
	}}
	if acctest.Managed() && acctest.ServerMajor(t) >= 16 {
		foreign := acctest.RandName("foreign")
		acctest.ForeignOwnerRole(t, foreign, dbs[0])
		steps = append(steps, resource.TestStep{
			PreConfig:   func() { acctest.Exec(t, dbs[0], "ALTER TABLE t OWNER TO "+acctest.QI(foreign)) },
			Config:      actionConfig("postgresql_reassign_owned", fmt.Sprintf("old_roles = [%q]\n    new_role = %q\n    database = %q", foreign, newRole, dbs[0]), "2"),
			ExpectError: funcErr(`REASSIGN OWNED BY`, `needs the privileges of role`, `GRANT`),
		})
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// `terraform apply -invoke` runs one action of the configuration on its own:
// the table is analyzed, the progress message is printed, and the
// configuration's resource is neither created nor planned.
func TestAccAction_invokeFromCLI(t *testing.T) {
	acctest.PreCheck(t)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	db, schema, _ := maintenanceSchema(t)
	out, err := acctest.InvokeAction(t, fmt.Sprintf(`
action "postgresql_analyze" "a" {
  config {
    database = %s
    schema   = %s
    table    = "t1"
  }
}

resource "terraform_data" "untouched" {
  input = "x"
}
`, acctest.QuoteHCL(db), acctest.QuoteHCL(schema)), "action.postgresql_analyze.a")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `(triggered by CLI): analyze "`) {
		t.Errorf("no progress message in the output:\n%s", out)
	}
	if strings.Contains(out, "terraform_data.untouched") {
		t.Errorf("apply -invoke touched a resource:\n%s", out)
	}
	if err := checkStat(t, db, "last_analyze", schema, "t1")(nil); err != nil {
		t.Error(err)
	}
	if err := checkNoStat(t, db, "last_analyze", schema, "T 2")(nil); err != nil {
		t.Error(err)
	}
}
