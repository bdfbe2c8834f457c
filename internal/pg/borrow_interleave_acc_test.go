package pg

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Interleavings of borrowers of one owner, made with the borrowing's hooks
// (withBorrowHooks) instead of timing: one borrower stops at a point of its
// borrowing while borrowers of another client (another provider process, on
// another database) act, then goes on. Every provider alias is a plugin
// process of its own, so two clients here stand for two processes: nothing of
// a borrowing is kept per process.

// borrowFixture is an owner role the managed admin manages and two databases
// the admin owns, each with a client of its own (the provider processes of
// two aliases).
type borrowFixture struct {
	owner, prefix string
	dbA, dbB      string
	a, b          *Client
}

func newBorrowFixture(t *testing.T, name string) *borrowFixture {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	if !acctest.Managed() {
		t.Skip("the managed admin borrows the owner's privileges; a superuser needs none")
	}
	prefix := strings.ReplaceAll(acctest.RandName(name), "-", "_")
	f := &borrowFixture{owner: prefix + "_owner", prefix: prefix, dbA: prefix + "_a", dbB: prefix + "_b"}
	acctest.OwnerRole(t, f.owner)
	acctest.Database(t, f.dbA, acctest.AdminUser())
	acctest.Database(t, f.dbB, acctest.AdminUser())
	t.Cleanup(func() {
		// databases of the owner a failed test left behind
		for _, d := range []string{"1", "2", "3"} {
			acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+acctest.QI(prefix+"_"+d)+" WITH (FORCE)")
		}
	})
	f.a, f.b = clientOn(t, f.dbA, prefix+"_pa"), clientOn(t, f.dbB, prefix+"_pb")
	return f
}

// clientOn is testClient with provider database db.
func clientOn(t *testing.T, db, app string) *Client {
	port, _ := strconv.Atoi(os.Getenv("PGPORT"))
	c := NewClient(pgconn.Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: db, Username: os.Getenv("PGUSER"),
		Password: os.Getenv("PGPASSWORD"), SSLMode: "disable", ConnectTimeout: 10 * time.Second,
		Superuser: os.Getenv("PGSUPERUSER") != "false", ApplicationName: app,
	})
	t.Cleanup(c.Close)
	return c
}

func (f *borrowFixture) createDatabase(ctx context.Context, c *Client, suffix string) error {
	_, err := c.CreateDatabase(ctx, DatabaseSpec{Name: f.prefix + "_" + suffix, DatabaseSettings: DatabaseSettings{Owner: f.owner, AllowConn: true, ConnLimit: -1}})
	return err
}

// createSchema creates schema name owned by the owner in the client's
// database, in a transaction that borrows the owner's privileges.
func (f *borrowFixture) createSchema(ctx context.Context, c *Client, name string) error {
	return c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		return withRoles(ctx, tx, []string{f.owner}, func() error {
			_, err := tx.Exec(ctx, "CREATE SCHEMA "+acctest.QI(name)+" AUTHORIZATION "+acctest.QI(f.owner))
			return err
		})
	})
}

// lasting returns the admin's memberships in the owner that it granted
// itself (on 16+ with their INHERIT and SET options).
func (f *borrowFixture) lasting(t *testing.T) string {
	t.Helper()
	return acctest.QueryString(t, "", `SELECT coalesce(string_agg(concat_ws(' ', 'admin=' || m.admin_option,
  'inherit=' || (to_jsonb(m) ->> 'inherit_option'), 'set=' || (to_jsonb(m) ->> 'set_option')), '; '), 'none')
FROM pg_auth_members m WHERE m.roleid = $1::regrole AND m.member = $2::regrole AND m.grantor = m.member`,
		acctest.QI(f.owner), acctest.QI(acctest.AdminUser()))
}

// wantLasting is what lasting returns once the admin took its membership (a
// superuser takes none).
func wantLasting(t *testing.T) string {
	switch {
	case !acctest.Managed():
		return "none"
	case acctest.ServerMajor(t) >= 16:
		return "admin=false inherit=true set=true"
	}
	return "admin=false"
}

// TestAccBorrow_regressionOtherProcessFinishesFirst: a CREATE DATABASE of one
// process holds the owner's privileges, and a borrower of another process, on
// another database, holds them too (its CREATE DATABASE, or the transaction of
// its CREATE SCHEMA, has not run yet); the first finishes, then the second
// runs, and succeeds. Before the fix the borrower that finished first could
// revoke the membership the other still relied on: the advisory locks that
// counted a membership's users were per database ("must be able to SET
// ROLE", "must be owner of database", TestAccBorrow_regressionRevokedByAnotherProcess
// in package provider). The admin ends holding its one lasting membership.
func TestAccBorrow_regressionOtherProcessFinishesFirst(t *testing.T) {
	f := newBorrowFixture(t, "finish")
	for _, c := range []struct {
		name   string
		second func(ctx context.Context) error
	}{
		{"create database", func(ctx context.Context) error { return f.createDatabase(ctx, f.b, "2") }},
		{"create schema", func(ctx context.Context) error { return f.createSchema(ctx, f.b, "s") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Cleanup(func() { acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+acctest.QI(f.prefix+"_1")+" WITH (FORCE)") })
			errA, errB := finishFirst(t, func(ctx context.Context) error { return f.createDatabase(ctx, f.a, "1") }, c.second)
			if errA != nil {
				t.Fatalf("the first process creating a database: %v", errA)
			}
			if errB != nil {
				t.Fatalf("the second process, relying on the owner's privileges after the first finished: %v", errB)
			}
			if got, want := f.lasting(t), wantLasting(t); got != want {
				t.Errorf("the admin's own memberships in the owner: %s, want %s", got, want)
			}
		})
	}
}

