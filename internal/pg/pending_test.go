package pg

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// Unit tests of the registry of names created in the same apply (pending.go):
// no server; existence is a set the test controls, and the limits are short.

var testLimits = pendingLimits{
	announcedFor: 400 * time.Millisecond,
	graceAfter:   300 * time.Millisecond,
	idleWaitMax:  2 * time.Second,
	creatingMax:  2 * time.Second,
	pollEvery:    20 * time.Millisecond,
}

// catalog is what exists, for await's exists, counting the lookups.
type catalog struct {
	mu      sync.Mutex
	names   map[plannedName]bool
	lookups int
}

func (c *catalog) add(r Ref) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names[r.key()] = true
}

func (c *catalog) exists(_ context.Context, r Ref) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lookups++
	return c.names[r.key()], nil
}

func newTestPending() (*pending, *catalog) {
	return newPending(time.Now, testLimits), &catalog{names: map[plannedName]bool{}}
}

// create runs a create of r that takes d, as a write of the provider does
// (BeginCreates, then the statement, then the end), and returns at once.
func create(p *pending, cat *catalog, r Ref, d time.Duration, ok bool) {
	done := p.begin([]Ref{r}, nil)
	go func() {
		time.Sleep(d)
		if ok {
			cat.add(r)
		}
		done(ok)
	}()
}

func notFoundNote(t *testing.T, err error) string {
	t.Helper()
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("want a *NotFoundError, got %T: %v", err, err)
	}
	return nf.Error()
}

// A name nothing is creating, with nothing of its kind being created (a
// typo): no wait, no query.
func TestPending_typoNothingCreatedNoWait(t *testing.T) {
	p, cat := newTestPending()
	start := time.Now()
	if err := p.await(context.Background(), []Ref{RoleRef("role", "typo")}, nil, cat.exists); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 50*time.Millisecond || cat.lookups != 0 {
		t.Fatalf("want no wait and no lookup, waited %s with %d lookups", d, cat.lookups)
	}
}

// A write that needs a role another write of the instance is creating waits
// for that create, and goes on when it is done.
func TestPending_waitsForCreateInFlight(t *testing.T) {
	p, cat := newTestPending()
	r := RoleRef("role", "app")
	create(p, cat, r, 200*time.Millisecond, true)
	start := time.Now()
	if err := p.await(context.Background(), []Ref{r}, nil, cat.exists); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("returned after %s, before the create ended", d)
	}
}

// A create announced by a plan (Terraform plans a resource again right
// before applying it) is waited for to begin, then to end.
func TestPending_waitsForAnnouncedCreate(t *testing.T) {
	p, cat := newTestPending()
	r := SchemaRef("schema", "db", "app")
	p.announce(r.key())
	go func() {
		time.Sleep(100 * time.Millisecond)
		create(p, cat, r, 100*time.Millisecond, true)
	}()
	if err := p.await(context.Background(), []Ref{r}, nil, cat.exists); err != nil {
		t.Fatal(err)
	}
	if ok, _ := cat.exists(context.Background(), r); !ok {
		t.Fatal("returned before the schema existed")
	}
}

// While roles are being created, a missing role nothing announced yet is
// waited for (its create may reach the provider a moment later); a typo
// among them fails once the creates are over, saying what was waited for.
func TestPending_graceWhileOthersCreated(t *testing.T) {
	p, cat := newTestPending()
	other, late := RoleRef("role", "other"), RoleRef("role", "late")
	create(p, cat, other, 150*time.Millisecond, true)
	go func() {
		time.Sleep(60 * time.Millisecond)
		create(p, cat, late, 50*time.Millisecond, true)
	}()
	if err := p.await(context.Background(), []Ref{late}, nil, cat.exists); err != nil {
		t.Fatalf("late: %v", err)
	}
	create(p, cat, other, 100*time.Millisecond, true)
	start := time.Now()
	err := p.await(context.Background(), []Ref{RoleRef("role", "typo")}, nil, cat.exists)
	d := time.Since(start)
	msg := notFoundNote(t, err)
	for _, want := range []string{`role "typo" does not exist`, "waited", "no create of it began", "creating roles"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("want %q in %q", want, msg)
		}
	}
	if d > testLimits.idleWaitMax {
		t.Fatalf("waited %s, more than the bound", d)
	}
}

