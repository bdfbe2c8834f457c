package pg

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// A table given to another role (postgresql_object_owner in the same apply)
// while a policy is created on it or its row-level security changes: the
// managed admin had borrowed the old owner, and the statement failed with
// "must be owner of table" (the long walk, seed 24002 step 1 as the managed
// admin on PostgreSQL 15: a policy created while its table was given away).
// The change is retried as the new owner (asTableOwner). The owner changes
// here at the point where the change holds the borrowed privileges.
func TestAccPolicy_regressionTableGivenAwayMeanwhile(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	schema, o1, o2 := acctest.RandName("pol_gone"), acctest.RandName("pol_o1"), acctest.RandName("pol_o2")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(o1), "CREATE ROLE "+acctest.QI(o2))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP SCHEMA IF EXISTS "+acctest.QI(schema)+" CASCADE",
			"DROP ROLE IF EXISTS "+acctest.QI(o1), "DROP ROLE IF EXISTS "+acctest.QI(o2))
	})
	tbl := acctest.QI(schema) + ".t"
	acctest.Exec(t, "", "CREATE SCHEMA "+acctest.QI(schema), "CREATE TABLE "+tbl+" (id int)",
		"GRANT CREATE, USAGE ON SCHEMA "+acctest.QI(schema)+" TO "+acctest.QI(o1)+", "+acctest.QI(o2),
		"ALTER TABLE "+tbl+" OWNER TO "+acctest.QI(o1))
	giveAway := func(to string) context.Context {
		var once sync.Once
		return withBorrowHooks(context.Background(), borrowHooks{held: func(string) {
			once.Do(func() { acctest.Exec(t, "", "ALTER TABLE "+tbl+" OWNER TO "+acctest.QI(to)) })
		}})
	}
	p, err := c.CreatePolicy(giveAway(o2), "", PolicySpec{Name: "p", Schema: schema, Table: "t", Command: "ALL", Permissive: true, Using: "true"})
	if err != nil {
		t.Fatalf("creating the policy: %v", err)
	}
	if _, err := c.UpdatePolicy(giveAway(o1), "", p.OID, PolicySpec{Name: "q", Schema: schema, Table: "t", Command: "ALL", Permissive: true, Using: "false"}); err != nil {
		t.Fatalf("changing the policy: %v", err)
	}
	if _, err := c.SetTableRLS(giveAway(o2), "", 0, schema, "t", true, true, false); err != nil {
		t.Fatalf("enabling row-level security: %v", err)
	}
	if err := c.DropPolicy(giveAway(o1), "", p.OID, schema, "t", "q"); err != nil {
		t.Fatalf("dropping the policy: %v", err)
	}
	if acctest.QueryBool(t, "", "SELECT exists(SELECT 1 FROM pg_policy WHERE polrelid = $1::regclass)", tbl) {
		t.Error("the policy is still there")
	}
	if !acctest.QueryBool(t, "", "SELECT relrowsecurity AND relforcerowsecurity FROM pg_class WHERE oid = $1::regclass", tbl) {
		t.Error("row-level security is not enabled and forced")
	}
}

