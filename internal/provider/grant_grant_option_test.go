package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// A managed admin (not superuser) that holds the privileges of a grant WITH
// GRANT OPTION on objects owned by a superuser, as a managed service gives
// its admin on the wrappers it installs, grants and revokes them as itself,
// as cyrilgdn/postgresql does. Before the fix the provider insisted on
// borrowing the owner's privileges and refused: "needs the privileges of
// role ..., which owns ..., and cannot take them itself".
//
// The test also covers what acting as itself cannot do: revoke a privilege
// another role granted (a clear error naming the grantor, instead of a
// read-back that still shows it), and the refusal kept for objects on which
// the admin holds no grant option.
func TestAccGrant_regressionGrantOptionHolderRefused(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("concerns the managed (non-superuser) admin only: a superuser acts as the owner of any object")
	}
	f := newGrantFixture()
	admin := acctest.AdminUser()
	srv := f.db + "_srv"
	const schema = "su_owned"
	super := acctest.QueryString(t, "", "SELECT current_user")
	// everything owned by the superuser; the admin holds the privileges
	// with grant option (file_fdw: without, the refusal case)
	acctest.TempDatabase(t, f.db,
		"CREATE EXTENSION postgres_fdw",
		"CREATE EXTENSION file_fdw",
		"GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO "+acctest.QI(admin)+" WITH GRANT OPTION",
		"GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO "+acctest.QI(admin),
		"CREATE SERVER "+acctest.QI(srv)+" FOREIGN DATA WRAPPER postgres_fdw",
		"GRANT USAGE ON FOREIGN SERVER "+acctest.QI(srv)+" TO "+acctest.QI(admin)+" WITH GRANT OPTION",
		"CREATE SCHEMA "+schema,
		"CREATE TABLE "+schema+".t1 (a int)",
		"GRANT USAGE ON SCHEMA "+schema+" TO "+acctest.QI(admin)+" WITH GRANT OPTION",
		"GRANT SELECT, INSERT ON "+schema+".t1 TO "+acctest.QI(admin)+" WITH GRANT OPTION",
	)
	db := acctest.QuoteHCL(f.db)
	blocks := []grantBlock{
		{name: "fdw", objectType: "foreign_data_wrapper", objects: `["postgres_fdw"]`, privileges: `["USAGE"]`},
		{name: "server", objectType: "foreign_server", objects: fmt.Sprintf("[%s]", acctest.QuoteHCL(srv)), privileges: `["USAGE"]`, withGrantOption: "true"},
		{name: "schema", objectType: "schema", schema: acctest.QuoteHCL(schema), privileges: `["USAGE"]`},
		{name: "table", objectType: "table", schema: acctest.QuoteHCL(schema), objects: `["t1"]`, privileges: `["SELECT", "INSERT"]`},
	}
	for i := range blocks {
		blocks[i].role, blocks[i].database = "postgresql_role.g.name", db
	}
	config := grantBlocks(f.roleConfig(), blocks...)
	noGrants := f.roleConfig()
	withFileFDW := grantBlocks(f.roleConfig(), append(blocks, grantBlock{
		name: "file_fdw", role: "postgresql_role.g.name", database: db, objectType: "foreign_data_wrapper", objects: `["file_fdw"]`, privileges: `["USAGE"]`,
	})...)

	// acl: the grantee's entries on the objects, with their grantors
	acl := func() string {
		got := acctest.QueryString(t, f.db, `SELECT coalesce(string_agg(o || ':' || a.privilege_type || CASE WHEN a.is_grantable THEN '*' ELSE '' END || '/' || g.rolname, ','), '')
FROM (SELECT 'fdw' AS o, fdwacl AS acl FROM pg_foreign_data_wrapper WHERE fdwname = 'postgres_fdw'
      UNION ALL SELECT 'server', srvacl FROM pg_foreign_server WHERE srvname = $2
      UNION ALL SELECT 'schema', nspacl FROM pg_namespace WHERE nspname = $3
      UNION ALL SELECT 'table', relacl FROM pg_class WHERE oid = ($3 || '.t1')::regclass) x,
     aclexplode(x.acl) a JOIN pg_roles g ON g.oid = a.grantor
WHERE a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`, f.grantee, srv, schema)
		entries := strings.Split(got, ",")
		slices.Sort(entries)
		return strings.Join(entries, ",")
	}
	granted := fmt.Sprintf("fdw:USAGE/%[1]s,schema:USAGE/%[1]s,server:USAGE*/%[1]s,table:INSERT/%[1]s,table:SELECT/%[1]s", admin)
	grantee := acctest.QI(f.grantee)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  expectACL(t, "grants", acl, granted),
			},
			{Config: config, ConfigPlanChecks: expectEmpty()},
			{Config: config, ResourceName: "postgresql_grant.fdw", ImportState: true, ImportStateVerify: true},
			{Config: config, ResourceName: "postgresql_grant.server", ImportState: true, ImportStateVerify: true},
			{Config: config, ResourceName: "postgresql_grant.schema", ImportState: true, ImportStateVerify: true},
			{Config: config, ResourceName: "postgresql_grant.table", ImportState: true, ImportStateVerify: true},
			// drift: the privileges revoked out of band (by their grantor, the admin) come back
			{
				PreConfig: func() {
					acctest.AdminExec(t, f.db,
						"REVOKE USAGE ON FOREIGN DATA WRAPPER postgres_fdw FROM "+grantee,
						"REVOKE GRANT OPTION FOR USAGE ON FOREIGN SERVER "+acctest.QI(srv)+" FROM "+grantee,
						"REVOKE INSERT ON "+schema+".t1 FROM "+grantee)
				},
				Config:           config,
				ConfigPlanChecks: expectUpdate("postgresql_grant.fdw", "postgresql_grant.server", "postgresql_grant.table"),
				Check:            expectACL(t, "grants", acl, granted),
			},
			{Config: config, ConfigPlanChecks: expectEmpty()},
			// a privilege the superuser granted too: the admin cannot revoke
			// it as itself, and says so (nothing changes)
			{
				PreConfig: func() {
					acctest.Exec(t, f.db, "GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO "+grantee+" WITH GRANT OPTION")
				},
				Config: config,
				ExpectError: regexp.MustCompile(`(?s)` + strings.Join([]string{
					`foreign-data\s+wrapper\s+"postgres_fdw"\s+in\s+database\s+` + regexp.QuoteMeta(`"`+f.db+`"`),
					`role\s+` + spaced(regexp.QuoteMeta(grantee)),
					`granted\s+by\s+role\s+` + regexp.QuoteMeta(acctest.QI(super)),
					`GRANTED\s+BY`,
				}, ".*")),
			},
			{
				PreConfig: func() {
					if got, want := acl(), fmt.Sprintf("fdw:USAGE*/%s,", super)+granted; got != want {
						t.Fatalf("after the failed revoke: privileges %q, want %q (nothing changed)", got, want)
					}
					acctest.Exec(t, f.db, "REVOKE USAGE ON FOREIGN DATA WRAPPER postgres_fdw FROM "+grantee)
				},
				Config:           config,
				ConfigPlanChecks: expectEmpty(),
				Check:            expectACL(t, "grants", acl, granted),
			},
			// no grant option on file_fdw: the refusal as before
			{
				Config:      withFileFDW,
				ExpectError: regexp.MustCompile(`(?s)needs\s+the\s+privileges\s+of\s+role\s+` + regexp.QuoteMeta(`"`+super+`"`) + `.*cannot\s+take\s+them\s+itself`),
			},
			// destroy revokes as the admin what it granted; a privilege the
			// superuser granted too stays (as with cyrilgdn), with a warning
			// instead of a failed destroy
			{
				PreConfig: func() {
					acctest.Exec(t, f.db, "GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO "+grantee)
				},
				Config: noGrants,
				Check: func(*terraform.State) error {
					got := acl()
					acctest.Exec(t, f.db, "REVOKE USAGE ON FOREIGN DATA WRAPPER postgres_fdw FROM "+grantee)
					if want := fmt.Sprintf("fdw:USAGE/%s", super); got != want {
						return fmt.Errorf("after the grants were destroyed the grantee holds %q, want only the superuser's grant %q", got, want)
					}
					if got := acl(); got != "" {
						return fmt.Errorf("after the superuser's grant was revoked the grantee holds %q", got)
					}
					return nil
				},
			},
		},
	})
}

