package pg

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccBorrow_regressionIndirectMembershipRevokedMeanwhile: the managed
// admin holds an owner's privileges only through other roles (it borrowed
// role holder, a member of role middle, a member of the owner), and another
// session of the same apply revokes a link of that chain (a
// postgresql_grant_role or a role's `roles` being destroyed) while the
// owner's default privileges are reset. Before the fix the reset relied on
// the chain: it did not borrow the owner, and its ALTER DEFAULT PRIVILEGES
// failed with "permission denied to change default privileges" (walk pair
// grant_of_two_owners, PostgreSQL 18, managed admin, at the final destroy;
// TestAccWalk_regressionGrantOfTwoOwners). A borrowing relies only on a
// membership of the admin's own.
func TestAccBorrow_regressionIndirectMembershipRevokedMeanwhile(t *testing.T) {
	c := testClient(t, 0, "")
	managedOnly(t)
	prefix := strings.ReplaceAll(acctest.RandName("indirect"), "-", "_")
	owner, middle, holder := prefix+"_owner", prefix+"_middle", prefix+"_holder"
	for _, r := range []string{owner, middle, holder} {
		acctest.OwnerRole(t, r)
	}
	acctest.AdminExec(t, "", "GRANT "+acctest.QI(owner)+" TO "+acctest.QI(middle), "GRANT "+acctest.QI(middle)+" TO "+acctest.QI(holder))
	ctx := context.Background()
	// the admin borrows holder (as for an object holder owns) and so has the
	// owner's privileges through middle
	err := c.Conn(ctx, "", func(ctx context.Context, conn Querier) error {
		return withRoles(ctx, conn, []string{holder}, func() error { return nil })
	})
	if err != nil {
		t.Fatalf("borrowing %s: %v", holder, err)
	}
	if !acctest.QueryBool(t, "", "SELECT pg_has_role($1, $2, 'USAGE')", acctest.AdminUser(), owner) {
		t.Fatalf("setup: the admin should hold the privileges of %s through %s", owner, holder)
	}
	target := DefaultPrivilegesTarget{Database: acctest.DefaultDatabase(), Owner: owner, ObjectType: "function", Grantee: "public"}
	if err := c.SetDefaultPrivileges(ctx, target, nil, false, false); err != nil {
		t.Fatalf("revoking EXECUTE on new functions of %s from PUBLIC: %v", owner, err)
	}
	// the reset (a destroy): another session revokes middle's membership in
	// the owner just before its statements
	revoked := false
	rctx := withBeforeRevoke(ctx, func() {
		if !revoked {
			revoked = true
			acctest.AdminExec(t, "", "REVOKE "+acctest.QI(owner)+" FROM "+acctest.QI(middle))
			floodInvalidations(t, middle)
		}
	})
	if err := c.SetDefaultPrivileges(rctx, target, BuiltinDefaultPrivileges(target), false, true); err != nil {
		t.Fatalf("resetting the default privileges of %s while a membership it held them through was revoked: %v", owner, err)
	}
	if !revoked {
		t.Fatal("the reset ran no revoke: the interleaving was not made")
	}
	if n := acctest.QueryString(t, "", "SELECT count(*)::text FROM pg_default_acl WHERE defaclrole = $1::regrole", acctest.QI(owner)); n != "0" {
		t.Errorf("the default privileges of %s were not reset: %s entries left", owner, n)
	}
}

// floodInvalidations commits many small catalog changes (to role's
// connection limit), as a busy apply does: the shared invalidation queue
// fills, and PostgreSQL signals the sessions furthest behind, which read the
// queue while they wait for their client, inside a transaction too
// (ProcessCatchupInterrupt, src/backend/storage/ipc/sinval.c). A session
// idle in its transaction thus sees another session's REVOKE before its next
// statement, which is what a loaded machine does by chance.
func floodInvalidations(t *testing.T, role string) {
	t.Helper()
	conn := acctest.SuperConn(t, "")
	defer conn.Close(context.Background())
	for i := 0; i < 3000; i++ {
		if _, err := conn.Exec(context.Background(), fmt.Sprintf("ALTER ROLE %s CONNECTION LIMIT %d", acctest.QI(role), i%50)); err != nil {
			t.Fatalf("flooding the invalidation queue: %v", err)
		}
	}
}