// A table given to another role (postgresql_object_owner) while its owner is
// renamed by another resource of the apply (a postgresql_role renaming back
// a role renamed outside Terraform): the old owner, read by its old name,
// was borrowed by a name that no longer existed (nothing borrowed), and
// ALTER TABLE ... OWNER TO failed with "must be owner of table" (the long
// walk, seed 24003 step 23 as the managed admin on PostgreSQL 15). The
// change is retried under the owner's new name (ownerSettled). The rename
// happens here once the new owner, whose name sorts first, has been
// borrowed, before the old one is.
func TestAccObjectOwner_regressionOwnerRenamedMeanwhile(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	schema, newOwner, old := acctest.RandName("oo_ren"), acctest.RandName("oo_a_new"), acctest.RandName("oo_b_old")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(newOwner), "CREATE ROLE "+acctest.QI(old))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP SCHEMA IF EXISTS "+acctest.QI(schema)+" CASCADE",
			"DROP ROLE IF EXISTS "+acctest.QI(newOwner), "DROP ROLE IF EXISTS "+acctest.QI(old), "DROP ROLE IF EXISTS "+acctest.QI(old+"-moved"))
	})
	tbl := acctest.QI(schema) + ".t"
	acctest.Exec(t, "", "CREATE SCHEMA "+acctest.QI(schema), "CREATE TABLE "+tbl+" (id int)",
		"GRANT CREATE, USAGE ON SCHEMA "+acctest.QI(schema)+" TO "+acctest.QI(newOwner),
		"ALTER TABLE "+tbl+" OWNER TO "+acctest.QI(old))
	var once sync.Once
	renamed := false
	ctx := withBorrowHooks(context.Background(), borrowHooks{checked: func(role string) {
		if role == newOwner {
			once.Do(func() {
				acctest.Exec(t, "", "ALTER ROLE "+acctest.QI(old)+" RENAME TO "+acctest.QI(old+"-moved"))
				renamed = true
			})
		}
	}})
	if err := c.SetObjectOwner(ctx, "", ObjectTarget{ObjectType: "table", Schema: schema, Name: "t"}, newOwner); err != nil {
		t.Fatalf("giving the table away: %v", err)
	}
	if !renamed {
		t.Fatal("the old owner was not renamed during the change: the test is not about what it says")
	}
	if got := acctest.QueryString(t, "", "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = $1::regclass", tbl); got != newOwner {
		t.Errorf("the table is owned by %q, want %q", got, newOwner)
	}
}

// A database the managed admin cannot connect to (PUBLIC's CONNECT taken
// away, the admin neither its owner nor a holder of the owner's privileges),
// owned by a role it cannot take (a role made by a superuser, on 16+ where
// CREATEROLE alone does not let it grant itself that role): the error says
// why and what to do. On 15 and older CREATEROLE grants any non-superuser
// role: a read says the next write will take the owner's privileges.
func TestAccClient_noConnectExplained(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	owner, db := acctest.RandName("nc_owner"), acctest.RandName("nc_db")
	acctest.Exec(t, "", "CREATE ROLE "+acctest.QI(owner))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(owner)) })
	acctest.Database(t, db, owner)
	acctest.Exec(t, "", "REVOKE CONNECT ON DATABASE "+acctest.QI(db)+" FROM PUBLIC")
	_, err := c.ReadSchema(context.Background(), db, 0, "public")
	v16 := acctest.QueryBool(t, "", "SELECT current_setting('server_version_num')::int >= 160000")
	want := "which it cannot take; grant it CONNECT on the database"
	if !v16 {
		want = "the next change the provider makes in that database takes them"
	}
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "managed-services guide") {
		t.Fatalf("reading a schema of a database the admin cannot connect to: %v, want the explanation (%q)", err, want)
	}
	if !v16 {
		return
	}
	err = c.CreateSchema(context.Background(), db, SchemaSpec{Name: "s"}, false)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("creating a schema in a database the admin cannot connect to: %v, want the explanation (%q)", err, want)
	}
}

