package pg

import (
	"maps"
	"slices"
	"sync"
	"testing"
	"time"
)

// A retraction sees what was claimed before it, and waits for a claim in
// progress; a retraction before any claim sees nothing.
func TestClaims(t *testing.T) {
	c := &Client{claims: &claims{}}
	key := GrantTarget{Database: "d", Schema: "s", ObjectType: ObjTable, Grantee: "PUBLIC"}.FactKey()
	if got, release := c.Retract(key); len(got) != 0 {
		t.Fatalf("retract before any claim: %v", got)
	} else {
		release()
	}
	c.Claim(key, "a", "b")()
	got, release := c.Retract(GrantTarget{Database: "d", Schema: "s", ObjectType: ObjTable, Grantee: "public"}.FactKey())
	release()
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{"a", "b"}) {
		t.Fatalf("claimed parts: %v", keys)
	}
	if got, release := c.Retract(FactKey("other")); len(got) != 0 {
		t.Fatalf("another fact: %v", got)
	} else {
		release()
	}

	// a claim holds the fact while it writes: the retraction waits for it
	k2 := MembershipFactKey("m", "g")
	release2 := c.Claim(k2)
	var wg sync.WaitGroup
	var seen map[string]bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		var rel func()
		seen, rel = c.Retract(k2)
		rel()
	}()
	time.Sleep(20 * time.Millisecond)
	release2()
	wg.Wait()
	if !seen[ClaimAll] {
		t.Fatalf("the retraction did not see the claim: %v", seen)
	}

	// a client view without claims (a zero Client) claims nothing
	var zero Client
	zero.Claim(k2)()
	if got, rel := zero.Retract(k2); len(got) != 0 {
		t.Fatal(got)
	} else {
		rel()
	}
}

func TestGrantTargetFactParts(t *testing.T) {
	for _, tc := range []struct {
		t    GrantTarget
		want []string
	}{
		{GrantTarget{ObjectType: ObjTable}, []string{ClaimAll}},
		{GrantTarget{ObjectType: ObjTable, Objects: []string{"a", "b"}}, []string{"a", "b"}},
		{GrantTarget{ObjectType: ObjColumn, Objects: []string{"a"}, Columns: []string{"x", "y"}}, []string{"a\x00x", "a\x00y"}},
	} {
		if got := tc.t.FactParts(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.t, got, tc.want)
		}
	}
	if (DefaultPrivilegesTarget{ObjectType: ObjRoutine}).FactKey() != (DefaultPrivilegesTarget{ObjectType: ObjFunction}).FactKey() {
		t.Error("routines and functions are one kind of default privileges")
	}
}

// Two moves between the same two facts in opposite directions (two grants
// exchanging their grantees in one apply) both finish: ClaimMove takes the
// two facts in one order. (A Claim of the new fact, then a Retract of the
// old one, as the grants did, waited forever once the two writes overlapped.)
func TestClaims_regressionMovesInOppositeDirections(t *testing.T) {
	c := &Client{claims: &claims{}}
	a := GrantTarget{Database: "d", Schema: "s", ObjectType: ObjTable, Grantee: "alice"}.FactKey()
	b := GrantTarget{Database: "d", Schema: "s", ObjectType: ObjTable, Grantee: "bob"}.FactKey()
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, release := c.ClaimMove(a, []string{"t"}, b)
				time.Sleep(time.Millisecond) // the write
				release()
			}()
			go func() {
				defer wg.Done()
				_, release := c.ClaimMove(b, []string{"t"}, a)
				time.Sleep(time.Millisecond)
				release()
			}()
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("two opposite moves wait for each other")
	}
	// the move to a saw the claim of the move to b, or the other way round
	claimed, release := c.Retract(a)
	release()
	if !claimed["t"] {
		t.Fatalf("claims of a: %v", claimed)
	}
	_, release = c.ClaimMove(a, nil, a)
	release()
}

// A policy block removed from postgresql_schema revokes what no other
// resource of the apply states for its role (claimSchemaGrants).
func TestRevokedSchemaPrivileges(t *testing.T) {
	for _, tc := range []struct {
		kept  []string
		privs string
		ok    bool
	}{
		{nil, "ALL", true},
		{[]string{ClaimAll}, "", false},
		{[]string{"USAGE"}, "CREATE", true},
		{[]string{"create"}, "USAGE", true},
		{[]string{"USAGE", "CREATE"}, "", false},
	} {
		privs, ok := revokedSchemaPrivileges(tc.kept)
		if privs != tc.privs || ok != tc.ok {
			t.Errorf("revokedSchemaPrivileges(%v) = %q, %v, want %q, %v", tc.kept, privs, ok, tc.privs, tc.ok)
		}
	}
}

// The claims of a schema's policy blocks are the facts of grants of
// object_type schema: a grant to PUBLIC retracting after a PUBLIC block
// claimed leaves it all, and a removed block's retraction learns the
// privileges an additive grant claims.
func TestClaimSchemaGrants(t *testing.T) {
	c := &Client{claims: &claims{}}
	_, release := c.claimSchemaGrants("db", "s", nil, []SchemaGrant{{Usage: true}})
	release()
	pub := GrantTarget{Database: "db", Schema: "s", ObjectType: ObjSchema, Grantee: "PUBLIC"}
	claimed, release := c.Retract(pub.FactKey())
	release()
	if !claimed[ClaimAll] {
		t.Errorf("a grant to PUBLIC retracting learnt %v, want the whole fact", claimed)
	}
	add := GrantTarget{Database: "db", Schema: "s", ObjectType: ObjSchema, Grantee: "r"}
	c.Claim(add.FactKey(), AdditiveParts(add.FactParts(), []string{"USAGE"}, false)...)()
	kept, release := c.claimSchemaGrants("db", "s", []SchemaGrant{{Role: "r", Usage: true, Create: true}, {Role: "q"}}, nil)
	release()
	if !slices.Equal(kept["r"], []string{"USAGE"}) || len(kept["q"]) != 0 {
		t.Errorf("kept = %v, want r: USAGE", kept)
	}
}
