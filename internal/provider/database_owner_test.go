package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Issue 42, part 1: on PostgreSQL 15+ the schema public of every new database
// belongs to pg_database_owner, whose only member in a database is the
// database's owner. The managed admin acts on it by borrowing the privileges
// of the database's owner, as on any object of a role it manages.

// The issue's configuration: a grant on public, in a database the managed
// admin created for a role it created. Before the fix it failed on 15+ with
// "the provider's role needs the privileges of role "pg_database_owner" ...
// cannot take them itself" and a hint (GRANT "pg_database_owner" TO ...) that
// PostgreSQL refuses.
//
// Before PostgreSQL 15 the new database's public is a copy of its template's:
// postgresql_database's default template, template0, has a public owned by
// the bootstrap superuser (on a managed service, the service's), which the
// admin cannot act for: the grant fails, saying so and what works instead; the
// same configuration with template = "template1" applies, since in the managed
// profile (Cloud SQL's) template1's public belongs to the admin's group.
func TestAccGrant_regressionPublicOwnedByPgDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("dbo")
	owner, ro, db := base+"_owner", base+"_ro", base+"_app"
	config := func(template string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" { name = %q }
resource "postgresql_role" "ro"    { name = %q }
resource "postgresql_database" "db" {
  name  = %q
  owner = postgresql_role.owner.name%s
}
resource "postgresql_grant" "usage" {
  database    = postgresql_database.db.name
  role        = postgresql_role.ro.name
  schema      = "public"
  object_type = "schema"
  privileges  = ["USAGE"]
}
`, owner, ro, db, template)
	}
	usage := func() string {
		return acctest.QueryString(t, db, `SELECT coalesce(string_agg(a.privilege_type, ',' ORDER BY a.privilege_type), '')
FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.nspname = 'public' AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`, ro)
	}
	issue := config("")
	var steps []resource.TestStep
	if acctest.Managed() && acctest.ServerMajor(t) < 15 {
		steps = append(steps, resource.TestStep{
			Config: issue,
			ExpectError: regexp.MustCompile(`(?s)needs\s+the\s+privileges\s+of\s+role\s+"[^"]+",\s+which\s+owns\s+"public".*superuser.*` +
				`template0.*template\s+=\s+"template1"`),
		})
		issue = config("\n  template = \"template1\"")
	}
	steps = append(steps,
		resource.TestStep{
			Config: issue,
			Check: func(*terraform.State) error {
				if got := usage(); got != "USAGE" {
					return fmt.Errorf("%s holds %q on schema public, want USAGE", ro, got)
				}
				return adminHoldsNoBorrowedMembership(t, owner)
			},
		},
		resource.TestStep{Config: issue, PlanOnly: true},
		resource.TestStep{ResourceName: "postgresql_grant.usage", ImportState: true, ImportStateVerify: true},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := acctest.CheckDatabasesGone(t, db); err != nil {
				return err
			}
			return checkRoleGone(t, owner, ro)(nil)
		},
		Steps: steps,
	})
}

// adminHoldsNoBorrowedMembership fails when the provider's role is left
// holding, in role, a membership it granted itself that is more than the
// lasting one borrowing keeps (provider page, "Memberships the provider's role
// takes"): one without ADMIN OPTION, on PostgreSQL 16+ with INHERIT and SET.
func adminHoldsNoBorrowedMembership(t *testing.T, role string) error {
	if !acctest.Managed() {
		return nil
	}
	cond := "m.admin_option"
	if acctest.ServerMajor(t) >= 16 {
		cond = "m.admin_option OR NOT m.inherit_option OR NOT m.set_option"
	}
	if acctest.QueryBool(t, "", `SELECT exists(SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.oid = m.member
WHERE m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $1) AND me.rolname = $2 AND m.grantor = me.oid AND (`+cond+`))`, role, acctest.AdminUser()) {
		return fmt.Errorf("the provider's role holds a membership in %q it granted itself beyond the lasting one borrowing keeps", role)
	}
	return nil
}

// dboFixture is a database made for an application role the managed admin
// created (acctest.OwnerRole), as a managed service's admin makes one: its
// schema public belongs to pg_database_owner on PostgreSQL 15+ (before, in
// the managed profile, to the admin's group, from template1), and its table
// public.items (when asked for) to pg_database_owner from PostgreSQL 14 (to
// the application role before). The admin holds neither ownership: it acts
// by borrowing the database owner's privileges. grantee is a second role the
// admin created.
type dboFixture struct {
	db, owner, grantee string
	table              bool
}

