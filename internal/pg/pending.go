package pg

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Names created in the same apply, referenced as plain strings.
//
// Modules often name a role, database or schema by a string (`owner =
// each.value.role`) rather than by a reference, so Terraform knows no edge
// between the resource creating it and the one naming it, and runs both at
// once. Each provider instance (one per Terraform command: WithSnapshot)
// keeps a registry of the roles, databases and schemas its plans and writes
// bring into being: a plan announces them (NotePlanned; in an apply,
// Terraform plans each resource again right before applying it), a write
// marks them being created while it runs (BeginCreates), and a write that
// needs one that does not exist yet waits for it (AwaitNames), for a bounded
// time, instead of failing. A name nothing in this instance is creating
// (a typo) is not waited for.

// Ref names a role, database or schema that a write needs or brings into
// being.
type Ref struct {
	Kind string // KindRole, KindDatabase, KindSchema
	DB   string // the database of a schema
	Name string
	// Attr is the argument of the resource that names it (errors are
	// attached to it); "" for none.
	Attr string
}

// RoleRef is role name, named by argument attr.
func RoleRef(attr, name string) Ref { return Ref{Kind: KindRole, Name: name, Attr: attr} }

// DatabaseRef is database name, named by argument attr.
func DatabaseRef(attr, name string) Ref { return Ref{Kind: KindDatabase, Name: name, Attr: attr} }

// SchemaRef is schema name in database db, named by argument attr.
func SchemaRef(attr, db, name string) Ref {
	return Ref{Kind: KindSchema, DB: db, Name: name, Attr: attr}
}

func (r Ref) key() plannedName { return plannedName{r.Kind, r.DB, r.Name} }

func (r Ref) String() string {
	s := r.Kind + " " + pgconn.QuoteIdent(r.Name)
	if r.Kind == KindSchema {
		s += " in database " + pgconn.QuoteIdent(r.DB)
	}
	return s
}

// Limits of the waits (pendingLimits): package variables of no caller's
// choosing; tests of the registry make their own.
const (
	// announcedFor is how long an announced create (a plan of this instance
	// creates the name) is waited for to begin. In an apply, Terraform plans
	// a resource again and applies it at once, so the create follows its
	// announcement within milliseconds.
	announcedFor = 10 * time.Second
	// graceAfter is how long a missing name nothing has announced is waited
	// for after the last create (or announcement) of a role, database or
	// schema began or ended:
	// Terraform starts every operation that is ready within milliseconds, so
	// the create of a name referenced only by a string may reach the
	// provider just after the write that names it.
	graceAfter = 2 * time.Second
	// idleWaitMax bounds that wait, however long creates of its kind go on.
	idleWaitMax = 2 * time.Minute
	// creatingMax bounds the wait for a create that has begun (CREATE
	// DATABASE copies its template, and may wait for a lock).
	creatingMax = 5 * time.Minute
	// pollEvery is how often a wait for a name nothing announced looks
	// in the catalog (something else, a script, may create it).
	pollEvery = 250 * time.Millisecond
)

type pendingLimits struct {
	announcedFor, graceAfter, idleWaitMax, creatingMax, pollEvery time.Duration
}

var defaultPendingLimits = pendingLimits{announcedFor, graceAfter, idleWaitMax, creatingMax, pollEvery}

type pendingState int

const (
	stateAnnounced pendingState = iota // a plan creates it
	stateCreating                      // a write creating it runs
	stateCreated                       // that write succeeded
	stateFailed                        // that write failed
)

type pendingEntry struct {
	state  pendingState
	at     time.Time     // when it entered its state
	awaits []plannedName // stateCreating: what its write waits for first
}

// pending is the registry of one provider instance.
type pending struct {
	mu      sync.Mutex
	entries map[plannedName]*pendingEntry
	changed chan struct{} // closed (and replaced) at every change
	now     func() time.Time
	limits  pendingLimits
}

func newPending(now func() time.Time, limits pendingLimits) *pending {
	return &pending{entries: map[plannedName]*pendingEntry{}, changed: make(chan struct{}), now: now, limits: limits}
}

// broadcast wakes every waiter; p.mu is held.
func (p *pending) broadcast() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// announce records that a plan creates (or renames an object to) k, unless
// a write is creating it already.
func (p *pending) announce(k plannedName) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.entries[k]; ok && e.state == stateCreating {
		return
	}
	p.entries[k] = &pendingEntry{state: stateAnnounced, at: p.now()}
	p.broadcast()
}

