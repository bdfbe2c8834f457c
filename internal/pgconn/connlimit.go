package pgconn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PostgreSQL refuses a new session of a role that is not a superuser when its
// database already has datconnlimit sessions (CONNECTION LIMIT of CREATE or
// ALTER DATABASE, the connection_limit of postgresql_database) or its role
// rolconnlimit sessions, with SQLSTATE 53300 "too many connections". The
// provider keeps its own sessions within both limits (connGate), so that a
// high -parallelism does not make it refuse itself, and retries a refused
// connection with backoff within max_retry_duration (the limit also counts
// the sessions of others, which come and go): nothing ran on a connection the
// server refused, so trying again is safe.

// CodeTooManyConnections is the SQLSTATE of a connection refused for the
// server's max_connections, a database's connection limit or a role's.
const CodeTooManyConnections = "53300"

// isTooManyConnections reports a connection the server refused for one of its
// connection limits.
func isTooManyConnections(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == CodeTooManyConnections
}

// TooManyConnectionsError is the error of an operation whose connections the
// server kept refusing for a connection limit until max_retry_duration ran out.
type TooManyConnectionsError struct {
	Err   error
	Retry time.Duration // how long the provider retried (0: retries are off)
}

func (e *TooManyConnectionsError) Error() string {
	tried := fmt.Sprintf("retries a refused connection for up to %s (max_retry_duration)", e.Retry)
	if e.Retry <= 0 {
		tried = "did not retry (max_retry_duration is negative)"
	}
	return "the server refused new connections: a connection limit is reached (a database's connection_limit, the connection limit of " +
		"the provider's role, or the server's max_connections), by this provider's sessions and other clients' together. The provider keeps " +
		"its own sessions within the database's and its role's limits, and " + tried + ". Apply with a lower -parallelism, set the " +
		"provider's max_connections, raise the limit, or end other sessions of the database, then apply again (" + e.Err.Error() + ")"
}

func (e *TooManyConnectionsError) Unwrap() error { return e.Err }

// connGate counts the provider's server connections in one scope (a
// database, or every connection of the provider's role) and, once the scope's
// limit is known, holds back dials beyond it. Connections are counted from the
// first one on, before the limit is known.
type connGate struct {
	learn   sync.Mutex // held while the limit is looked up (learnDatabaseLimit)
	mu      sync.Mutex
	held    int
	limit   int           // < 0: no limit
	known   bool          // limit was learned (learnDatabaseLimit, detect)
	changed chan struct{} // closed (and replaced) when a connection goes or the limit changes
}

func newConnGate() *connGate { return &connGate{limit: -1, changed: make(chan struct{})} }

// tryAcquire takes a permit when one is free. Otherwise it returns a channel
// that is closed when one may have become free, and the limit.
func (g *connGate) tryAcquire(spare bool) (ok bool, wait <-chan struct{}, limit int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	need := 1
	if spare {
		need = 2 // a warm-up: only with a permit to spare (warm)
	}
	if g.limit < 0 || g.held+need <= g.limit {
		g.held++
		return true, nil, g.limit
	}
	return false, g.changed, g.limit
}

func (g *connGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held--
	close(g.changed)
	g.changed = make(chan struct{})
}

// setLimit records the scope's limit (< 0: none).
func (g *connGate) setLimit(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit, g.known = n, true
	close(g.changed)
	g.changed = make(chan struct{})
}

// forget marks the limit unknown again (the database was dropped, renamed or
// altered); counting goes on.
func (g *connGate) forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit, g.known = -1, false
}

// state returns the limit and whether it is known.
func (g *connGate) state() (limit int, known bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.limit, g.known
}

// dbGate returns the gate of database db's connections.
func (c *Client) dbGate(db string) *connGate {
	if db == "" {
		db = c.cfg.Database
	}
	c.gatesMu.Lock()
	defer c.gatesMu.Unlock()
	g := c.dbGates[db]
	if g == nil {
		g = newConnGate()
		c.dbGates[db] = g
	}
	return g
}

// setLimits records what detection found: the connection limit of the
// provider's role and of every database then existing. Superusers are subject
// to neither.
func (c *Client) setLimits(super bool, roleLimit int, dbs []string, dbLimits []int) {
	if super {
		roleLimit = -1
	}
	c.roleGate.setLimit(roleLimit)
	for i, db := range dbs {
		limit := -1
		if !super && i < len(dbLimits) {
			limit = dbLimits[i]
		}
		g := c.dbGate(db)
		if _, known := g.state(); !known {
			g.setLimit(limit)
		}
	}
}

// learnDatabaseLimit makes sure the connection limit of database db is known
// before the provider connects to it: databases that existed when the server
// was first asked are known; one created since (by this apply) is looked up
// once, on the provider's database.
func (c *Client) learnDatabaseLimit(ctx context.Context, db string) error {
	if db == "" || db == c.cfg.Database {
		return nil // known since detection (or the provider connects to it regardless)
	}
	g := c.dbGate(db)
	if _, known := g.state(); known {
		return nil
	}
	g.learn.Lock() // one lookup, however many operations start on the database at once
	defer g.learn.Unlock()
	if _, known := g.state(); known {
		return nil
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	if caps.IsSuperuser {
		g.setLimit(-1)
		return nil
	}
	limit := -1
	err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `SELECT coalesce((SELECT datconnlimit FROM pg_database WHERE datname = $1), -1)`, db).Scan(&limit)
	})
	if err != nil {
		return fmt.Errorf("reading the connection limit of database %q: %w", db, err)
	}
	g.setLimit(limit)
	return nil
}