func newDBOFixture(table bool) dboFixture {
	base := acctest.RandName("dbo")
	return dboFixture{db: base + "_db", owner: base + "_own", grantee: base + "_g", table: table}
}

// setup creates the fixture (from PreCheck: acceptance runs only) and checks
// that public has the owner the test is about.
func (f dboFixture) setup(t *testing.T) {
	t.Helper()
	acctest.PreCheck(t)
	acctest.OwnerRole(t, f.owner)
	acctest.OwnerRole(t, f.grantee)
	acctest.Database(t, f.db, f.owner)
	if f.table {
		acctest.Exec(t, f.db, "CREATE TABLE public.items (id int, owner_name text)", "ALTER TABLE public.items OWNER TO "+acctest.QI(f.tableOwner(t)))
	}
	want := "pg_database_owner"
	if acctest.ServerMajor(t) < 15 {
		if want = acctest.ManagedGroup(); want == "" {
			return // a cluster without the managed profile: public is the bootstrap superuser's
		}
	}
	if got := f.publicOwner(t); got != want {
		t.Fatalf("schema public of %s belongs to %q, want %q: the test is not about what it says", f.db, got, want)
	}
}

// tableOwner is the owner of public.items.
func (f dboFixture) tableOwner(t *testing.T) string {
	if acctest.ServerMajor(t) < 14 {
		return f.owner // no pg_database_owner before 14
	}
	return "pg_database_owner"
}

func (f dboFixture) publicOwner(t *testing.T) string {
	return acctest.QueryString(t, f.db, "SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace WHERE nspname = 'public'")
}

// query runs a query returning one text value in the fixture's database ($1 = grantee).
func (f dboFixture) query(t *testing.T, q string) string {
	return acctest.QueryString(t, f.db, "SELECT coalesce(("+q+"), '<none>')", f.grantee)
}

// expect is a check that query q returns want, after steps that must have
// given the admin's borrowed membership back.
func (f dboFixture) expect(t *testing.T, what, q, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := f.query(t, q); got != want {
			return fmt.Errorf("%s: %q, want %q", what, got, want)
		}
		return adminHoldsNoBorrowedMembership(t, f.owner)
	}
}

// test runs the steps on the fixture and checks, after the destroy, that
// destroyed holds.
func (f dboFixture) test(t *testing.T, destroyed func(*terraform.State) error, steps ...resource.TestStep) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             destroyed,
		Steps:                    steps,
	})
}

// imported is an import step of a lifecycle: the resource's address, the
// import ID ("": the state's id) and the attributes import cannot verify.
type imported struct {
	name, id string
	ignore   []string
}

// lifecycle is the steps most tests here take: apply config and check, plan
// it again (empty), then import each resource of imports and verify it.
func lifecycle(config string, check func(*terraform.State) error, imports ...imported) []resource.TestStep {
	steps := []resource.TestStep{{Config: config, Check: check}, {Config: config, PlanOnly: true}}
	for _, i := range imports {
		steps = append(steps, resource.TestStep{Config: config, ResourceName: i.name, ImportState: true, ImportStateId: i.id,
			ImportStateVerify: true, ImportStateVerifyIgnore: i.ignore})
	}
	return steps
}

// aclOf is the query of the grantee's privileges on the object of from (a
// catalog and its alias) where cond holds, in the fixture's database.
func aclOf(acl, from, cond string) string {
	return `SELECT nullif(string_agg(a.privilege_type, ',' ORDER BY a.privilege_type), '') FROM ` + from + `, aclexplode(` + acl + `) a
WHERE ` + cond + ` AND a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`
}

var (
	publicACL = aclOf("n.nspacl", "pg_namespace n", "n.nspname = 'public'")
	itemsACL  = aclOf("c.relacl", "pg_class c", "c.oid = 'public.items'::regclass")
)

func TestAccGrant_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(true)
	config := acctest.Config(`
resource "postgresql_grant" "schema" {
  database    = %[1]q
  role        = %[2]q
  schema      = "public"
  object_type = "schema"
  privileges  = ["CREATE", "USAGE"]
}
resource "postgresql_grant" "table" {
  database    = %[1]q
  role        = %[2]q
  schema      = "public"
  object_type = "table"
  objects     = ["items"]
  privileges  = ["SELECT"]
}
`, f.db, f.grantee)
	check := func(schema, table string) func(*terraform.State) error {
		return func(s *terraform.State) error {
			if err := f.expect(t, "privileges on schema public", publicACL, schema)(s); err != nil {
				return err
			}
			return f.expect(t, "privileges on table public.items", itemsACL, table)(s)
		}
	}
	f.test(t, check("<none>", "<none>"),
		lifecycle(config, check("CREATE,USAGE", "SELECT"), imported{name: "postgresql_grant.schema"}, imported{name: "postgresql_grant.table"})...)
}