// begin records that a write creating made starts, waiting first for used;
// the function it returns records its end.
func (p *pending) begin(made, used []Ref) func(ok bool) {
	if p == nil || len(made) == 0 {
		return func(bool) {}
	}
	awaits := make([]plannedName, len(used))
	for i, r := range used {
		awaits[i] = r.key()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for _, r := range made {
		p.entries[r.key()] = &pendingEntry{state: stateCreating, at: now, awaits: awaits}
	}
	p.broadcast()
	return func(ok bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		st := stateFailed
		if ok {
			st = stateCreated
		}
		now := p.now()
		for _, r := range made {
			p.entries[r.key()] = &pendingEntry{state: st, at: now}
		}
		p.broadcast()
	}
}

// look returns (a copy of) the entry of r, whether this instance is creating
// roles, databases or schemas (one of which may be r, its create not yet
// announced), and the channel closed at the next change; p.mu is taken.
func (p *pending) look(r Ref, self []Ref) (e *pendingEntry, active bool, changed <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if x, ok := p.entries[r.key()]; ok {
		c := *x
		e = &c
	}
	// Any create counts, not only those of r's kind: the write that needs r
	// may be the first of the apply to reach the provider (a schema whose
	// owner is a role created in the same apply, by a string), before the
	// plan of the create of r announces it.
	// The caller's own creates (self) count only for the grace after they
	// began: a typo in the owner of a schema waits that long, not for as
	// long as the schema's create, which waits for it, runs.
	for k, x := range p.entries {
		if slices.ContainsFunc(self, func(s Ref) bool { return s.key() == k }) {
			if now.Sub(x.at) < p.limits.graceAfter {
				return e, true, p.changed
			}
			continue
		}
		switch {
		case x.state == stateCreating,
			x.state == stateAnnounced && now.Sub(x.at) < p.limits.announcedFor,
			now.Sub(x.at) < p.limits.graceAfter:
			return e, true, p.changed
		}
	}
	return e, false, p.changed
}

// sameKind: a create of k may bring r into being, or what r lives in (a
// schema's database).
func (p *pending) sameKind(r Ref, k plannedName) bool {
	switch r.Kind {
	case KindSchema:
		return (k.kind == KindSchema && k.db == r.DB) || (k.kind == KindDatabase && k.name == r.DB)
	default:
		return k.kind == r.Kind
	}
}

// cycle reports whether the create of r waits, directly or through other
// creates, for one of self (which waits for r): waiting would only time out.
func (p *pending) cycle(r Ref, self []Ref) bool {
	if len(self) == 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	mine := map[plannedName]bool{}
	for _, s := range self {
		mine[s.key()] = true
	}
	seen := map[plannedName]bool{}
	var walk func(k plannedName) bool
	walk = func(k plannedName) bool {
		if mine[k] {
			return true
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		e, ok := p.entries[k]
		if !ok || e.state != stateCreating {
			return false
		}
		for _, a := range e.awaits {
			if walk(a) {
				return true
			}
		}
		return false
	}
	e, ok := p.entries[r.key()]
	if !ok || e.state != stateCreating {
		return false
	}
	for _, a := range e.awaits {
		if walk(a) {
			return true
		}
	}
	return false
}

// wait blocks until changed is closed, d has passed, or ctx is done.
func wait(ctx context.Context, changed <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-changed:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// await waits, for each of used that does not exist (exists), for the
// create of this instance that brings it into being (see AwaitNames); self
// are the names the caller's own write creates.
func (p *pending) await(ctx context.Context, used, self []Ref, exists func(context.Context, Ref) (bool, error)) error {
	if p == nil {
		return nil
	}
	for _, r := range used {
		if err := p.awaitOne(ctx, r, self, exists); err != nil {
			return err
		}
	}
	return nil
}

func (p *pending) awaitOne(ctx context.Context, r Ref, self []Ref, exists func(context.Context, Ref) (bool, error)) error {
	start := p.now()
	waited := func() time.Duration { return p.now().Sub(start).Round(100 * time.Millisecond) }
	didWait := false
	pause := func(changed <-chan struct{}, d time.Duration) error {
		didWait = true
		return wait(ctx, changed, d)
	}
	for {
		e, active, changed := p.look(r, self)
		elapsed := p.now().Sub(start)
		switch {
		case e != nil && e.state == stateCreating:
			if p.cycle(r, self) {
				return p.notFound(r, fmt.Sprintf("this apply is creating it, but that create waits, directly or through others, for what this "+
					"one creates (%s): the names refer to each other in a circle", refList(self)))
			}
			if elapsed >= p.limits.creatingMax {
				return p.notFound(r, fmt.Sprintf("waited %s for this apply's create of it, which is still running", waited()))
			}
			if err := pause(changed, p.limits.creatingMax-elapsed); err != nil {
				return err
			}
			continue
		case e != nil && e.state == stateAnnounced && p.now().Sub(e.at) < p.limits.announcedFor:
			if err := pause(changed, p.limits.announcedFor-p.now().Sub(e.at)); err != nil {
				return err
			}
			continue
		case e == nil && !active && !didWait:
			return nil // nothing is being created: nothing to wait for, no query
		}
		ok, err := exists(ctx, r)
		if err != nil || ok {
			return err
		}
		switch {
		case e != nil && e.state == stateFailed:
			return p.notFound(r, fmt.Sprintf("this apply's create of it failed (waited %s for it)", waited()))
		case e != nil && e.state == stateAnnounced:
			return p.notFound(r, fmt.Sprintf("this apply planned to create it, but its create did not begin within %s", p.limits.announcedFor))
		case active && elapsed < p.limits.idleWaitMax:
			if err := pause(changed, min(p.limits.pollEvery, p.limits.idleWaitMax-elapsed)); err != nil {
				return err
			}
			continue
		case !didWait:
			return nil // missing, and nothing to wait for: the write says so
		}
		what := "no create of it began"
		if e != nil && e.state == stateCreated {
			what = "this apply created it, but it is gone"
		}
		return p.notFound(r, fmt.Sprintf("waited %s for this apply to create it, while it was creating %s: %s", waited(), p.creating(r), what))
	}
}

func (p *pending) notFound(r Ref, note string) error {
	return &NotFoundError{What: missingOf(r), Objects: []string{r.Kind + " " + pgconn.QuoteIdent(r.Name)}, Database: r.DB, Note: note, Attr: r.Attr}
}

// creating says what this instance was creating while r was waited for: r's
// kind, when it created any.
func (p *pending) creating(r Ref) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.entries {
		if p.sameKind(r, k) {
			return kindPlural(r)
		}
	}
	return "roles, databases or schemas"
}

func kindPlural(r Ref) string {
	switch r.Kind {
	case KindSchema:
		return "schemas or databases"
	case KindDatabase:
		return "databases"
	}
	return "roles"
}

func missingOf(r Ref) Missing {
	switch r.Kind {
	case KindDatabase:
		return MissingDatabase
	case KindSchema:
		return MissingSchema
	}
	return MissingGrantee
}

func refList(refs []Ref) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	return strings.Join(s, ", ")
}

// BeginCreates records that a write of this provider instance starts
// creating (or renaming objects to) made, waiting first for used (the
// names it needs); call the function it returns when the write ends, with
// whether it succeeded. Writes of this instance that need one of made wait
// for it meanwhile (AwaitNames).
func (c *Client) BeginCreates(made, used []Ref) func(ok bool) {
	if c == nil {
		return func(bool) {}
	}
	return c.pend.begin(made, used)
}

// AwaitNames waits, for each name of used that does not exist, until this
// provider instance has created it, when it is creating it (BeginCreates),
// about to (a plan of this instance announced it: NotePlanned), or is
// creating others of its kind (the create of a name referenced only by a
// string may reach the provider just after the write that needs it). Each
// wait is bounded (pendingLimits); when it ends with the name still missing,
// the error (a *NotFoundError) says what was waited for, and for how long.
// A missing name of a kind nothing is creating is no error here, and costs
// no query: the write that needs it reports it. self are the names the
// caller's write creates (a wait for one of them would be circular).
func (c *Client) AwaitNames(ctx context.Context, used, self []Ref) error {
	if c == nil {
		return nil
	}
	return c.pend.await(ctx, used, self, c.refExists)
}

// refExists reports whether r exists (reading from the server: the
// instance writes, so its snapshots are off or stale).
func (c *Client) refExists(ctx context.Context, r Ref) (bool, error) {
	var ok bool
	var err error
	switch r.Kind {
	case KindRole:
		err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", r.Name).Scan(&ok)
		})
	case KindDatabase:
		err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", r.Name).Scan(&ok)
		})
	case KindSchema:
		err = c.Read(ctx, r.DB, func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", r.Name).Scan(&ok)
		})
		if IsMissingDatabase(err) {
			return false, nil
		}
	}
	return ok, err
}
