package pg

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Catalog snapshots make a refresh of many objects cost a few queries: the
// first read of a kind (roles, databases, the schemas of a database) by a
// provider instance loads every object of that kind in one query, and the
// reads after it are served from memory. They never serve stale data:
//
//   - a snapshot belongs to one provider instance (WithSnapshot, called by the
//     provider's Configure): Terraform configures a new one for every command,
//     so a change made between two commands is always read from the server;
//   - any write by any client of this process (every statement that may write
//     goes through Pool) makes every snapshot loaded before it stale, and a
//     client that wrote (an apply) reads from the server from then on;
//   - a snapshot older than snapshotMaxAge is loaded again.

// snapshotMaxAge bounds how long a snapshot serves reads.
const snapshotMaxAge = 5 * time.Second

// snapshotAfter is how many reads of a kind go to the server before the next
// one loads the snapshot: a command that reads a few objects never loads a
// whole catalog.
const snapshotAfter = 2

// catalogWrites counts writes begun and ended by every client of the process:
// a snapshot loaded at another count may miss one of them.
var catalogWrites atomic.Uint64

// wrote records a write begun or ended. A client that writes (the apply of a
// Terraform command) stops using snapshots: its reads go to the server.
func (c *Client) wrote() {
	catalogWrites.Add(1)
	if c.snap != nil {
		c.snap.off.Store(true)
	}
}

type snapshotKey struct{ db, kind string }

type snapshotEntry struct {
	done  chan struct{} // closed when the load ended
	gen   uint64        // catalogWrites when the load began
	at    time.Time
	value any
	err   error
}

type snapshot struct {
	mu      sync.Mutex
	entries map[snapshotKey]*snapshotEntry
	reads   map[snapshotKey]int64
	loads   map[snapshotKey]int // loads begun, for tests
	now     func() time.Time
	off     atomic.Bool // the client wrote: no more snapshots
}

// WithSnapshot returns a view of the client (same pools, capabilities and
// counters) whose reads of roles, databases and schemas are served from
// catalog snapshots of its own. The provider makes one per Configure.
func (c *Client) WithSnapshot() *Client {
	return catalogView(c.Client, newSnapshot(), nil)
}

// ForInstance returns the view of the client that one provider instance (one
// Terraform command) uses: catalog snapshots of its own (WithSnapshot) and
// a registry of the roles, databases and schemas it creates, for the writes
// that name them to wait for (pending.go). The provider makes one per
// Configure.
func (c *Client) ForInstance() *Client {
	return catalogView(c.Client, newSnapshot(), newPending(time.Now, defaultPendingLimits))
}

func newSnapshot() *snapshot {
	return &snapshot{entries: map[snapshotKey]*snapshotEntry{}, reads: map[snapshotKey]int64{}, loads: map[snapshotKey]int{}, now: time.Now}
}

// fromSnapshot returns the snapshot of kind in database db, loading it when
// there is none, it is older than snapshotMaxAge or a write happened since it
// was loaded. Concurrent callers share one load. ok is false when the client
// has no snapshots (the caller reads from the server).
func fromSnapshot[T any](ctx context.Context, c *Client, db, kind string, load func(ctx context.Context, q Querier) (T, error)) (value T, ok bool, err error) {
	s := c.snap
	if s == nil || s.off.Load() {
		return value, false, nil
	}
	key := snapshotKey{db, kind}
	s.mu.Lock()
	s.reads[key]++
	if s.reads[key] <= snapshotAfter {
		s.mu.Unlock()
		return value, false, nil
	}
	s.mu.Unlock()
	for {
		s.mu.Lock()
		e := s.entries[key]
		if e != nil {
			select {
			case <-e.done:
				if e.err == nil && e.gen == catalogWrites.Load() && s.now().Sub(e.at) < snapshotMaxAge {
					s.mu.Unlock()
					v, _ := e.value.(T)
					return v, true, nil
				}
				delete(s.entries, key)
				e = nil
			default:
			}
		}
		if e != nil { // a load is under way: wait for it, then look again
			s.mu.Unlock()
			select {
			case <-e.done:
				if e.err != nil {
					return value, true, e.err
				}
				continue
			case <-ctx.Done():
				return value, true, ctx.Err()
			}
		}
		e = &snapshotEntry{done: make(chan struct{}), gen: catalogWrites.Load(), at: s.now()}
		s.entries[key] = e
		s.loads[key]++
		s.mu.Unlock()
		var v T
		e.err = c.Read(ctx, db, func(ctx context.Context, q Querier) error {
			var err error
			v, err = load(ctx, q)
			return err
		})
		e.value = v
		close(e.done)
		if e.err != nil {
			s.mu.Lock()
			if s.entries[key] == e {
				delete(s.entries, key)
			}
			s.mu.Unlock()
			return value, true, e.err
		}
		return v, true, nil
	}
}

// index holds the objects of one snapshot by name and by OID.
type index[T any] struct {
	byName map[string]*T
	byOID  map[uint32]*T
}

func newIndex[T any]() *index[T] {
	return &index[T]{byName: map[string]*T{}, byOID: map[uint32]*T{}}
}

func (x *index[T]) add(oid uint32, name string, v *T) {
	x.byName[name] = v
	x.byOID[oid] = v
}

// loadIndex runs query (one row per object, read by scan) and indexes the
// objects by the OID and name that key gives; what names them in errors.
func loadIndex[T any](ctx context.Context, q Querier, query, what string, scan func(pgx.Row) (*T, error), key func(*T) (uint32, string)) (*index[T], error) {
	rows, err := q.Query(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	defer rows.Close()
	x := newIndex[T]()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", what, err)
		}
		oid, name := key(v)
		x.add(oid, name, v)
	}
	return x, rows.Err()
}

// lookup finds by OID when oid is not 0, else by name; a copy, nil when absent.
func (x *index[T]) lookup(oid uint32, name string, clone func(*T) *T) *T {
	var v *T
	if oid != 0 {
		v = x.byOID[oid]
	} else {
		v = x.byName[name]
	}
	if v == nil {
		return nil
	}
	return clone(v)
}
