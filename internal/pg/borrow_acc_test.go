package pg

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccBorrow_regressionGivingBackMembershipOfDroppedRole (issue 31): when
// the owner role was dropped in the same apply while a managed admin held its
// privileges on a plain connection (as for DROP DATABASE, which PostgreSQL
// runs outside a transaction), giving the membership back failed with
// "revoking the temporary membership ... role does not exist", although the
// membership went with the role. It is given back by definition: no error.
func TestAccBorrow_regressionGivingBackMembershipOfDroppedRole(t *testing.T) {
	c := testClient(t, 5, "")
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

// In a transaction, a borrowed role dropped by another session before the
// membership is given back makes the transaction roll back (a membership it
// granted must not outlive the role) and retry: the retry borrows nothing.
func TestBorrowedRoleGoneIsRetried(t *testing.T) {
	err := fmt.Errorf("%w (role \"x\"): %w", errBorrowedRoleGone, errors.New(`ERROR: role "x" does not exist (SQLSTATE 42704)`))
	if !IsTransient(err) {
		t.Fatalf("%v is not retried", err)
	}
}