// finishFirst starts first, waits until it holds the borrowed privileges
// (the hook held), starts second and waits likewise, then lets first finish,
// then second; it returns what each returned.
func finishFirst(t *testing.T, first, second func(ctx context.Context) error) (errFirst, errSecond error) {
	t.Helper()
	type party struct {
		holds, goOn chan struct{}
		release     sync.Once
		done        chan error
	}
	var parties []*party
	defer func() { // a failed test lets everyone go on, so that their connections are released
		for _, p := range parties {
			p.release.Do(func() { close(p.goOn) })
		}
	}()
	start := func(run func(ctx context.Context) error) *party {
		p := &party{holds: make(chan struct{}), goOn: make(chan struct{}), done: make(chan error, 1)}
		parties = append(parties, p)
		var once sync.Once
		ctx := withBorrowHooks(context.Background(), borrowHooks{held: func(string) {
			once.Do(func() {
				close(p.holds)
				<-p.goOn
			})
		}})
		go func() { p.done <- run(ctx) }()
		return p
	}
	held := func(p *party, who string) {
		select {
		case <-p.holds:
		case err := <-p.done:
			t.Fatalf("the %s borrower ended before it held the privileges: %v", who, err)
		}
	}
	a := start(first)
	held(a, "first")
	b := start(second)
	held(b, "second")
	a.release.Do(func() { close(a.goOn) })
	errFirst = <-a.done
	b.release.Do(func() { close(b.goOn) })
	return errFirst, <-b.done
}

// TestAccBorrow_checkedBeforeAnotherTook: a borrower has found no membership
// and not acted yet when another process takes the lasting membership; the
// first one's GRANT then changes nothing, and its statement relies on the
// other's membership, which stays. Outside a transaction and inside one (on
// PostgreSQL 15 and older the transaction lends itself the membership: it
// must not give back the one the other process committed).
func TestAccBorrow_checkedBeforeAnotherTook(t *testing.T) {
	f := newBorrowFixture(t, "checked")
	ctx := context.Background()
	took := false
	other := func(suffix string) func(string) {
		return func(string) {
			if took {
				return
			}
			took = true
			if err := f.createDatabase(ctx, f.b, suffix); err != nil {
				t.Errorf("the other process creating a database: %v", err)
			}
		}
	}
	if err := f.createSchema(withBorrowHooks(ctx, borrowHooks{checked: other("2")}), f.a, "s"); err != nil {
		t.Fatalf("creating a schema: %v", err)
	}
	if got, want := f.lasting(t), wantLasting(t); got != want {
		t.Fatalf("after the transaction, the admin's own memberships in the owner: %s, want %s", got, want)
	}
	acctest.AdminExec(t, "", "REVOKE "+acctest.QI(f.owner)+" FROM CURRENT_USER")
	took = false
	if err := f.createDatabase(withBorrowHooks(ctx, borrowHooks{checked: other("3")}), f.a, "1"); err != nil {
		t.Fatalf("creating a database: %v", err)
	}
	if got, want := f.lasting(t), wantLasting(t); got != want {
		t.Fatalf("the admin's own memberships in the owner: %s, want %s", got, want)
	}
}

// TestAccBorrow_grantWaitsForTransaction: a transaction has granted itself
// the membership (lent on 15 and older, lasting on 16+) and holds the
// owner's privileges when another process's CREATE DATABASE borrows them: its
// GRANT waits for the transaction (PostgreSQL's unique index of
// pg_auth_members on 15 and older, its lock on the role on 16+), which then
// commits; both succeed, and the admin ends with one lasting membership.
func TestAccBorrow_grantWaitsForTransaction(t *testing.T) {
	f := newBorrowFixture(t, "waits")
	ctx := context.Background()
	done := make(chan error, 1)
	held := func(string) {
		go func() { done <- f.createDatabase(ctx, f.b, "2") }()
		// the other process's GRANT waits for this transaction
		waitFor(t, done, f.prefix+"_pb", "Lock")
	}
	if err := f.createSchema(withBorrowHooks(ctx, borrowHooks{held: held}), f.a, "s"); err != nil {
		t.Fatalf("creating a schema: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the other process creating a database: %v", err)
	}
	if got, want := f.lasting(t), wantLasting(t); got != want {
		t.Errorf("the admin's own memberships in the owner: %s, want %s", got, want)
	}
}

// waitFor returns once a session of application app waits for an event of
// type event (pg_stat_activity), or fails the test when done says that the
// work of that session ended first.
func waitFor(t *testing.T, done chan error, app, event string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("session %s finished (%v) instead of waiting", app, err)
		default:
		}
		if acctest.QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = $2)", app, event) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %s never waited for an event of type %s", app, event)
}
