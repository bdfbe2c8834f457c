package pg

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
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
// away, the admin neither its owner nor a holder of the owner's privileges):
// the error says why and what to do (the long walk, seeds 26008 and 26508: a
// known limitation, the managed-services guide).
func TestAccClient_noConnectExplained(t *testing.T) {
	c := testClient(t, 5, "")
	managedOnly(t)
	owner, db := acctest.RandName("nc_owner"), acctest.RandName("nc_db")
	acctest.Exec(t, "", "CREATE ROLE "+acctest.QI(owner))
	t.Cleanup(func() { acctest.Exec(t, "", "DROP ROLE IF EXISTS "+acctest.QI(owner)) })
	acctest.Database(t, db, owner)
	acctest.Exec(t, "", "REVOKE CONNECT ON DATABASE "+acctest.QI(db)+" FROM PUBLIC")
	_, err := c.ReadSchema(context.Background(), db, 0, "public")
	if err == nil || !strings.Contains(err.Error(), "has no CONNECT on database") || !strings.Contains(err.Error(), "managed-services guide") {
		t.Fatalf("reading a schema of a database the admin cannot connect to: %v, want the explanation", err)
	}
}