// Default privileges of pg_database_owner (of the application role before
// PostgreSQL 14) in schema public: ALTER DEFAULT PRIVILEGES FOR ROLE needs
// the privileges of (16+), or membership in, the role it names.
func TestAccDefaultPrivileges_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(false)
	owner := "pg_database_owner"
	if acctest.ServerMajor(t) < 14 {
		owner = f.owner
	}
	config := acctest.Config(`
resource "postgresql_default_privileges" "tables" {
  database    = %q
  owner       = %q
  role        = %q
  schema      = "public"
  object_type = "table"
  privileges  = ["SELECT"]
}
`, f.db, owner, f.grantee)
	entry := aclOf("d.defaclacl", "pg_default_acl d", "d.defaclrole = "+quoteLit(owner)+"::regrole AND d.defaclnamespace = 'public'::regnamespace AND d.defaclobjtype = 'r'")
	f.test(t, f.expect(t, "default privileges", entry, "<none>"),
		lifecycle(config, f.expect(t, "default privileges", entry, "SELECT"), imported{name: "postgresql_default_privileges.tables"})...)
}

// postgresql_schema managing public itself: adopted with its policy blocks,
// given to the application role and back (ownership changes need the
// privileges of the current and the new owner), imported, then dropped.
func TestAccSchema_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(false)
	original := "pg_database_owner"
	if acctest.ServerMajor(t) < 15 {
		original = acctest.ManagedGroup()
		if original == "" {
			t.Skip("before PostgreSQL 15 public belongs to the bootstrap superuser without the managed profile (scripts/testdb)")
		}
	}
	config := func(owner string) string {
		if owner != "" {
			owner = "\n  owner    = " + acctest.QuoteHCL(owner)
		}
		return acctest.Config(`
resource "postgresql_schema" "public" {
  name     = "public"
  database = %q%s
  policy {
    role  = %q
    usage = true
  }
}
`, f.db, owner, f.grantee)
	}
	ownerIs := func(want string) func(*terraform.State) error {
		return func(s *terraform.State) error {
			if got := f.publicOwner(t); got != want {
				return fmt.Errorf("schema public belongs to %q, want %q", got, want)
			}
			return f.expect(t, "privileges on schema public", publicACL, "USAGE")(s)
		}
	}
	f.test(t, func(*terraform.State) error {
		if got := f.query(t, "SELECT nspname::text FROM pg_namespace WHERE nspname = 'public' AND $1 <> ''"); got != "<none>" {
			return fmt.Errorf("schema public still exists after the destroy")
		}
		return adminHoldsNoBorrowedMembership(t, f.owner)
	},
		resource.TestStep{Config: config(""), Check: ownerIs(original)},
		resource.TestStep{Config: config(""), PlanOnly: true},
		resource.TestStep{Config: config(""), ResourceName: "postgresql_schema.public", ImportState: true, ImportStateId: f.db + ".public",
			ImportStateVerify: true, ImportStateVerifyIgnore: []string{"if_not_exists", "drop_cascade", "policy"}}, // policy blocks are not imported
		resource.TestStep{Config: config(f.owner), ConfigPlanChecks: expectUpdate("postgresql_schema.public"), Check: ownerIs(f.owner)},
		resource.TestStep{Config: config(original), ConfigPlanChecks: expectUpdate("postgresql_schema.public"), Check: ownerIs(original)},
		resource.TestStep{Config: config(original), PlanOnly: true},
	)
}

func TestAccComment_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(true)
	config := acctest.Config(`
resource "postgresql_comment" "schema" {
  database    = %[1]q
  object_type = "schema"
  object_name = "public"
  comment     = "the application's"
}
resource "postgresql_comment" "table" {
  database    = %[1]q
  object_type = "table"
  schema      = "public"
  object_name = "items"
  comment     = "what it sells"
}
`, f.db)
	comments := "SELECT obj_description('public'::regnamespace, 'pg_namespace') || '/' || obj_description('public.items'::regclass, 'pg_class') WHERE $1 <> ''"
	f.test(t, f.expect(t, "comments", "SELECT coalesce(obj_description('public'::regnamespace, 'pg_namespace'), obj_description('public.items'::regclass, 'pg_class')) WHERE $1 <> ''", "<none>"),
		lifecycle(config, f.expect(t, "comments", comments, "the application's/what it sells"),
			imported{name: "postgresql_comment.schema", id: f.db + ".schema.public"},
			imported{name: "postgresql_comment.table", id: f.db + ".table.public.items"})...)
}

