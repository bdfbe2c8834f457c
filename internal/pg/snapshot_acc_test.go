package pg

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// snapshotRoles creates n roles named prefix_<i> as the admin (which may then
// alter them in both admin modes) and drops them at the end.
func snapshotRoles(t *testing.T, prefix string, n int) []string {
	t.Helper()
	var names []string
	for i := range n {
		names = append(names, prefix+"_"+string(rune('a'+i)))
	}
	for _, name := range names {
		acctest.AdminExec(t, "", "CREATE ROLE "+pgconn.QuoteIdent(name)+" CONNECTION LIMIT 1")
	}
	t.Cleanup(func() {
		for _, name := range names {
			acctest.AdminExec(t, "", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(name))
		}
	})
	return names
}

func connLimit(t *testing.T, c *Client, name string) int64 {
	t.Helper()
	r, err := c.ReadRole(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if r == nil {
		return -2
	}
	return r.ConnLimit
}

// Reads after the first few of a kind come from one snapshot (no query each),
// and a change made by this process (any client of it) is read fresh: a
// snapshot never serves what the provider itself changed.
func TestAccSnapshot_servesReadsAndSeesOwnWrites(t *testing.T) {
	base := testClient(t, 0, "")
	c := base.WithSnapshot()
	names := snapshotRoles(t, acctest.RandName("snap"), 4)
	for _, n := range names {
		if got := connLimit(t, c, n); got != 1 {
			t.Fatalf("role %s: connection limit %d, want 1", n, got)
		}
	}
	if c.snap.entries[snapshotKey{"", "roles"}] == nil {
		t.Fatal("no role snapshot after 4 reads")
	}

	// A change outside the process (between two Terraform commands) ...
	acctest.Exec(t, "", "ALTER ROLE "+pgconn.QuoteIdent(names[0])+" CONNECTION LIMIT 5")
	// ... a new instance (the next command) sees it at once,
	if got := connLimit(t, base.WithSnapshot(), names[0]); got != 5 {
		t.Fatalf("a new instance read %d, want 5", got)
	}
	// ... and a snapshot older than snapshotMaxAge is loaded again.
	c.snap.now = func() time.Time { return time.Now().Add(snapshotMaxAge) }
	if got := connLimit(t, c, names[0]); got != 5 {
		t.Fatalf("after snapshotMaxAge the snapshot was not loaded again: got %d, want 5", got)
	}

	// A write through another client of the process makes the snapshot stale.
	c2 := base.WithSnapshot()
	for range 3 {
		connLimit(t, c2, names[1])
	}
	if err := base.Tx(context.Background(), "", func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "ALTER ROLE "+pgconn.QuoteIdent(names[1])+" CONNECTION LIMIT 7")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := connLimit(t, c2, names[1]); got != 7 {
		t.Fatalf("after a write of the process: got %d, want 7", got)
	}

	// A client that wrote reads from the server from then on (an apply).
	if err := c2.Tx(context.Background(), "", func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "ALTER ROLE "+pgconn.QuoteIdent(names[2])+" CONNECTION LIMIT 9")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	acctest.Exec(t, "", "ALTER ROLE "+pgconn.QuoteIdent(names[3])+" CONNECTION LIMIT 11")
	if got := connLimit(t, c2, names[3]); got != 11 {
		t.Fatalf("a client that wrote must read from the server: got %d, want 11", got)
	}

	// A role dropped is gone from the next snapshot; by OID too.
	r, _ := base.ReadRole(context.Background(), names[2])
	acctest.Exec(t, "", "DROP ROLE "+pgconn.QuoteIdent(names[2]))
	c3 := base.WithSnapshot()
	for range 3 {
		connLimit(t, c3, names[0])
	}
	if got, err := c3.ReadRoleByOID(context.Background(), r.OID); err != nil || got != nil {
		t.Fatalf("dropped role read by OID: %+v, %v", got, err)
	}
}

// Schemas come from a snapshot per database, with their privileges, the same
// as read one by one.
func TestAccSnapshot_schemasMatchDirectReads(t *testing.T) {
	base := testClient(t, 0, "")
	grantee := snapshotRoles(t, acctest.RandName("snapg"), 1)[0] // dropped after the database (cleanups run last first)
	db := acctest.RandName("snapdb")
	acctest.Database(t, db, acctest.AdminUser())
	acctest.Exec(t, db, "CREATE SCHEMA s1", "CREATE SCHEMA s2", "CREATE SCHEMA s3",
		"GRANT USAGE ON SCHEMA s1 TO PUBLIC", "GRANT CREATE ON SCHEMA s2 TO "+pgconn.QuoteIdent(grantee)+" WITH GRANT OPTION")
	ctx := context.Background()
	c := base.WithSnapshot()
	for range 3 { // the third read loads the snapshot
		if _, err := c.ReadSchema(ctx, db, 0, "public"); err != nil {
			t.Fatal(err)
		}
	}
	if c.snap.entries[snapshotKey{db, "schemas"}] == nil {
		t.Fatal("no schema snapshot")
	}
	for _, name := range []string{"s1", "s2", "s3", "public", "missing"} {
		direct, err := base.ReadSchema(ctx, db, 0, name)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := c.ReadSchema(ctx, db, 0, name)
		if err != nil {
			t.Fatal(err)
		}
		if (direct == nil) != (snap == nil) || (direct != nil && (direct.OID != snap.OID || direct.Owner != snap.Owner || len(direct.Grants) != len(snap.Grants))) {
			t.Fatalf("schema %s: snapshot %+v, direct %+v", name, snap, direct)
		}
		if direct != nil {
			for k, g := range direct.Grants {
				if snap.Grants[k] != g {
					t.Fatalf("schema %s grantee %q: snapshot %+v, direct %+v", name, k, snap.Grants[k], g)
				}
			}
			// by OID, and a stale OID falls back to the name
			if byOID, _ := c.ReadSchema(ctx, db, direct.OID, "ignored"); byOID == nil || byOID.Name != name {
				t.Fatalf("schema %s by OID: %+v", name, byOID)
			}
			if byName, _ := c.ReadSchema(ctx, db, 1, name); byName == nil || byName.OID != direct.OID {
				t.Fatalf("schema %s by a stale OID: %+v", name, byName)
			}
		}
	}
	if s, _ := base.ReadSchema(ctx, db, 1, "s1"); s == nil || s.Name != "s1" {
		t.Fatalf("direct read by a stale OID: %+v", s)
	}

	// grants on schemas, tables and sequences read from the snapshots of ACLs
	// are the same as read one by one
	acctest.Exec(t, db, "CREATE TABLE s1.t1 (a int)", "CREATE VIEW s1.v1 AS SELECT 1 AS a", "CREATE SEQUENCE s1.q1",
		"GRANT SELECT, UPDATE ON s1.t1 TO "+pgconn.QuoteIdent(grantee)+" WITH GRANT OPTION", "GRANT SELECT ON s1.v1 TO PUBLIC",
		"GRANT USAGE ON SEQUENCE s1.q1 TO "+pgconn.QuoteIdent(grantee))
	targets := []GrantTarget{}
	for _, schema := range []string{"s1", "s2", "s3", "public", "missing"} {
		targets = append(targets, GrantTarget{Schema: schema, ObjectType: ObjSchema},
			GrantTarget{Schema: schema, ObjectType: ObjTable}, GrantTarget{Schema: schema, ObjectType: ObjSequence})
	}
	targets = append(targets, GrantTarget{Schema: "s1", ObjectType: ObjTable, Objects: []string{"v1"}},
		GrantTarget{Schema: "s1", ObjectType: ObjTable, Objects: []string{"t1", "missing"}},
		GrantTarget{Schema: "s1", ObjectType: ObjSequence, Objects: []string{"q1"}})
	for _, kind := range []string{ObjSchema, ObjTable, ObjSequence} {
		for range 5 { // the role snapshot first (third read), then the ACL one (third read of it)
			if _, err := c.ReadGrant(ctx, GrantTarget{Database: db, Schema: "public", ObjectType: kind, Grantee: grantee}); err != nil {
				t.Fatal(err)
			}
		}
		if c.snap.entries[snapshotKey{db, kind + "-acls"}] == nil {
			t.Fatalf("no %s ACL snapshot", kind)
		}
	}
	for _, target := range targets {
		for _, g := range []string{grantee, "PUBLIC", acctest.AdminUser(), "no_such_role"} {
			target.Database, target.Grantee = db, g
			direct, err := base.ReadGrant(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := c.ReadGrant(ctx, target)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", direct) != fmt.Sprintf("%+v", snap) {
				t.Fatalf("grant on %s %s %v to %s: snapshot %+v, direct %+v", target.ObjectType, target.Schema, target.Objects, g, snap, direct)
			}
		}
	}
}

// Concurrent reads share a few connections, and concurrent reads of a kind
// that miss the snapshot wait for one load of it (a refresh at Terraform's
// parallelism opens pgconn.ReadConcurrency connections, not one per read).
func TestAccSnapshot_concurrentReadsLoadOnceOnFewConnections(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	wait := pgconn.WithReadSlotWait(time.Minute) // no read goes ahead on a connection of its own
	names := snapshotRoles(t, acctest.RandName("snapc"), 2)
	ctx := context.Background()
	// concurrent runs n times read at once
	concurrent := func(n int, read func(i int) error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make(chan error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- read(i)
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	readRole := func(c *Client) func(i int) error {
		return func(i int) error {
			r, err := c.ReadRole(ctx, names[i%2])
			if err == nil && r == nil {
				err = fmt.Errorf("role %s not found", names[i%2])
			}
			return err
		}
	}

	// without snapshots: every read goes to the server, on pgconn.ReadConcurrency connections
	plain := testClient(t, 20, "", wait) // the provider's default max_connections
	concurrent(20, readRole(plain))
	if got := plain.ConnectionsOpened(); got < 1 || got > pgconn.ReadConcurrency {
		t.Fatalf("20 concurrent reads opened %d connections, want 1 to %d", got, pgconn.ReadConcurrency)
	}

	// with snapshots: the reads past the first few load each snapshot once
	base := testClient(t, 20, "", wait)
	c := base.WithSnapshot()
	concurrent(20, func(i int) error {
		if i%2 == 0 {
			_, err := c.XactPosition(ctx)
			return err
		}
		return readRole(c)(i)
	})
	for _, kind := range []string{"roles", "xact-position"} {
		if got := c.snap.loads[snapshotKey{"", kind}]; got != 1 {
			t.Errorf("10 concurrent reads of %s loaded its snapshot %d times, want 1", kind, got)
		}
	}
	if got := base.ConnectionsOpened(); got < 1 || got > pgconn.ReadConcurrency {
		t.Fatalf("20 concurrent reads with snapshots opened %d connections, want 1 to %d", got, pgconn.ReadConcurrency)
	}
	// and a password verifier from the snapshot of them is what the server has
	if ok, _ := base.Superuser(ctx); ok {
		direct, err := base.RolePasswordVerifier(ctx, acctest.AdminUser())
		if err != nil {
			t.Fatal(err)
		}
		for range snapshotAfter + 1 {
			if v, err := c.RolePasswordVerifier(ctx, acctest.AdminUser()); err != nil || v != direct {
				t.Fatalf("verifier from the snapshot: %q, %v; want %q", v, err, direct)
			}
		}
		if c.snap.loads[snapshotKey{"", "role-passwords"}] != 1 {
			t.Fatal("no snapshot of password verifiers")
		}
	}
}
