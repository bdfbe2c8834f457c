package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// The objects of the comment tests belong to a role the admin created but is
// not a member of (acctest.OwnerRole): in managed mode, COMMENT ON borrows
// the owner's privileges. commentFixture checks the cluster, makes that role
// and the test's database (the admin's), and returns the role's quoted name.
func commentFixture(t *testing.T, db, owner string) string {
	t.Helper()
	acctest.PreCheck(t)
	acctest.OwnerRole(t, owner) // no databases: db is dropped first, with what the role owns in it
	acctest.Database(t, db, acctest.AdminUser())
	return acctest.QI(owner)
}

func TestAccComment_basic(t *testing.T) {
	db := acctest.RandName("cmdb")
	owner := acctest.RandName("cmowner")
	role := acctest.RandName("cmrole")
	schemaName, table, column := `Cm "S"`, "t.1", "c.1"
	addrTable, addrCol, addrRole, addrDB, addrSchema := "postgresql_comment.table", "postgresql_comment.col", "postgresql_comment.role",
		"postgresql_comment.db", "postgresql_comment.schema"
	cfg := func(tableName, tableComment, roleComment string) string {
		d, s, q := acctest.QuoteHCL(db), acctest.QuoteHCL(schemaName), acctest.QuoteHCL
		return acctest.Config(`resource "postgresql_role" "r" { name = %q }`+"\n", role) +
			acctest.Resource("postgresql_comment", "role", "object_type", `"role"`, "object_name", "postgresql_role.r.name", "comment", q(roleComment)) +
			acctest.Resource("postgresql_comment", "table", "database", d, "object_type", `"table"`, "schema", s, "object_name", q(tableName), "comment", q(tableComment)) +
			acctest.Resource("postgresql_comment", "col", "database", d, "object_type", `"column"`, "schema", s, "object_name", q(table),
				"column_name", q(column), "comment", `"it's a column"`) +
			acctest.Resource("postgresql_comment", "db", "object_type", `"database"`, "object_name", d, "comment", `"the test's database"`) +
			acctest.Resource("postgresql_comment", "schema", "database", d, "object_type", `"SCHEMA"`, "object_name", s, "comment", `"a schema"`)
	}
	qt := pgconn.QuoteQualified(schemaName, table)
	commentOf := func(dbname, query string, args ...any) string {
		return acctest.QueryString(t, dbname, "SELECT coalesce(("+query+"), '<none>')", args...)
	}
	tableQ := "SELECT obj_description($1::regclass, 'pg_class')"
	colQ := "SELECT col_description($1::regclass, 1)"
	roleQ := "SELECT shobj_description((SELECT oid FROM pg_roles WHERE rolname = $1), 'pg_authid')"
	dbQ := "SELECT shobj_description((SELECT oid FROM pg_database WHERE datname = $1), 'pg_database')"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			o := commentFixture(t, db, owner)
			acctest.Exec(t, db,
				"CREATE SCHEMA "+pgconn.QuoteIdent(schemaName)+" AUTHORIZATION "+o,
				"CREATE TABLE "+qt+" ("+pgconn.QuoteIdent(column)+" int)", "ALTER TABLE "+qt+" OWNER TO "+o,
				"CREATE TABLE "+pgconn.QuoteQualified(schemaName, "other")+" (id int)", "ALTER TABLE "+pgconn.QuoteQualified(schemaName, "other")+" OWNER TO "+o)
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := acctest.QueryString(t, db, "SELECT count(*)::text FROM pg_description d JOIN pg_class c ON c.oid = d.objoid "+
				"WHERE d.classoid = 'pg_class'::regclass AND c.relnamespace = $1::regnamespace", pgconn.QuoteIdent(schemaName)); n != "0" {
				return fmt.Errorf("%s comments left in schema %s", n, schemaName)
			}
			if got := commentOf("", dbQ, db); got != "<none>" {
				return fmt.Errorf("database comment left: %q", got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg(table, "first", "a role"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addrRole, tfjsonpath.New("id"), knownvalue.StringExact("role."+role)),
					statecheck.ExpectKnownValue(addrRole, tfjsonpath.New("database"), knownvalue.StringExact(acctest.DefaultDatabase())),
					statecheck.ExpectKnownValue(addrTable, tfjsonpath.New("id"), knownvalue.StringExact("table."+tfkit.ImportID(schemaName, table))),
					statecheck.ExpectKnownValue(addrCol, tfjsonpath.New("id"), knownvalue.StringExact("column."+tfkit.ImportID(schemaName, table, column))),
					statecheck.ExpectKnownValue(addrSchema, tfjsonpath.New("database"), knownvalue.StringExact(db)),
					sameID.AddStateValue(addrTable, tfjsonpath.New("id")),
				},
				Check: func(*terraform.State) error {
					for _, c := range []struct{ db, q, arg, want string }{
						{db, tableQ, qt, "first"}, {db, colQ, qt, "it's a column"}, {"", roleQ, role, "a role"}, {"", dbQ, db, "the test's database"},
						{db, "SELECT obj_description($1::regnamespace, 'pg_namespace')", pgconn.QuoteIdent(schemaName), "a schema"},
					} {
						if got := commentOf(c.db, c.q, c.arg); got != c.want {
							return fmt.Errorf("%s %s: comment %q, want %q", c.q, c.arg, got, c.want)
						}
					}
					return nil
				},
			},
			{ // nothing to do
				Config:   cfg(table, "first", "a role"),
				PlanOnly: true,
			},
			{ // the comment changes in place
				Config:            cfg(table, "second", "a role"),
				ConfigPlanChecks:  expectUpdate(addrTable),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(addrTable, tfjsonpath.New("id"))},
				Check: func(*terraform.State) error {
					if got := commentOf(db, tableQ, qt); got != "second" {
						return fmt.Errorf("table comment = %q", got)
					}
					return nil
				},
			},
			{
				ResourceName:      addrRole,
				ImportState:       true,
				ImportStateId:     "role." + role,
				ImportStateVerify: true,
			},
			{
				ResourceName:      addrDB,
				ImportState:       true,
				ImportStateId:     "database." + db,
				ImportStateVerify: true,
			},
			{ // unquoted: the table name's dot is found by trying the cuts
				ResourceName:      addrTable,
				ImportState:       true,
				ImportStateId:     db + ".table." + schemaName + "." + table,
				ImportStateVerify: true,
			},
			{ // the quoted form
				ResourceName:      addrTable,
				ImportState:       true,
				ImportStateId:     db + ".table." + tfkit.ImportID(schemaName, table),
				ImportStateVerify: true,
			},
			{
				ResourceName:      addrCol,
				ImportState:       true,
				ImportStateId:     db + ".column." + tfkit.ImportID(schemaName, table, column),
				ImportStateVerify: true,
			},
			{
				ResourceName:      addrSchema,
				ImportState:       true,
				ImportStateId:     db + ".SCHEMA." + tfkit.ImportID(schemaName),
				ImportStateVerify: true,
			},
			{ // drift made with SQL is repaired in place
				PreConfig:        acctest.ExecFunc(t, db, "COMMENT ON TABLE "+qt+" IS 'drifted'"),
				Config:           cfg(table, "second", "a role"),
				ConfigPlanChecks: expectUpdate(addrTable),
				Check: func(*terraform.State) error {
					if got := commentOf(db, tableQ, qt); got != "second" {
						return fmt.Errorf("table comment = %q", got)
					}
					return nil
				},
			},
			{ // the comment removed behind Terraform's back: set again
				PreConfig:        acctest.ExecFunc(t, "", "COMMENT ON ROLE "+pgconn.QuoteIdent(role)+" IS NULL"),
				Config:           cfg(table, "second", "a role"),
				ConfigPlanChecks: expectAction(addrRole, plancheck.ResourceActionCreate),
			},
			{ // the column dropped and added again (its comment gone with it): set again
				PreConfig: acctest.ExecFunc(t, db, "ALTER TABLE "+qt+" DROP COLUMN "+pgconn.QuoteIdent(column),
					"ALTER TABLE "+qt+" ADD COLUMN "+pgconn.QuoteIdent(column)+" int"),
				Config:           cfg(table, "second", "a role"),
				ConfigPlanChecks: expectAction(addrCol, plancheck.ResourceActionCreate),
				Check: func(*terraform.State) error {
					got := commentOf(db, "SELECT col_description($1::regclass, (SELECT attnum FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2))", qt, column)
					if got != "it's a column" {
						return fmt.Errorf("column comment = %q", got)
					}
					return nil
				},
			},
			{ // another object: replaced, the old comment removed
				Config:           cfg("other", "second", "a role"),
				ConfigPlanChecks: expectAction(addrTable, plancheck.ResourceActionReplace),
				Check: func(*terraform.State) error {
					if got := commentOf(db, tableQ, qt); got != "<none>" {
						return fmt.Errorf("comment of the old table = %q", got)
					}
					if got := commentOf(db, tableQ, pgconn.QuoteQualified(schemaName, "other")); got != "second" {
						return fmt.Errorf("comment of the new table = %q", got)
					}
					return nil
				},
			},
			{ // the object dropped out of band: the comment is planned again, and destroying it is no error
				PreConfig: acctest.ExecFunc(t, db, "DROP TABLE "+pgconn.QuoteQualified(schemaName, "other")),
				Config:    cfg("other", "second", "a role"),
				PlanOnly:  true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addrTable, plancheck.ResourceActionCreate)},
				},
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccComment_objectTypes comments on one object of each type the test
// cluster can hold in both admin modes, and imports a few.
func TestAccComment_objectTypes(t *testing.T) {
	db := acctest.RandName("cmtdb")
	owner := acctest.RandName("cmtowner")
	type obj struct{ typ, schema, name, check string }
	objs := []obj{
		{"view", "s", "v", "SELECT obj_description('s.v'::regclass, 'pg_class')"},
		{"materialized view", "s", "mv", "SELECT obj_description('s.mv'::regclass, 'pg_class')"},
		{"sequence", "s", "seq", "SELECT obj_description('s.seq'::regclass, 'pg_class')"},
		{"index", "s", "tab_pkey", "SELECT obj_description('s.tab_pkey'::regclass, 'pg_class')"},
		{"type", "s", "Comp.T", `SELECT obj_description('s."Comp.T"'::regtype, 'pg_type')`},
		{"domain", "s", "dom", "SELECT obj_description('s.dom'::regtype, 'pg_type')"},
		{"function", "s", "fn", "SELECT obj_description('s.fn'::regproc, 'pg_proc')"},
		{"procedure", "s", "pr", "SELECT obj_description('s.pr'::regproc, 'pg_proc')"},
		{"extension", "", "citext", "SELECT obj_description((SELECT oid FROM pg_extension WHERE extname = 'citext'), 'pg_extension')"},
		{"publication", "", "pub", "SELECT obj_description((SELECT oid FROM pg_publication WHERE pubname = 'pub'), 'pg_publication')"},
	}
	config := acctest.Config("")
	for i, o := range objs {
		schema := ""
		if o.schema != "" {
			schema = acctest.QuoteHCL(o.schema)
		}
		config += acctest.Resource("postgresql_comment", fmt.Sprintf("o%d", i), "database", acctest.QuoteHCL(db), "object_type", acctest.QuoteHCL(o.typ),
			"schema", schema, "object_name", acctest.QuoteHCL(o.name), "comment", fmt.Sprintf(`"comment %d"`, i))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			o := commentFixture(t, db, owner)
			acctest.Exec(t, db,
				"CREATE SCHEMA s AUTHORIZATION "+o,
				"CREATE TABLE s.tab (id int PRIMARY KEY)", "ALTER TABLE s.tab OWNER TO "+o,
				"CREATE VIEW s.v AS SELECT 1 AS x", "ALTER VIEW s.v OWNER TO "+o,
				"CREATE MATERIALIZED VIEW s.mv AS SELECT 1 AS x", "ALTER MATERIALIZED VIEW s.mv OWNER TO "+o,
				"CREATE SEQUENCE s.seq", "ALTER SEQUENCE s.seq OWNER TO "+o,
				`CREATE TYPE s."Comp.T" AS (a int)`, `ALTER TYPE s."Comp.T" OWNER TO `+o,
				"CREATE DOMAIN s.dom AS int", "ALTER DOMAIN s.dom OWNER TO "+o,
				"CREATE FUNCTION s.fn() RETURNS int LANGUAGE sql AS 'SELECT 1'", "ALTER FUNCTION s.fn() OWNER TO "+o,
				"CREATE PROCEDURE s.pr() LANGUAGE sql AS 'SELECT 1'", "ALTER PROCEDURE s.pr() OWNER TO "+o,
				"CREATE PUBLICATION pub", "ALTER PUBLICATION pub OWNER TO "+o)
			// a trusted extension, created by the admin as a managed service lets it
			acctest.AdminExec(t, db, "CREATE EXTENSION citext")
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, o := range objs {
				if got := acctest.QueryString(t, db, "SELECT coalesce(("+o.check+"), '<none>')"); got != "<none>" {
					return fmt.Errorf("%s %s: comment %q left", o.typ, o.name, got)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					for i, o := range objs {
						if got, want := acctest.QueryString(t, db, "SELECT coalesce(("+o.check+"), '<none>')"), fmt.Sprintf("comment %d", i); got != want {
							return fmt.Errorf("%s %s: comment %q, want %q", o.typ, o.name, got, want)
						}
					}
					return nil
				},
			},
			{
				ResourceName:      "postgresql_comment.o1",
				ImportState:       true,
				ImportStateId:     db + ".materialized view.s.mv",
				ImportStateVerify: true,
			},
			{
				ResourceName:      "postgresql_comment.o4",
				ImportState:       true,
				ImportStateId:     db + `.type.s."Comp.T"`,
				ImportStateVerify: true,
			},
			{
				ResourceName:      "postgresql_comment.o8",
				ImportState:       true,
				ImportStateId:     db + ".extension.citext",
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccComment_validation(t *testing.T) {
	cfg := func(body string) string {
		return acctest.Config("resource \"postgresql_comment\" \"c\" {\n  comment = \"x\"\n%s\n}", body)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg(`object_type = "column"` + "\n" + `object_name = "t"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`needs\s+column_name`),
			},
			{
				Config:      cfg(`object_type = "table"` + "\n" + `object_name = "t"` + "\n" + `column_name = "c"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`column_name\s+is\s+only\s+allowed`),
			},
			{
				Config:      cfg(`object_type = "Role"` + "\n" + `schema = "s"` + "\n" + `object_name = "r"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`schema\s+must\s+be\s+unset`),
			},
			{
				Config:      acctest.Config(`resource "postgresql_comment" "c" {` + "\n" + `object_type = "role"` + "\n" + `object_name = "r"` + "\n" + `comment = ""` + "\n}"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`at\s+least\s+1`),
			},
		},
	})
}

func TestCommentImportReadings(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  []tfkit.ObjectImportCandidate
	}{
		{[]string{"role", "r"}, []tfkit.ObjectImportCandidate{{DB: "def", Type: "role", Name: "r"}}},
		{[]string{"TABLE", "s", "t"}, []tfkit.ObjectImportCandidate{{DB: "def", Type: "TABLE", Schema: "s", Name: "t"}}},
		{[]string{"app", "role", "r"}, []tfkit.ObjectImportCandidate{{DB: "app", Type: "role", Name: "r"}}},
		{[]string{"role", "s", "r"}, nil}, // a role has no schema
		{[]string{"column", "t", "c"}, []tfkit.ObjectImportCandidate{{DB: "def", Type: "column", Name: "t", Column: "c"}}},
		{[]string{"column", "s", "t", "c"}, []tfkit.ObjectImportCandidate{{DB: "def", Type: "column", Schema: "s", Name: "t", Column: "c"}}},
		{[]string{"app", "column", "t", "c"}, []tfkit.ObjectImportCandidate{{DB: "app", Type: "column", Name: "t", Column: "c"}}},
		{[]string{"table", "table", "t"}, []tfkit.ObjectImportCandidate{{DB: "def", Type: "table", Schema: "table", Name: "t"}, {DB: "table", Type: "table", Name: "t"}}},
		{[]string{"column", "t"}, nil},
		{[]string{"nosuch", "t"}, nil},
	} {
		if got := commentImport.Readings("def", c.parts); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("commentImportReadings(%q) = %v, want %v", c.parts, got, c.want)
		}
	}
}

// TestAccComment_regressionCommentOfRenamedDatabaseOrSchema: the comment on a
// database or a schema is removed in the apply that renames the object back
// after a rename outside Terraform, whichever of the two runs first: the
// comment follows the object by the OID recorded at its last read (as for a
// role, TestAccWalk_regressionCommentOfRenamedRole). Before, a removal that
// ran while the object had its other name found nothing under the
// configured one, and the comment stayed on the object.
func TestAccComment_regressionCommentOfRenamedDatabaseOrSchema(t *testing.T) {
	acctest.PreCheck(t)
	db, schemaName := acctest.RandName("cmren"), acctest.RandName("cmren_s")
	addrDB, addrSchema := "postgresql_comment.db", "postgresql_comment.schema"
	cfg := func(dbComment, schemaComment bool) string {
		c := acctest.Config(`resource "postgresql_database" "d" { name = %q }
resource "postgresql_schema" "s" {
  database = postgresql_database.d.name
  name     = %q
}
`, db, schemaName)
		if dbComment {
			c += acctest.Resource("postgresql_comment", "db", "object_type", `"database"`, "object_name", "postgresql_database.d.name", "comment", `"a database"`)
		}
		if schemaComment {
			c += acctest.Resource("postgresql_comment", "schema", "database", "postgresql_database.d.name", "object_type", `"schema"`,
				"object_name", "postgresql_schema.s.name", "comment", `"a schema"`)
		}
		return c
	}
	dbComment := func() string {
		return acctest.QueryString(t, "", "SELECT coalesce(shobj_description((SELECT oid FROM pg_database WHERE datname = $1), 'pg_database'), '<none>')", db)
	}
	schemaComment := func() string {
		return acctest.QueryString(t, db, "SELECT coalesce(obj_description((SELECT oid FROM pg_namespace WHERE nspname = $1), 'pg_namespace'), '<none>')", schemaName)
	}
	want := func(what string, got func() string, w string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if g := got(); g != w {
				return fmt.Errorf("comment on the %s: %q, want %q", what, g, w)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg(true, true),
				Check:  resource.ComposeTestCheckFunc(want("database", dbComment, "a database"), want("schema", schemaComment, "a schema")),
			},
			{ // the schema renamed outside Terraform; its comment removed from the configuration
				PreConfig: acctest.ExecFunc(t, db, "ALTER SCHEMA "+acctest.QI(schemaName)+" RENAME TO "+acctest.QI(schemaName+"_x")),
				Config:    cfg(true, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_schema.s", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(addrSchema, plancheck.ResourceActionDestroy),
				}},
				Check: want("schema", schemaComment, "<none>"),
			},
			{ // the database, likewise
				PreConfig: func() { renameDatabaseOutOfBand(t, db, db+"_x") },
				Config:    cfg(false, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_database.d", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(addrDB, plancheck.ResourceActionDestroy),
				}},
				Check: want("database", dbComment, "<none>"),
			},
			{Config: cfg(false, false), PlanOnly: true},
		},
	})
}

// renameDatabaseOutOfBand renames database from to to as a DBA would:
// PostgreSQL refuses while sessions are connected to it (the in-process
// provider of the previous step may still hold pooled connections), so they
// are terminated first, and the rename is tried again until they are gone.
func renameDatabaseOutOfBand(t *testing.T, from, to string) {
	t.Helper()
	ctx := context.Background()
	conn := acctest.SuperConn(t, "")
	defer conn.Close(ctx)
	for try := 0; ; try++ {
		if _, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", from); err != nil {
			t.Fatalf("terminating the sessions of database %s: %v", from, err)
		}
		_, err := conn.Exec(ctx, "ALTER DATABASE "+acctest.QI(from)+" RENAME TO "+acctest.QI(to))
		if err == nil {
			return
		}
		if pgconn.SQLState(err) != "55006" || try == 50 {
			t.Fatalf("renaming database %s to %s: %v", from, to, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