// A write that creates a schema owned by a role created in the same apply
// (named by a string) may reach the provider before the plan of the role's
// create announces it (issue 41, round 3 of 20 after the merge): while
// anything is being created, even of another kind (here the schema itself),
// the missing role is waited for. A typo then fails once the grace is over.
func TestPending_graceWhileOtherKindsCreated(t *testing.T) {
	p, cat := newTestPending()
	schema, owner := SchemaRef("name", "db", "s"), RoleRef("owner", "owner")
	done := p.begin([]Ref{schema}, []Ref{owner})
	go func() {
		time.Sleep(80 * time.Millisecond)
		p.announce(owner.key())
		time.Sleep(20 * time.Millisecond)
		create(p, cat, owner, 50*time.Millisecond, true)
	}()
	if err := p.await(context.Background(), []Ref{owner}, []Ref{schema}, cat.exists); err != nil {
		t.Fatalf("owner: %v", err)
	}
	if ok, _ := cat.exists(context.Background(), owner); !ok {
		t.Fatal("returned before the role existed")
	}
	done(true)

	p2, cat2 := newTestPending()
	done = p2.begin([]Ref{schema}, nil)
	defer done(true)
	start := time.Now()
	err := p2.await(context.Background(), []Ref{RoleRef("owner", "typo")}, []Ref{schema}, cat2.exists)
	msg := notFoundNote(t, err)
	for _, want := range []string{`role "typo" does not exist`, "waited", "no create of it began", "creating roles, databases or schemas"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("want %q in %q", want, msg)
		}
	}
	if d := time.Since(start); d > 2*testLimits.graceAfter {
		t.Fatalf("a typo in the owner of a schema waited %s: its own create counts only for the grace", d)
	}
}

// A create that fails: the writes waiting for it fail at once, saying so.
func TestPending_failedCreate(t *testing.T) {
	p, cat := newTestPending()
	r := DatabaseRef("database", "app")
	create(p, cat, r, 100*time.Millisecond, false)
	msg := notFoundNote(t, p.await(context.Background(), []Ref{r}, nil, cat.exists))
	if !strings.Contains(msg, "this apply's create of it failed") {
		t.Fatalf("got %q", msg)
	}
}

// An announced create that never begins is waited for a bounded time.
func TestPending_announcedNeverBegins(t *testing.T) {
	p, cat := newTestPending()
	r := RoleRef("role", "planned")
	p.announce(r.key())
	start := time.Now()
	msg := notFoundNote(t, p.await(context.Background(), []Ref{r}, nil, cat.exists))
	if d := time.Since(start); d > testLimits.announcedFor+testLimits.idleWaitMax {
		t.Fatalf("waited %s", d)
	}
	if !strings.Contains(msg, "did not begin within") {
		t.Fatalf("got %q", msg)
	}
}

// Creates that wait for each other in a circle fail at once rather than
// time out.
func TestPending_cycle(t *testing.T) {
	p, cat := newTestPending()
	a, b := RoleRef("roles", "a"), RoleRef("roles", "b")
	doneA := p.begin([]Ref{a}, []Ref{b})
	defer doneA(false)
	doneB := p.begin([]Ref{b}, []Ref{a})
	defer doneB(false)
	start := time.Now()
	msg := notFoundNote(t, p.await(context.Background(), []Ref{a}, []Ref{b}, cat.exists))
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("waited %s for a circle", d)
	}
	if !strings.Contains(msg, "circle") {
		t.Fatalf("got %q", msg)
	}
}

// A create in flight that outlasts the bound: the wait ends, saying so.
func TestPending_creatingBound(t *testing.T) {
	p, cat := newTestPending()
	p.limits.creatingMax = 200 * time.Millisecond
	r := RoleRef("role", "slow")
	done := p.begin([]Ref{r}, nil)
	defer done(true)
	msg := notFoundNote(t, p.await(context.Background(), []Ref{r}, nil, cat.exists))
	if !strings.Contains(msg, "still running") {
		t.Fatalf("got %q", msg)
	}
}

// A cancelled context (Ctrl-C) ends the wait.
func TestPending_cancelled(t *testing.T) {
	p, cat := newTestPending()
	r := RoleRef("role", "slow")
	done := p.begin([]Ref{r}, nil)
	defer done(true)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := p.await(ctx, []Ref{r}, nil, cat.exists); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
}

// A name that exists while others are being created costs one lookup and
// no wait; a schema waits for its database's create first.
func TestPending_existingAndSchemaOfNewDatabase(t *testing.T) {
	p, cat := newTestPending()
	existing := RoleRef("role", "there")
	cat.add(existing)
	create(p, cat, RoleRef("role", "new"), 200*time.Millisecond, true)
	start := time.Now()
	if err := p.await(context.Background(), []Ref{existing}, nil, cat.exists); err != nil || time.Since(start) > 100*time.Millisecond || cat.lookups != 1 {
		t.Fatalf("existing role: err %v, %s, %d lookups", err, time.Since(start), cat.lookups)
	}
	db := DatabaseRef("database", "newdb")
	sch := SchemaRef("schema", "newdb", "public")
	done := p.begin([]Ref{db}, nil)
	go func() {
		time.Sleep(100 * time.Millisecond)
		cat.add(db)
		cat.add(sch) // a new database has its public schema
		done(true)
	}()
	if err := p.await(context.Background(), []Ref{db, sch}, nil, cat.exists); err != nil {
		t.Fatal(err)
	}
}

// A nil registry (a client without one) waits for nothing.
func TestPending_nil(t *testing.T) {
	var p *pending
	p.announce(plannedName{KindRole, "", "x"})
	p.begin([]Ref{RoleRef("", "x")}, nil)(true)
	if err := p.await(context.Background(), []Ref{RoleRef("", "x")}, nil, nil); err != nil {
		t.Fatal(err)
	}
}