func TestAccSecurityLabel_publicOfDatabaseOwner(t *testing.T) {
	skipWithoutDummyLabelProvider(t)
	f := newDBOFixture(true)
	config := acctest.Config(`
resource "postgresql_security_label" "schema" {
  database       = %[1]q
  label_provider = "dummy"
  object_type    = "schema"
  object_name    = "public"
  label          = "unclassified"
}
resource "postgresql_security_label" "table" {
  database       = %[1]q
  label_provider = "dummy"
  object_type    = "table"
  schema         = "public"
  object_name    = "items"
  label          = "classified"
}
`, f.db)
	labels := "SELECT string_agg(label, '/' ORDER BY label) FROM pg_seclabel WHERE provider = 'dummy' AND objoid IN ('public'::regnamespace, 'public.items'::regclass) AND $1 <> ''"
	f.test(t, f.expect(t, "labels", labels, "<none>"),
		lifecycle(config, f.expect(t, "labels", labels, "classified/unclassified"),
			imported{name: "postgresql_security_label.schema", id: f.db + ".dummy.schema.public"},
			imported{name: "postgresql_security_label.table", id: f.db + ".dummy.table.public.items"})...)
}

// postgresql_object_owner gives public and a table of pg_database_owner to the
// application role; the destroy leaves them so.
func TestAccObjectOwner_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(true)
	config := acctest.Config(`
resource "postgresql_object_owner" "schema" {
  database    = %[1]q
  object_type = "schema"
  object_name = "public"
  owner       = %[2]q
}
resource "postgresql_object_owner" "table" {
  database    = %[1]q
  object_type = "table"
  schema      = "public"
  object_name = "items"
  owner       = %[2]q
}
`, f.db, f.owner)
	owners := "SELECT pg_get_userbyid(n.nspowner) || '/' || pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = 'public.items'::regclass AND $1 <> ''"
	f.test(t, f.expect(t, "owners of public and public.items", owners, f.owner+"/"+f.owner),
		lifecycle(config, f.expect(t, "owners of public and public.items", owners, f.owner+"/"+f.owner),
			imported{name: "postgresql_object_owner.schema", id: f.db + ".schema.public"},
			imported{name: "postgresql_object_owner.table", id: f.db + ".table.public.items"})...)
}

// Row-level security and a policy on a table of pg_database_owner: ALTER
// TABLE and CREATE/ALTER/DROP POLICY need the table owner's privileges.
func TestAccPolicy_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(true)
	config := func(roles string) string {
		return acctest.Config(`
resource "postgresql_table_rls" "items" {
  database = %[1]q
  table    = "items"
  force    = true
}
resource "postgresql_policy" "own" {
  database = %[1]q
  table    = "items"
  name     = "own_rows"
  roles    = [%[2]s]
  using    = "owner_name = current_user"
}
`, f.db, roles)
	}
	state := "SELECT c.relrowsecurity || '/' || c.relforcerowsecurity || '/' || coalesce((SELECT string_agg(p.polname || ':' || pg_get_userbyid(r), ',') FROM pg_policy p, unnest(p.polroles) r WHERE p.polrelid = c.oid), '') FROM pg_class c WHERE c.oid = 'public.items'::regclass AND $1 <> ''"
	one, two := config(acctest.QuoteHCL(f.grantee)), config(acctest.QuoteHCL(f.grantee)+", "+acctest.QuoteHCL(f.owner))
	f.test(t, f.expect(t, "row-level security", state, "false/false/"),
		resource.TestStep{Config: one, Check: f.expect(t, "row-level security", state, "true/true/own_rows:"+f.grantee)},
		resource.TestStep{Config: one, PlanOnly: true},
		resource.TestStep{Config: two, ConfigPlanChecks: expectUpdate("postgresql_policy.own"),
			Check: f.expect(t, "row-level security", state, "true/true/own_rows:"+f.grantee+",own_rows:"+f.owner)},
		resource.TestStep{Config: two, ResourceName: "postgresql_table_rls.items", ImportState: true, ImportStateId: f.db + ".public.items", ImportStateVerify: true},
		resource.TestStep{Config: two, ResourceName: "postgresql_policy.own", ImportState: true, ImportStateId: f.db + ".public.items.own_rows", ImportStateVerify: true,
			ImportStateVerifyIgnore: []string{"using"}}, // import has no record of the spelling: the server's rendering
	)
}

