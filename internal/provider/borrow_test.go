package provider

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccBorrow_regressionRevokedByAnotherProcess (issue 42, part 4): two
// provider aliases on two databases, which Terraform runs as two plugin
// processes, create and destroy at once databases and schemas owned by one
// role whose privileges the managed admin borrows. The borrowers of one
// process coordinated through advisory locks, which PostgreSQL keeps per
// database: the last borrower of one process found no one using the
// membership in its own database and revoked it while the other process's
// CREATE DATABASE, DROP DATABASE or CREATE SCHEMA still relied on it ("must be
// able to SET ROLE", "must be owner of database", not retried). Each round
// creates and destroys 4 databases and 4 schemas per alias (-parallelism 16);
// PGTF_BORROW_ROUNDS sets the number of rounds (default 3: before the fix
// every run of 4 failed in its first or second round). The admin ends with
// the one membership it keeps in the owner (pg.withRoles).
func TestAccBorrow_regressionRevokedByAnotherProcess(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("the managed admin borrows the owner's privileges; a superuser needs none")
	}
	rounds := 3
	if s := os.Getenv("PGTF_BORROW_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("PGTF_BORROW_ROUNDS=%q: want a positive number", s)
		}
		rounds = n
	}
	const n = 4
	prefix := strings.ReplaceAll(acctest.RandName("xproc"), "-", "_")
	owner, dbA, dbB := prefix+"_owner", prefix+"_a", prefix+"_b"
	acctest.OwnerRole(t, owner)
	acctest.Database(t, dbA, acctest.AdminUser())
	acctest.Database(t, dbB, acctest.AdminUser())
	t.Cleanup(func() { // what a failed apply left behind, before the owner goes
		for _, d := range strings.Fields(acctest.QueryString(t, "", `SELECT coalesce(string_agg(quote_ident(datname), ' '), '')
FROM pg_database WHERE datdba = $1::regrole`, acctest.QI(owner))) {
			acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+d+" WITH (FORCE)")
		}
	})
	config := func(round, count int) string {
		var b strings.Builder
		for _, alias := range []string{"a", "b"} {
			db := map[string]string{"a": dbA, "b": dbB}[alias]
			fmt.Fprintf(&b, `
provider "postgresql" {
  alias    = %[1]q
  database = %[2]q
}

resource "postgresql_database" %[1]q {
  provider = postgresql.%[1]s
  count    = %[3]d
  name     = "%[4]s_r%[5]d_%[1]s${count.index}"
  owner    = %[6]q
}

resource "postgresql_schema" %[1]q {
  provider = postgresql.%[1]s
  count    = %[3]d
  name     = "r%[5]d_s${count.index}"
  owner    = %[6]q
}
`, alias, db, count, prefix, round, owner)
		}
		return b.String()
	}
	owned := func() string {
		return acctest.QueryString(t, "", `SELECT (SELECT count(*) FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = $1)::text`, owner)
	}
	w := acctest.NewWorkdir(t).WithParallelism(4 * n)
	for round := 0; round < rounds; round++ {
		start := time.Now()
		w.Apply(config(round, n))
		if got := owned(); got != strconv.Itoa(2*n) {
			t.Fatalf("round %d: %s databases owned by %s, want %d", round, got, owner, 2*n)
		}
		w.Apply(config(round, 0))
		if got := owned(); got != "0" {
			t.Fatalf("round %d: %s databases owned by %s after the destroy, want 0", round, got, owner)
		}
		t.Logf("round %d: %s", round, time.Since(start).Round(time.Millisecond))
	}
	if got, want := adminLasting(t, owner), wantAdminLasting(t, true); got != want {
		t.Errorf("the admin's own memberships in the owner: %s, want %s", got, want)
	}
}

// TestAccRole_regressionAdminRoleGrantedToBorrowedOwner: on PostgreSQL 15 and
// older, a role that owns a database the managed admin created keeps the
// admin's lasting membership (pg.withRoles); making that role a member of the
// admin's own role (`roles = ["<admin>"]`) then failed: PostgreSQL refuses the
// circular membership ("role ... is a member of role ..."). The grant now
// gives the admin's lasting membership back first; roles = [] takes the
// membership away again, and the destroy borrows the owner once more.
func TestAccRole_regressionAdminRoleGrantedToBorrowedOwner(t *testing.T) {
	acctest.PreCheck(t)
	if !acctest.Managed() {
		t.Skip("the managed admin borrows the owner's privileges; a superuser needs none")
	}
	acctest.SkipFrom(t, 16, "the managed admin cannot make a role a member of its own role")
	admin := acctest.AdminUser()
	name, db := acctest.RandName("admin_member"), acctest.RandName("admin_member_db")
	config := func(roles string) string {
		return acctest.Config(`
resource "postgresql_role" "owner" {
  name = %q
  %s
}

resource "postgresql_database" "db" {
  name  = %q
  owner = postgresql_role.owner.name
}`, name, roles, db)
	}
	check := func(member bool, lasting string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := memberOf(t, name, admin); got != member {
				return fmt.Errorf("%s a member of %s: %v, want %v", name, admin, got, member)
			}
			if got := adminLasting(t, name); got != lasting {
				return fmt.Errorf("the admin's own memberships in %s: %s, want %s", name, got, lasting)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := acctest.CheckDatabasesGone(t, db); err != nil {
				return err
			}
			return checkRoleGone(t, name)(s)
		},
		Steps: []resource.TestStep{
			{Config: config(""), Check: check(false, "admin=false")},
			{Config: config("roles = [" + acctest.QuoteHCL(admin) + "]"), Check: check(true, "none")},
			{Config: config("roles = []"), Check: check(false, "none")},
		},
	})
}

// adminLasting returns the admin's memberships in role that it granted itself
// (on 16+ with their INHERIT and SET options): what the managed admin keeps
// of a role whose privileges it borrowed (pg.withRoles).
func adminLasting(t *testing.T, role string) string {
	t.Helper()
	return acctest.QueryString(t, "", `SELECT coalesce(string_agg(concat_ws(' ', 'admin=' || m.admin_option,
  'inherit=' || (to_jsonb(m) ->> 'inherit_option'), 'set=' || (to_jsonb(m) ->> 'set_option')), '; '), 'none')
FROM pg_auth_members m WHERE m.roleid = $1::regrole AND m.member = $2::regrole AND m.grantor = m.member`,
		acctest.QI(role), acctest.QI(acctest.AdminUser()))
}

// wantAdminLasting is what adminLasting returns once the admin has borrowed
// the role's privileges, outside a transaction (CREATE or DROP DATABASE) when
// outsideTx: it keeps a membership on PostgreSQL 16+, and on older servers
// for a borrowing outside a transaction; a superuser borrows nothing.
func wantAdminLasting(t *testing.T, outsideTx bool) string {
	switch {
	case !acctest.Managed():
		return "none"
	case acctest.ServerMajor(t) >= 16:
		return "admin=false inherit=true set=true"
	case outsideTx:
		return "admin=false"
	}
	return "none"
}