// A database given outside Terraform to a role whose privileges the managed
// admin does not hold, while PUBLIC has no CONNECT on it: the admin reached
// it through the old owner's privileges, and could no longer connect
// ("permission denied for database"; the long walk, seeds 26008 and 26508,
// both as the managed admin, on 15 and 18). A read (plan, refresh) changes
// nothing: it says that the next write takes the owner's privileges, and
// IsLendableNoConnect tells it, for the refresh to keep the state. A write
// takes them (a lasting membership, as every borrowing outside a
// transaction) and connects.
func TestAccClient_regressionDatabaseGivenAwayWithoutPublicConnect(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	o1, o2, db := acctest.RandName("ncg_o1"), acctest.RandName("ncg_o2"), acctest.RandName("ncg_db")
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(o1), "CREATE ROLE "+acctest.QI(o2))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(o1), "DROP ROLE IF EXISTS "+acctest.QI(o2))
	})
	acctest.Database(t, db, o1)
	acctest.Exec(t, "", "REVOKE CONNECT, TEMPORARY ON DATABASE "+acctest.QI(db)+" FROM PUBLIC")
	acctest.AdminExec(t, "", "GRANT "+acctest.QI(o1)+" TO CURRENT_USER") // as the provider borrows it
	ctx := context.Background()
	if _, err := c.ReadSchema(ctx, db, 0, "public"); err != nil {
		t.Fatalf("reading through the owner's privileges: %v", err)
	}
	acctest.Exec(t, "", "ALTER DATABASE "+acctest.QI(db)+" OWNER TO "+acctest.QI(o2))
	c.ClosePool(db)
	_, err := c.ReadSchema(ctx, db, 0, "public")
	if !pgconn.IsLendableNoConnect(err) || !strings.Contains(err.Error(), "the next change the provider makes in that database takes them") {
		t.Fatalf("reading once the database was given away: %v, want a read refused that the next write overcomes", err)
	}
	if acctest.QueryBool(t, "", "SELECT pg_has_role($1, $2, 'USAGE')", acctest.AdminUser(), o2) {
		t.Fatal("the read took the new owner's privileges: a read must change nothing")
	}
	if err := c.CreateSchema(ctx, db, SchemaSpec{Name: "s", Owner: o2}, false); err != nil {
		t.Fatalf("creating a schema once the database was given away: %v", err)
	}
	if _, err := c.ReadSchema(ctx, db, 0, "s"); err != nil {
		t.Fatalf("reading after the write took the owner's privileges: %v", err)
	}
}

// A database given back to the managed admin while its owner, given it by
// drift, is renamed by its postgresql_role in the same apply: the owner read
// before the change was borrowed by a name that no longer existed (nothing
// borrowed), and ALTER DATABASE ... OWNER TO failed with "must be owner of
// database" (the long walk, seed 29005 step 2 as the managed admin on
// PostgreSQL 15). The owner is now read by OID in the change's transaction,
// and the change is retried when it was renamed meanwhile (ownerSettled). The
// rename lands here once the admin's own role, whose name sorts first, has
// been checked, before the owner is.
func TestAccUpdateDatabase_regressionOwnerRenamedMeanwhile(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	old, db := acctest.RandName("udb_z_old"), acctest.RandName("udb_db")
	if acctest.AdminUser() > old {
		t.Skipf("the admin's name %q sorts after %q: the rename would land too late", acctest.AdminUser(), old)
	}
	acctest.AdminExec(t, "", "CREATE ROLE "+acctest.QI(old))
	t.Cleanup(func() {
		acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(old), "DROP ROLE IF EXISTS "+acctest.QI(old+"-moved"))
	})
	acctest.Database(t, db, old)
	cur, err := c.ReadDatabase(context.Background(), db)
	if err != nil || cur == nil {
		t.Fatalf("reading database %s: %v", db, err)
	}
	var once sync.Once
	renamed := false
	ctx := withBorrowHooks(context.Background(), borrowHooks{checked: func(role string) {
		if role == acctest.AdminUser() {
			once.Do(func() {
				acctest.Exec(t, "", "ALTER ROLE "+acctest.QI(old)+" RENAME TO "+acctest.QI(old+"-moved"))
				renamed = true
			})
		}
	}})
	spec := DatabaseSpec{Name: db, DatabaseSettings: cur.DatabaseSettings}
	spec.Owner = acctest.AdminUser()
	if err := c.UpdateDatabase(ctx, db, cur, spec, false); err != nil {
		t.Fatalf("giving the database back: %v", err)
	}
	if !renamed {
		t.Fatal("the owner was not renamed during the change: the test is not about what it says")
	}
	if got := acctest.QueryString(t, "", "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", db); got != acctest.AdminUser() {
		t.Errorf("database %s is owned by %q, want %q", db, got, acctest.AdminUser())
	}
}