// ForgetDatabaseLimit makes the provider look the connection limit of
// database db up again before its next connection to it (after CREATE, DROP,
// RENAME or a change of its connection limit).
func (c *Client) ForgetDatabaseLimit(db string) {
	c.dbGate(db).forget()
}

// maxConns is the size of a new pool of database db: at most the limits the
// provider knows of (its max_connections, its role's and the database's
// connection limits), 64 without one.
func (c *Client) maxConns(db string) int32 {
	n := 64
	if c.cfg.MaxConnections > 0 {
		n = c.cfg.MaxConnections
	}
	for _, g := range []*connGate{c.roleGate, c.dbGate(db)} {
		if limit, _ := g.state(); limit > 0 {
			n = min(n, limit)
		}
	}
	return int32(n)
}

// awaitGates takes a permit of the role's gate and of database db's gate for
// a new connection of the pool named key (see readOnlyKey), waiting while the
// provider holds as many connections as a limit allows. Meanwhile it closes
// idle connections of the provider's other pools (those of database db for
// db's limit, every other pool for the role's) so that their permits pass on.
// A warm-up (spare) never waits. It returns the function that gives the
// permits back.
func (c *Client) awaitGates(ctx context.Context, db, key string, spare bool) (func(), error) {
	role, dbg := c.roleGate, c.dbGate(db)
	var taken []*connGate
	release := func() {
		for _, g := range taken {
			g.release()
		}
	}
	for _, g := range []*connGate{role, dbg} {
		for {
			ok, changed, limit := g.tryAcquire(spare)
			if ok {
				taken = append(taken, g)
				break
			}
			if spare {
				release()
				return nil, errors.New("no connection permit to spare")
			}
			if limit == 0 {
				release()
				what := fmt.Sprintf("database %q has a connection limit of 0", db)
				if g == role {
					what = fmt.Sprintf("role %q has a connection limit of 0", c.cfg.Username)
				}
				return nil, &connLimitZeroError{what: what}
			}
			if g == role {
				c.closeIdleExcept(ctx, key)
			} else {
				c.closeIdleOfDatabase(ctx, db, key)
			}
			wait, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
			select {
			case <-changed:
			case <-wait.Done():
			}
			cancel()
			if ctx.Err() != nil {
				release()
				return nil, fmt.Errorf("waiting for a connection within the connection limit of %s: %w", gateName(g == role, db, c.cfg.Username), ctx.Err())
			}
		}
	}
	return release, nil
}

// connLimitZeroError: the database or role allows no connections of a
// non-superuser; retrying cannot help.
type connLimitZeroError struct{ what string }

func (e *connLimitZeroError) Error() string {
	return e.what + ": PostgreSQL lets only superusers connect. Raise the limit (connection_limit) for the provider to work there"
}

func gateName(role bool, db, user string) string {
	if role {
		return fmt.Sprintf("role %q", user)
	}
	return fmt.Sprintf("database %q", db)
}

// closeIdleOfDatabase closes the idle connections of the pools of database db
// other than the one named key.
func (c *Client) closeIdleOfDatabase(ctx context.Context, db, key string) {
	if db == "" {
		db = c.cfg.Database
	}
	c.mu.Lock()
	var others []*pgxpool.Pool
	if p, ok := c.pools[db]; ok && db != key {
		others = append(others, p)
	}
	if p, ok := c.roPools[db]; ok && readOnlyKey(db) != key {
		others = append(others, p)
	}
	others = append(others, c.retired[db]...)
	c.mu.Unlock()
	for _, p := range others {
		closeIdle(ctx, p)
	}
}

// closeIdle closes the idle connections of pool p.
func closeIdle(ctx context.Context, p *pgxpool.Pool) {
	for _, conn := range p.AcquireAllIdle(ctx) {
		_ = conn.Conn().Close(ctx)
		conn.Release()
	}
}

// retirePool takes pool p of database db out of use when it is still the
// client's pool: a pool opened before a limit was known, larger than the
// limit, is replaced this way by one within it (sizedPool). It is not closed
// (an operation may be about to use it): its idle connections are closed like
// the other pools' when a dial waits for a permit, and it is closed with the
// database's pools (ClosePool) or the client.
func (c *Client) retirePool(db string, readOnly bool, p *pgxpool.Pool) {
	if db == "" {
		db = c.cfg.Database
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pools := c.pools
	if readOnly {
		pools = c.roPools
	}
	if pools[db] == p {
		delete(pools, db)
		c.retired[db] = append(c.retired[db], p)
	}
}

// RetirePools retires the pools of database db (retirePool), e.g. after a
// change of its connection limit: the next ones are sized to it.
func (c *Client) RetirePools(db string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, pools := range []map[string]*pgxpool.Pool{c.pools, c.roPools} {
		if p, ok := pools[db]; ok {
			delete(pools, db)
			c.retired[db] = append(c.retired[db], p)
		}
	}
}
