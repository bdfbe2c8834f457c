package pg

import (
	"context"
	"fmt"
	"sync"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Concurrent borrowers of one role (borrow.go) share one membership: the
// admin is one role whichever session it uses, and pg_auth_members holds one
// membership per role, member and grantor. A transaction grants it and takes
// it back before it commits, so no other session ever sees it, and a second
// transaction's GRANT queues behind the first (the unique index of
// pg_auth_members) until it is gone again. A statement PostgreSQL runs outside
// a transaction (CREATE and DROP DATABASE, ALTER DATABASE SET TABLESPACE)
// needs the membership committed, where every session sees it: a second
// borrower then took it for its own (it needed nothing, or found a membership
// the admin granted itself and refused it), and whichever finished first took
// it back from the other. (Issue 30's corpus, case two_databases_one_owner.)
//
// So the borrowers of one role on one server coordinate through a
// borrowGate, in this process:
//
//   - plain borrowers (outside a transaction) share one committed membership:
//     the first one in grants it, the last one out takes it back;
//   - transactions borrow as they always did, each its own membership, and
//     never while plain borrowers hold theirs: the two kinds take turns
//     (each waits while the other kind is in, and a kind stops letting more
//     in while the other waits). A transaction is in from its first borrowing
//     until it ends, when the membership it granted is gone.
//
// Plain borrowers of other provider processes (on the same provider database)
// coordinate with these through session advisory locks (acquirePlainLoan).

// borrowGate is the turn-taking of the borrowers of one role by one admin on
// one server, in this process.
type borrowGate struct {
	mu                      sync.Mutex
	cond                    *sync.Cond
	plain, tx               int  // borrowers in, of each kind
	waitingPlain, waitingTx int  // borrowers waiting for their turn
	busy                    bool // the first plain borrower is taking the membership, or the last one giving it back
	revoke                  bool // the plain borrowers' membership is to be taken back by the last of them
}

var borrowGates sync.Map // gate key (server, admin, role OID) -> *borrowGate

func gateOf(key string) *borrowGate {
	if g, ok := borrowGates.Load(key); ok {
		return g.(*borrowGate)
	}
	g := &borrowGate{}
	g.cond = sync.NewCond(&g.mu)
	actual, _ := borrowGates.LoadOrStore(key, g)
	return actual.(*borrowGate)
}

// enterTx lets a transaction in. reentrant: the transaction is already in on
// another role's gate, so it does not make way for waiting plain borrowers
// (two transactions could otherwise wait for each other through them).
func (g *borrowGate) enterTx(reentrant bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waitingTx++
	for g.busy || g.plain > 0 || (!reentrant && g.tx > 0 && g.waitingPlain > 0) {
		g.cond.Wait()
	}
	g.waitingTx--
	g.tx++
	g.cond.Broadcast()
}

func (g *borrowGate) leaveTx() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tx--
	g.cond.Broadcast()
}

// enterPlain lets a plain borrower in. The first one in runs acquire, which
// takes the membership (and the use lock) and tells whether the last one out
// is to take it back; each other one runs join (taking the use lock) before it
// counts, so that no one can find the membership unused in between.
func (g *borrowGate) enterPlain(acquire func() (revoke bool, err error), join func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waitingPlain++
	for g.busy || g.tx > 0 || (g.plain > 0 && g.waitingTx > 0) {
		g.cond.Wait()
	}
	g.waitingPlain--
	defer g.cond.Broadcast()
	if g.plain == 0 {
		g.busy = true
		g.mu.Unlock()
		revoke, err := acquire()
		g.mu.Lock()
		g.busy = false
		if err != nil {
			return err
		}
		g.revoke = revoke
	} else if err := join(); err != nil {
		return err
	}
	g.plain++
	return nil
}

// leavePlain lets a plain borrower out, running release (last: it is the
// last one, which gives the membership back when revoke says so) before it no
// longer counts.
func (g *borrowGate) leavePlain(release func(last, revoke bool) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer g.cond.Broadcast()
	if g.plain > 1 {
		g.plain--
		return release(false, false)
	}
	g.busy = true
	g.mu.Unlock()
	err := release(true, g.revoke)
	g.mu.Lock()
	g.busy = false
	g.plain--
	return err
}

// txState is what one attempt of Client.Tx keeps for the borrowings of its
// transaction (in its pgconn.TxScope): the gates it is in, left when the
// transaction has ended.
type txState struct {
	mu    sync.Mutex
	gates map[*borrowGate]bool
}

// txStateKey is the key of a transaction's txState in its pgconn.TxScope.
type txStateKey struct{}

// borrowTxState is the state of the transaction q, or nil when q is not a
// transaction of Client.Tx (then its borrowings take no turns, as before).
func borrowTxState(q Querier) *txState {
	scope := pgconn.ScopeOf(q)
	if scope == nil {
		return nil
	}
	return scope.Value(txStateKey{}, func() any { return &txState{} }).(*txState)
}

// TxEnded leaves the gates once the transaction has ended (pgconn.TxEnder).
func (s *txState) TxEnded() { s.end() }

// enter lets the transaction in on g once.
func (s *txState) enter(g *borrowGate) {
	s.mu.Lock()
	in, reentrant := s.gates[g], len(s.gates) > 0
	s.mu.Unlock()
	if in {
		return
	}
	g.enterTx(reentrant)
	s.mu.Lock()
	if s.gates == nil {
		s.gates = map[*borrowGate]bool{}
	}
	s.gates[g] = true
	s.mu.Unlock()
}

// end leaves every gate, once the transaction has committed or rolled back.
func (s *txState) end() {
	if s == nil {
		return
	}
	s.mu.Lock()
	gates := s.gates
	s.gates = nil
	s.mu.Unlock()
	for g := range gates {
		g.leaveTx()
	}
}

// Session advisory locks of the plain borrowers of a role (two-key advisory
// locks, classes outside the catalog OIDs LockObjects uses): loanMutexClass
// serialises taking and giving back the membership; every plain borrower
// relying on it holds loanUseClass shared, and the last one (the one that
// gets it exclusively) takes the membership back.
const (
	loanMutexClass = 0x42525701
	loanUseClass   = 0x42525702
)

func advisory(ctx context.Context, q Querier, fn string, class, obj uint32) error {
	_, err := q.Exec(ctx, "SELECT "+fn+"($1::int4, $2::int4)", int32(class), int32(obj))
	if err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// loanInUse reports whether a plain borrower (of any provider process) holds
// the use lock of role, in any database.
func loanInUse(ctx context.Context, q Querier, role uint32) (bool, error) {
	var inUse bool
	err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
  AND classid = $1::int4::oid AND objid = $2::int4::oid AND objsubid = 2)`, int32(loanUseClass), int32(role)).Scan(&inUse)
	return inUse, err
}

// tryUse takes the use lock of role exclusively, if no one else holds it.
func tryUse(ctx context.Context, q Querier, role uint32) (bool, error) {
	var ok bool
	err := q.QueryRow(ctx, "SELECT pg_try_advisory_lock($1::int4, $2::int4)", int32(loanUseClass), int32(role)).Scan(&ok)
	return ok, err
}