// A trusted extension installed in public of a database whose CREATE the
// admin lacks: it borrows the database owner's privileges.
func TestAccExtension_publicOfDatabaseOwner(t *testing.T) {
	acctest.PreCheck(t)
	f := newDBOFixture(false)
	config := acctest.Config(`
resource "postgresql_extension" "citext" {
  database = %q
  name     = "citext"
  schema   = "public"
}
`, f.db)
	ext := "SELECT e.extname || '@' || n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'citext' AND $1 <> ''"
	f.test(t, f.expect(t, "extension", ext, "<none>"),
		lifecycle(config, f.expect(t, "extension", ext, "citext@public"),
			imported{name: "postgresql_extension.citext", id: f.db + ".citext", ignore: []string{"drop_cascade", "create_cascade"}})...)
}

// A database without PUBLIC's CONNECT (a postgresql_grant to PUBLIC on the
// database without it), given outside Terraform to another role: the
// managed admin had reached it through its owner's privileges and could no
// longer connect, so the refresh of every object in it failed ("permission
// denied for database") and every plan with it; the user was stuck until
// someone granted the admin CONNECT (the long walk, seeds 26008 and 26508,
// as the managed admin on 15 and 18). The refresh now keeps the state of
// what it cannot see, with a warning, the apply gives the database back, and
// a destroy in the database takes the new owner's privileges to connect.
func TestAccDatabase_regressionGivenAwayWithoutPublicConnect(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("ncd")
	o1, o2, o3, o4, db := base+"_o1", base+"_o2", base+"_o3", base+"_o4", base+"_db"
	config := func(withS2 bool) string {
		s2 := ""
		if withS2 {
			s2 = `
resource "postgresql_schema" "s2" {
  name     = "s2"
  database = postgresql_database.db.name
}`
		}
		return acctest.Config(`
resource "postgresql_role" "o1" { name = %q }
resource "postgresql_role" "o2" { name = %q }
resource "postgresql_role" "o3" { name = %q }
resource "postgresql_role" "o4" { name = %q }
resource "postgresql_database" "db" {
  name  = %q
  owner = postgresql_role.o1.name
}
resource "postgresql_grant" "public" {
  database    = postgresql_database.db.name
  role        = "public"
  object_type = "database"
  privileges  = ["CREATE"]
}
resource "postgresql_schema" "s1" {
  name     = "s1"
  database = postgresql_database.db.name
}%s
`, o1, o2, o3, o4, db, s2)
	}
	giveTo := func(role string) func() {
		// and ends the sessions in it, which the provider's pools (shared by
		// the provider instances of this test process) would go on using
		return func() {
			acctest.Exec(t, "", "ALTER DATABASE "+acctest.QI(db)+" OWNER TO "+acctest.QI(role),
				"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"+db+"' AND pid <> pg_backend_pid()")
		}
	}
	ownedBy := func(role string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := acctest.QueryString(t, "", "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", db); got != role {
				return fmt.Errorf("database %s is owned by %s, want %s", db, got, role)
			}
			return nil
		}
	}
	tc := resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if err := acctest.CheckDatabasesGone(t, db); err != nil {
				return err
			}
			return checkRoleGone(t, o1, o2, o3, o4)(nil)
		},
		Steps: []resource.TestStep{
			{Config: config(true), Check: ownedBy(o1)},
			{
				// the refresh cannot see s1 and s2: their state is kept
				PreConfig: giveTo(o2),
				Config:    config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_database.db", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_schema.s1", plancheck.ResourceActionNoop),
				}},
				Check: ownedBy(o1),
			},
			{
				// the destroy of s2 connects with o3's privileges
				PreConfig: giveTo(o3),
				Config:    config(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("postgresql_database.db", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("postgresql_schema.s2", plancheck.ResourceActionDestroy),
				}},
				Check: resource.ComposeTestCheckFunc(ownedBy(o1), func(*terraform.State) error {
					if acctest.QueryBool(t, db, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 's2')") {
						return fmt.Errorf("schema s2 is still there")
					}
					return nil
				}),
			},
			{Config: config(false), PlanOnly: true},
		},
	}
	if acctest.Managed() {
		// a superuser connects anyway
		tc.Steps = append(tc.Steps,
			resource.TestStep{
				// an import has no state to keep: it fails, saying why
				PreConfig:     giveTo(o4),
				Config:        config(false),
				ResourceName:  "postgresql_schema.s1",
				ImportState:   true,
				ImportStateId: db + ".s1",
				ExpectError:   regexp.MustCompile(`permission\s+denied\s+for\s+database`),
			},
			resource.TestStep{Config: config(false), Check: ownedBy(o1)},
			resource.TestStep{Config: config(false), PlanOnly: true},
		)
	}
	resource.Test(t, tc)
}
