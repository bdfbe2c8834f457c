package pg

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// TestAccBorrow_regressionConcurrentBorrowersOfOneOwner: many operations
// borrowing the privileges of one role at once, outside transactions (CREATE
// and DROP DATABASE) and inside them, in the provider's database and in
// another, all succeed and the admin ends holding the one lasting membership
// it took (borrow.go).
func TestAccBorrow_regressionConcurrentBorrowersOfOneOwner(t *testing.T) {
	c := testClient(t, 0, "")
	ctx := context.Background()
	owner := acctest.RandName("shared_owner")
	other := acctest.RandName("shared_other")
	acctest.OwnerRole(t, owner)
	acctest.Database(t, other, acctest.AdminUser())
	const n, iterations = 25, 3
	for it := 0; it < iterations; it++ {
		var wg sync.WaitGroup
		errs := make(chan error, 4*n)
		run := func(f func(i int) error) {
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) { defer wg.Done(); errs <- f(i) }(i)
			}
		}
		name := func(i int) string { return fmt.Sprintf("%s_%d_%d", strings.ReplaceAll(owner, "-", "_"), it, i) }
		tx := func(i int) error {
			db := ""
			if i%2 == 1 {
				db = other
			}
			err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
				return withRoles(ctx, tx, []string{owner}, func() error {
					_, err := tx.Exec(ctx, fmt.Sprintf("CREATE SCHEMA %s AUTHORIZATION %s", acctest.QI(name(i)), acctest.QI(owner)))
					return err
				})
			})
			if err != nil {
				return fmt.Errorf("creating schema %s in a transaction: %w", name(i), err)
			}
			return nil
		}
		run(func(i int) error {
			_, err := c.CreateDatabase(ctx, DatabaseSpec{Name: name(i), DatabaseSettings: DatabaseSettings{Owner: owner, AllowConn: true, ConnLimit: -1}})
			if err != nil {
				return fmt.Errorf("creating database %s: %w", name(i), err)
			}
			return nil
		})
		run(tx)
		wg.Wait()
		run(func(i int) error { return c.DropDatabase(ctx, name(i), true) })
		run(func(i int) error {
			db := ""
			if i%2 == 1 {
				db = other
			}
			err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
				return withRoles(ctx, tx, []string{owner}, func() error {
					_, err := tx.Exec(ctx, "DROP SCHEMA "+acctest.QI(name(i)))
					return err
				})
			})
			if err != nil {
				return fmt.Errorf("dropping schema %s in a transaction: %w", name(i), err)
			}
			return nil
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("iteration %d: %v", it, err)
			}
		}
		if t.Failed() {
			break
		}
	}
	f := borrowFixture{owner: owner}
	if got, want := f.lasting(t), wantLasting(t); got != want {
		t.Errorf("the admin's own memberships in %s: %s, want %s (the lasting one CREATE DATABASE took)", owner, got, want)
	}
}
