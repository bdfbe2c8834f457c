package pg

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// BenchmarkAccBorrow measures changes that borrow one owner's privileges, as
// the managed admin applying many resources at once does (-parallelism 8):
// transactions commenting on a table the owner owns (what a grant, a comment
// or an ownership change does), and CREATE plus DROP DATABASE for the owner
// (statements outside a transaction). Each sub-benchmark starts with the
// admin holding no membership in the owner.
func BenchmarkAccBorrow(b *testing.B) {
	if !acctest.Managed() {
		b.Skip("the managed admin borrows the owner's privileges; a superuser needs none")
	}
	c := testClient(b, 0, "")
	ctx := context.Background()
	prefix := strings.ReplaceAll(acctest.RandName("bench_borrow"), "-", "_")
	owner := prefix + "_owner"
	db := prefix // the admin's, where the owner's table is
	admin := func(sql string) {
		if err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error { _, err := tx.Exec(ctx, sql); return err }); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
	if _, err := c.CreateDatabase(ctx, DatabaseSpec{Name: db, DatabaseSettings: DatabaseSettings{AllowConn: true, ConnLimit: -1}}); err != nil {
		b.Fatal(err)
	}
	admin("CREATE ROLE " + acctest.QI(owner))
	b.Cleanup(func() {
		_ = c.DropDatabase(ctx, db, true)
		_ = c.DropRole(ctx, owner, false)
	})
	forget := func() { // the admin starts with no membership of its own in the owner
		admin(fmt.Sprintf(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_auth_members WHERE roleid = %s::regrole
  AND member = current_user::regrole AND grantor = member) THEN REVOKE %s FROM CURRENT_USER; END IF; END $$`,
			pgconn.QuoteLiteral(acctest.QI(owner)), acctest.QI(owner)))
	}
	admin("CREATE TABLE " + acctest.QI(prefix) + " (a int)")
	admin("GRANT CREATE ON SCHEMA public TO " + acctest.QI(owner)) // what an owner of a table needs
	if err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		return withRoles(ctx, tx, []string{owner}, func() error {
			_, err := tx.Exec(ctx, "ALTER TABLE "+acctest.QI(prefix)+" OWNER TO "+acctest.QI(owner))
			return err
		})
	}); err != nil {
		b.Fatal(err)
	}
	b.Run("transactions", func(b *testing.B) {
		forget()
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
					return withRoles(ctx, tx, []string{owner}, func() error {
						_, err := tx.Exec(ctx, "COMMENT ON TABLE "+acctest.QI(prefix)+" IS 'borrowed'")
						return err
					})
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("databases", func(b *testing.B) {
		forget()
		b.SetParallelism(2)
		var n atomic.Int64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				name := fmt.Sprintf("%s_%d", prefix, n.Add(1))
				if _, err := c.CreateDatabase(ctx, DatabaseSpec{Name: name, DatabaseSettings: DatabaseSettings{Owner: owner, AllowConn: true, ConnLimit: -1}}); err != nil {
					b.Error(err)
					return
				}
				if err := c.DropDatabase(ctx, name, true); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
