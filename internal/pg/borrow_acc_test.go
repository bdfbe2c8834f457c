package pg

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccBorrow_regressionGivingBackMembershipOfDroppedRole (issue 31): when
// the owner role was dropped in the same apply while a managed admin held its
// privileges on a plain connection (as for DROP DATABASE, which PostgreSQL
// runs outside a transaction), giving the membership back failed with
// "revoking the temporary membership ... role does not exist", although the
// membership went with the role. It is given back by definition: no error.
// Only the managed admin borrows (a superuser needs no membership).
func TestAccBorrow_regressionGivingBackMembershipOfDroppedRole(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	owner := acctest.RandName("gone_owner")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(owner))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(owner)) })
	ctx := context.Background()
	borrowed := false
	err := c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
		return withRoles(ctx, conn, []string{owner}, func() error {
			if err := conn.QueryRow(ctx, "SELECT pg_has_role(current_user, $1::text, 'USAGE')", owner).Scan(&borrowed); err != nil {
				return err
			}
			// another resource of the apply drops the role meanwhile
			acctest.AdminExec(t, "", "DROP ROLE "+acctest.QI(owner))
			return nil
		})
	})
	if err != nil {
		t.Fatalf("giving back the membership of a dropped role: %v", err)
	}
	if !borrowed {
		t.Fatal("the admin did not hold the role's privileges")
	}
}

// Several changes borrowing at once the privileges of a role that is a member
// of the admin's own role (each takes that membership out for its
// transaction and puts it back), in one database and in another: all succeed,
// and the membership ends as it began, with its ADMIN OPTION. (Issue 30; CI
// applies with -parallelism 50.)
func TestAccBorrow_concurrentBorrowersOfMemberOfAdminRole(t *testing.T) {
	c := testClient(t, 0, "")
	ctx := context.Background()
	managedOnly(t)
	if acctest.ServerMajor(t) >= 16 {
		t.Skip("PostgreSQL 16+: no role the managed admin manages can be a member of its role")
	}
	admin, member, other := acctest.AdminUser(), acctest.RandName("in_admin"), acctest.RandName("in_admin_db")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(member), "GRANT "+acctest.QI(admin)+" TO "+acctest.QI(member)+" WITH ADMIN OPTION")
	acctest.Exec(t, "", "CREATE DATABASE "+acctest.QI(other)+" OWNER "+acctest.QI(admin))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+acctest.QI(other)+" WITH (FORCE)")
		acctest.Exec(t, "", "DROP OWNED BY "+acctest.QI(member)+" CASCADE", "DROP ROLE IF EXISTS "+acctest.QI(member))
	})
	const n = 60
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			db := ""
			if i%2 == 1 {
				db = other
			}
			errs <- c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
				return withRoles(ctx, tx, []string{member}, func() error {
					_, err := tx.Exec(ctx, fmt.Sprintf("CREATE SCHEMA %s AUTHORIZATION %s", acctest.QI(fmt.Sprintf("%s_%d", member, i)), acctest.QI(member)))
					return err
				})
			})
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := acctest.QueryString(t, "", `SELECT coalesce((SELECT string_agg(admin_option::text, ',') FROM pg_auth_members
  WHERE roleid = $1::regrole AND member = $2::regrole), 'none') || '/' ||
  (SELECT count(*) FROM pg_auth_members WHERE roleid = $2::regrole AND member = $1::regrole)::text`, acctest.QI(admin), acctest.QI(member))
	if want := "true/0"; got != want {
		t.Fatalf("membership of %s in %s (admin option) / memberships of the admin in it = %s, want %s", member, admin, got, want)
	}
	t.Logf("%d retries", c.Retries())
}

// managedOnly skips a test of borrowing as a superuser, which borrows nothing:
// it could not fail there.
func managedOnly(t *testing.T) {
	t.Helper()
	if !acctest.Managed() {
		t.Skip("the managed admin borrows the owner's privileges; a superuser needs none, so this cannot fail as one")
	}
}