// spaced lets the spaces of a quoted pattern match any whitespace (an error
// message is wrapped by Terraform).
func spaced(pattern string) string { return strings.ReplaceAll(pattern, " ", `\s+`) }

// The same on PostgreSQL 16+ for an owner that is no superuser but a role
// the managed admin did not create, which it cannot borrow: holding the
// privilege WITH GRANT OPTION, it grants as itself and takes no membership
// in the owner (before the fix: "cannot grant them to itself").
func TestAccGrant_regressionGrantOptionHolderRefusedForeignOwner(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("concerns the managed (non-superuser) admin only: a superuser acts as the owner of any object")
	}
	acctest.SkipBelow(t, 16, "CREATEROLE manages only the roles it created")
	f := newGrantFixture()
	admin := acctest.AdminUser()
	acctest.ForeignOwnerRole(t, f.owner)
	acctest.Database(t, f.db, f.owner)
	acctest.Exec(t, f.db,
		"CREATE SCHEMA "+acctest.QI(f.schema)+" AUTHORIZATION "+acctest.QI(f.owner),
		"SET ROLE "+acctest.QI(f.owner),
		"CREATE TABLE "+acctest.QQ(f.schema, "t1")+" (a int)",
		"GRANT SELECT ON "+acctest.QQ(f.schema, "t1")+" TO "+acctest.QI(admin)+" WITH GRANT OPTION",
		"RESET ROLE")
	config := grantBlocks(f.roleConfig(), grantBlock{
		name: "t", role: "postgresql_role.g.name", database: acctest.QuoteHCL(f.db), schema: acctest.QuoteHCL(f.schema),
		objectType: "table", objects: `["t1"]`, privileges: `["SELECT"]`,
	})
	member := func() bool {
		return acctest.QueryBool(t, "", "SELECT pg_has_role($1, $2, 'MEMBER')", admin, f.owner)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					if got := f.relACL(t, "t1"); got != "SELECT" {
						return fmt.Errorf("t1: privileges %q, want SELECT", got)
					}
					if member() {
						return fmt.Errorf("the admin kept a membership in the owner %q", f.owner)
					}
					return nil
				},
			},
			{Config: config, ConfigPlanChecks: expectEmpty()},
			{Config: config, ResourceName: "postgresql_grant.t", ImportState: true, ImportStateVerify: true},
			{
				Config: f.roleConfig(),
				Check:  expectACL(t, "t1", func() string { return f.relACL(t, "t1") }, ""),
			},
		},
	})
}
