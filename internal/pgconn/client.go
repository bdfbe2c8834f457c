// Package pgconn owns getting a connection to PostgreSQL: connection pools
// (one per target database, opened lazily and bounded together), retries and
// error classification, server capabilities, locks, quoting, secrets, SSH
// tunnels, SOCKS5 proxies and cloud logins. It knows nothing of the catalog:
// the layer above (package pg) learns of writes through a write hook (OnWrite).
package pgconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/semaphore"
)

// Defaults of Config.
const (
	DefaultMaxConnIdleTime  = 5 * time.Minute
	DefaultMaxRetryDuration = 2 * time.Minute
)

// Config is the resolved provider configuration.
type Config struct {
	// Host is one host name, address or Unix socket directory, or a
	// comma-separated list of them (multihost.go).
	Host string
	// Port is the port of every host, unless Ports is set: one port per host,
	// or one for all (multihost.go).
	Port  int
	Ports []int
	// TargetSessionAttrs picks the server among several hosts, as libpq's
	// target_session_attrs ("" = any).
	TargetSessionAttrs string
	Database           string
	Username           string
	Password           string
	SSLMode            string
	SSLRootCert        string
	ClientCert         *ClientCert
	ConnectTimeout     time.Duration
	MaxConnections     int // 0 = unlimited
	Superuser          bool
	ExpectedVersion    string
	DatabaseUsername   string
	ApplicationName    string
	// MaxConnIdleTime closes a pooled connection idle this long (0: DefaultMaxConnIdleTime).
	MaxConnIdleTime time.Duration
	// MaxRetryDuration bounds how long an operation retries after connection
	// failures (0: DefaultMaxRetryDuration; negative: no such retries).
	MaxRetryDuration time.Duration
	// StatementTimeout and LockTimeout are set on every session of the
	// provider (statement_timeout, lock_timeout); 0 means no limit.
	StatementTimeout time.Duration
	LockTimeout      time.Duration
	// CloudAuth, when set, makes a cloud login token the password of every
	// new connection (cloudauth.go).
	CloudAuth *CloudAuth
	// ExposeCredentials lets ConnectionString hand out the provider's own
	// credentials: its password or cloud login token, and its client
	// certificate and key (the provider's expose_credentials).
	ExposeCredentials bool

	// Unknown lists provider arguments whose value was not known when the
	// provider was configured (they depend on resources not yet applied).
	// Operations that need a connection fail with an error naming them.
	Unknown []string
	// Unsupported, when set, is returned by every operation that needs a
	// connection (e.g. a cloud IAM scheme this provider does not implement yet).
	Unsupported error

	// SSHTunnel and Proxy, when set, are the way to the server (network.go, ssh_tunnel.go).
	SSHTunnel *SSHTunnel
	Proxy     *Proxy
	// CloudSQL, when set, makes every connection go through the Cloud SQL
	// connector to the instance it names (cloudsql.go); Host is then that
	// instance's connection name.
	CloudSQL *CloudSQL
}

// ClientCert is a TLS client certificate, given as file paths or inline PEM.
type ClientCert struct {
	Cert   string
	Key    string
	Inline bool
}

// Client hands out pools per database and caches server facts. It is safe for
// concurrent use by every resource of one provider instance. Views made by
// OnWrite share everything but their write hook.
type Client struct {
	*clientCore
	// onWrite is called when a write begins or ends on this view (nil: none).
	onWrite func()
}

// OnWrite returns a view of the client (same pools, capabilities and
// counters) that calls hook whenever a write begins or ends through it (Pool,
// Tx, Do, Conn): the layer above drops what it cached from the catalog.
func (c *Client) OnWrite(hook func()) *Client {
	return &Client{clientCore: c.clientCore, onWrite: hook}
}

// wrote calls the view's write hook.
func (c *Client) wrote() {
	if c.onWrite != nil {
		c.onWrite()
	}
}

// Values holds what the layers above keep per client, shared by all its views
// (and by every provider instance sharing it, SharedClient).
func (c *Client) Values() *sync.Map { return &c.values }

// clientCore is what every view of one client shares: pools, permits,
// capabilities and counters.
type clientCore struct {
	cfg Config

	mu      sync.Mutex
	pools   map[string]*pgxpool.Pool // read-write, for Create/Update/Delete
	roPools map[string]*pgxpool.Pool // read-only, for Read, ModifyPlan and data sources
	sem     *semaphore.Weighted      // bounds server connections across all pools
	// roleGate and dbGates keep the provider's connections within the
	// connection limits of its role and of each database (connlimit.go)
	roleGate *connGate
	gatesMu  sync.Mutex // guards dbGates (apart from mu: pools are sized under mu)
	dbGates  map[string]*connGate
	retired  map[string][]*pgxpool.Pool // pools replaced by smaller ones, per database (retirePool)
	// readSlots bounds the reads under way at once per database (readSlot)
	readSlots    map[string]*semaphore.Weighted
	readSlotWait time.Duration
	connectors   Connectors // makers of the routes and login (WithConnectors)
	network      Route      // SSH bastion or SOCKS5 proxy, or direct
	cloudSQL     Route      // the Cloud SQL connector; nil: none

	capsMu sync.Mutex
	caps   *Capabilities
	// capsErr is a detection error that asking again cannot change (the
	// server is older than expected_version).
	capsErr error

	tokens Login // cloud login tokens (nil: none)

	values sync.Map // Values

	// lender lets the provider's role take the privileges of a database's
	// owner when the server refuses it a connection for want of CONNECT
	// (SetConnectLender); nil: none
	lender atomic.Pointer[ConnectLender]

	dials     atomic.Int64 // server connections opened, for tests and benchmarks
	connected atomic.Bool  // a connection to the server succeeded once
	retries   atomic.Int64 // operations retried after a connection failure
	unknowns  atomic.Int64 // writes that ended with an unknown outcome
	open      atomic.Int64 // server connections open now
	maxOpen   atomic.Int64 // most server connections open at once
}

// MaxConnectionsOpenAtOnce reports the most server connections the client held at the same time.
func (c *Client) MaxConnectionsOpenAtOnce() int64 { return c.maxOpen.Load() }

// Retries reports how many times an operation was retried after a connection failure.
func (c *Client) Retries() int64 { return c.retries.Load() }

// OutcomesUnknown reports how many writes ended with an unknown outcome (ErrOutcomeUnknown).
func (c *Client) OutcomesUnknown() int64 { return c.unknowns.Load() }

// ConnectionsOpened reports how many server connections the client has opened so far.
func (c *Client) ConnectionsOpened() int64 { return c.dials.Load() }

// NewClient creates a client. It never connects: pools open on first use.
func NewClient(cfg Config, opts ...Option) *Client {
	c := &Client{clientCore: &clientCore{cfg: cfg, pools: map[string]*pgxpool.Pool{}, roPools: map[string]*pgxpool.Pool{}, readSlots: map[string]*semaphore.Weighted{}, roleGate: newConnGate(), dbGates: map[string]*connGate{}, retired: map[string][]*pgxpool.Pool{}, readSlotWait: readSlotWait}}
	for _, o := range opts {
		o(c.clientCore)
	}
	c.routes()
	if cfg.MaxConnections > 0 {
		c.sem = semaphore.NewWeighted(int64(cfg.MaxConnections))
	}
	registerClient(c)
	return c
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

// DefaultDatabase is the database named in the provider configuration.
func (c *Client) DefaultDatabase() string { return c.cfg.Database }

// Ready reports why the client cannot connect, or nil.
func (c *Client) Ready() error {
	if len(c.cfg.Unknown) > 0 {
		return fmt.Errorf("the provider argument(s) %s are not known yet (they depend on values computed during apply); "+
			"this operation needs a database connection and cannot run until they are known. "+
			"Apply the resources they depend on first (for example with -target), or use literal values",
			strings.Join(c.cfg.Unknown, ", "))
	}
	return c.cfg.Unsupported
}

// Close closes every pool.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, p := range c.pools {
		p.Close()
		delete(c.pools, k)
	}
	for k, p := range c.roPools {
		p.Close()
		delete(c.roPools, k)
	}
	for k, ps := range c.retired {
		for _, p := range ps {
			p.Close()
		}
		delete(c.retired, k)
	}
	c.network.Close()
	if c.cloudSQL != nil {
		c.cloudSQL.Close()
	}
}

// forgetPools removes the read-write and read-only pools of database db from
// the client and returns them, for the caller to close.
func (c *Client) forgetPools(db string) []*pgxpool.Pool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*pgxpool.Pool
	if p, ok := c.pools[db]; ok {
		out = append(out, p)
		delete(c.pools, db)
	}
	if p, ok := c.roPools[db]; ok {
		out = append(out, p)
		delete(c.roPools, db)
	}
	out = append(out, c.retired[db]...)
	delete(c.retired, db)
	return out
}

// Pool returns the pool for database db ("" = the provider's database),
// opening it lazily. The first use of any pool detects the server's
// capabilities (and checks expected_version).
func (c *Client) Pool(ctx context.Context, db string) (*pgxpool.Pool, error) {
	c.wrote() // the read-write pool is for writes: snapshots loaded until now may miss them
	return c.sizedPool(ctx, db, false)
}

// readOnlyPool returns the read-only pool for database db, opening it lazily
// and detecting the server's capabilities on first use like Pool.
func (c *Client) readOnlyPool(ctx context.Context, db string) (*pgxpool.Pool, error) {
	return c.sizedPool(ctx, db, true)
}

// sizedPool returns the read-write or read-only pool of database db, opened
// with at most as many connections as the connection limits of the
// provider's role and of the database allow (connlimit.go). The first pool
// is opened before they are known; when detection finds it larger, it is
// replaced by one within them.
func (c *Client) sizedPool(ctx context.Context, db string, readOnly bool) (*pgxpool.Pool, error) {
	p, err := c.openPool(ctx, db, readOnly)
	if err != nil {
		return nil, err
	}
	if _, err := c.detect(ctx, p); err != nil {
		return nil, err
	}
	if err := c.learnDatabaseLimit(ctx, db); err != nil {
		return nil, err
	}
	if want := c.maxConns(db); want < 64 && p.Stat().MaxConns() > want {
		c.retirePool(db, readOnly, p)
		return c.openPool(ctx, db, readOnly)
	}
	return p, nil
}

func (c *Client) openPool(ctx context.Context, db string, readOnly bool) (*pgxpool.Pool, error) {
	if err := c.Ready(); err != nil {
		return nil, err
	}
	if db == "" {
		db = c.cfg.Database
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pools := c.pools
	if readOnly {
		pools = c.roPools
	}
	if p, ok := pools[db]; ok {
		return p, nil
	}
	pc, err := c.poolConfig(db)
	if err != nil {
		return nil, err
	}
	if readOnly {
		// Every transaction of these sessions, implicit ones included, is READ
		// ONLY: PostgreSQL refuses DDL, DCL, writes and XID assignment on them.
		// A startup parameter costs no round trip.
		pc.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
		if v := readOnlyPoolValidate(c.cfg.TargetSessionAttrs); v != nil {
			pc.ConnConfig.ValidateConnect = v
		}
		pc.ConnConfig.DialFunc = c.boundedDial(db, true, c.cfg.ConnectTimeout)
	}
	p, err := pgxpool.NewWithConfig(context.WithoutCancel(ctx), pc)
	if err != nil {
		return nil, fmt.Errorf("configuring connection pool for database %q: %w", db, err)
	}
	pools[db] = p
	if readOnly {
		go c.warm(context.WithoutCancel(ctx), db, p)
	}
	return p, nil
}

// warm opens a second connection of a read-only pool while the pool's first
// read opens its own: the next concurrent read of a refresh (typically the one
// that loads a catalog snapshot, which the others then wait for) finds it
// ready instead of setting one up after the first. Setting up a connection (a
// TCP and maybe TLS handshake, a SCRAM exchange, a backend start) costs more
// than a catalog query: about 30 ms with a local server, more across a network.
// warm takes one of the database's read slots, so the reads of a pool still
// open at most readConcurrency connections, and it never waits: without a free
// slot or a connection permit to spare (max_connections) there is nothing to
// warm.
func (c *Client) warm(ctx context.Context, db string, p *pgxpool.Pool) {
	slots := c.readSlotsOf(db)
	if !slots.TryAcquire(1) {
		return
	}
	defer slots.Release(1)
	timeout := c.cfg.ConnectTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.WithValue(ctx, noPermitWait{}, true), timeout)
	defer cancel()
	if conn, err := p.Acquire(ctx); err == nil {
		conn.Release()
	}
}

// noPermitWait marks the context of a dial that gives up at once when no
// connection permit is free (warm).
type noPermitWait struct{}

func (c *Client) poolConfig(db string) (*pgxpool.Config, error) {
	kv := append(c.cfg.hostPortSettings(),
		"dbname="+connValue(db),
		"user="+connValue(c.cfg.Username),
		"sslmode="+connValue(c.cfg.SSLMode),
	)
	if a := c.cfg.TargetSessionAttrs; a != "" {
		kv = append(kv, "target_session_attrs="+connValue(a))
	}
	if c.cloudSQL != nil {
		// the connector's own TLS session carries the protocol
		kv = append(cloudSQLSettings(c.cfg.CloudSQL), "dbname="+connValue(db), "user="+connValue(c.cfg.Username), "sslmode=disable")
	}
	if c.cfg.SSLRootCert != "" && c.cloudSQL == nil {
		kv = append(kv, "sslrootcert="+connValue(c.cfg.SSLRootCert))
	}
	if cc := c.cfg.ClientCert; cc != nil && !cc.Inline && c.cloudSQL == nil {
		kv = append(kv, "sslcert="+connValue(cc.Cert), "sslkey="+connValue(cc.Key))
	}
	pc, err := pgxpool.ParseConfig(strings.Join(kv, " "))
	if err != nil {
		return nil, fmt.Errorf("building connection settings: %w", err)
	}
	// Without a configured password, keep what pgconn found in the password
	// file (PGPASSFILE, default ~/.pgpass), as libpq does.
	if c.cfg.Password != "" {
		pc.ConnConfig.Password = c.cfg.Password
	}
	if cc := c.cfg.ClientCert; cc != nil && cc.Inline && c.cloudSQL == nil {
		cert, err := tls.X509KeyPair([]byte(cc.Cert), []byte(cc.Key))
		if err != nil {
			return nil, fmt.Errorf("clientcert: parsing inline certificate and key: %w", err)
		}
		if pc.ConnConfig.TLSConfig != nil {
			pc.ConnConfig.TLSConfig.Certificates = []tls.Certificate{cert}
		}
		for _, fb := range pc.ConnConfig.Fallbacks {
			if fb.TLSConfig != nil {
				fb.TLSConfig.Certificates = []tls.Certificate{cert}
			}
		}
	}
	app := c.cfg.ApplicationName
	if app == "" {
		app = "terraform-provider-postgresql"
	}
	pc.ConnConfig.RuntimeParams["application_name"] = app
	// QuoteLiteral relies on this; it is the default since PostgreSQL 9.1.
	pc.ConnConfig.RuntimeParams["standard_conforming_strings"] = "on"
	pc.ConnConfig.ConnectTimeout = c.cfg.ConnectTimeout
	pc.ConnConfig.Tracer = sqlTracer{}
	if c.cfg.StatementTimeout > 0 {
		pc.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(c.cfg.StatementTimeout.Milliseconds(), 10)
	}
	if c.cfg.LockTimeout > 0 {
		pc.ConnConfig.RuntimeParams["lock_timeout"] = strconv.FormatInt(c.cfg.LockTimeout.Milliseconds(), 10)
	}
	// Idle connections live a few minutes (one apply reuses them); the
	// health check closes those idle too long and those the server closed
	// (pgxpool also pings a connection idle over a second before handing it out).
	pc.MaxConnIdleTime = DefaultMaxConnIdleTime
	if c.cfg.MaxConnIdleTime > 0 {
		pc.MaxConnIdleTime = c.cfg.MaxConnIdleTime
	}
	pc.HealthCheckPeriod = min(30*time.Second, pc.MaxConnIdleTime)
	pc.MaxConnLifetime = time.Hour
	pc.MaxConns = c.maxConns(db)
	pc.ConnConfig.DialFunc = c.boundedDial(db, false, c.cfg.ConnectTimeout)
	c.network.Adjust(&pc.ConnConfig.Config)
	if c.cloudSQL != nil {
		c.cloudSQL.Adjust(&pc.ConnConfig.Config)
	}
	if c.tokens != nil {
		pc.BeforeConnect = c.tokens.BeforeConnect // the password of each new connection
	}
	return pc, nil
}

// boundedDial takes a permit from the client-wide semaphore for every server
// connection and gives it back when the socket closes, so that all pools
// together never hold more than max_connections connections. When no permit
// is free it first closes idle connections of the other databases' pools.
// Likewise it keeps the connections of database db, and those of the
// provider's role, within their connection limits (awaitGates).
func (c *Client) boundedDial(db string, readOnly bool, timeout time.Duration) pgconn.DialFunc {
	d := &net.Dialer{KeepAlive: 5 * time.Minute, Timeout: timeout}
	key := db
	if readOnly {
		key = readOnlyKey(db)
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		spare := ctx.Value(noPermitWait{}) != nil
		if c.sem != nil {
			switch {
			case spare:
				// a warm-up (warm): only with a permit to spare, so that no
				// dial of the pool ever waits for the one it holds
				if !c.sem.TryAcquire(2) {
					return nil, errors.New("no connection permit to spare")
				}
				c.sem.Release(1)
			case !c.sem.TryAcquire(1):
				if err := c.awaitPermit(ctx, key); err != nil {
					return nil, fmt.Errorf("waiting for a free connection slot (max_connections = %d): %w", c.cfg.MaxConnections, err)
				}
			}
		}
		releaseGates, err := c.awaitGates(ctx, db, key, spare)
		if err != nil {
			if c.sem != nil {
				c.sem.Release(1)
			}
			return nil, err
		}
		c.dials.Add(1)
		release := func() {
			c.open.Add(-1)
			releaseGates()
			if c.sem != nil {
				c.sem.Release(1)
			}
		}
		n := c.open.Add(1)
		for m := c.maxOpen.Load(); n > m && !c.maxOpen.CompareAndSwap(m, n); m = c.maxOpen.Load() {
		}
		var conn net.Conn
		if c.cloudSQL != nil {
			conn, err = c.cloudSQL.Dial(ctx, d, network, addr)
		} else {
			conn, err = c.network.Dial(ctx, d, network, addr)
		}
		if err != nil {
			release()
			return nil, err
		}
		return &permitConn{Conn: conn, release: release}, nil
	}
}

// awaitPermit waits for a connection permit for the pool named db. Meanwhile
// it closes the idle connections of the other pools, again as they become
// idle, so that their permits pass on and no pool starves. (Not with pgxpool's
// AfterRelease: it makes every release asynchronous, and the next read of a
// pool would open a connection before the one just used is idle again.)
func (c *Client) awaitPermit(ctx context.Context, db string) error {
	for {
		c.closeIdleExcept(ctx, db)
		wait, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		err := c.sem.Acquire(wait, 1)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
}

// readOnlyKey names the read-only pool of database db for boundedDial and
// closeIdleExcept, apart from its read-write pool (a NUL is in no name).
func readOnlyKey(db string) string { return "\x00ro\x00" + db }

// closeIdleExcept closes the idle connections of every pool but the one named
// db (a database name for a read-write pool, readOnlyKey for a read-only one).
func (c *Client) closeIdleExcept(ctx context.Context, db string) {
	c.mu.Lock()
	var others []*pgxpool.Pool
	for name, p := range c.pools {
		if name != db {
			others = append(others, p)
		}
	}
	for name, p := range c.roPools {
		if readOnlyKey(name) != db {
			others = append(others, p)
		}
	}
	for _, ps := range c.retired {
		others = append(others, ps...)
	}
	c.mu.Unlock()
	for _, p := range others {
		closeIdle(ctx, p)
	}
}

type permitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (p *permitConn) Close() error {
	err := p.Conn.Close()
	p.once.Do(p.release)
	return err
}

// clients lists every client of this process, so that a database about to be
// renamed or dropped can be released by all of them (several provider
// instances can live in one process, e.g. in acceptance tests).
var clients struct {
	sync.Mutex
	list []*Client
}

func registerClient(c *Client) {
	clients.Lock()
	defer clients.Unlock()
	clients.list = append(clients.list, c)
}

// ClosePool closes and forgets the pools for database db of every client of
// this process connected to the same server, so that none of their
// connections is left open on it (before DROP or RENAME).
func (c *Client) ClosePool(db string) {
	clients.Lock()
	list := append([]*Client{}, clients.list...)
	clients.Unlock()
	if !slices.ContainsFunc(list, func(cl *Client) bool { return cl.clientCore == c.clientCore }) {
		list = append(list, c)
	}
	for _, cl := range list {
		if cl.clientCore != c.clientCore && cl.cfg.Address() != c.cfg.Address() {
			continue
		}
		for _, p := range cl.forgetPools(db) {
			p.Close()
		}
		cl.ForgetDatabaseLimit(db) // a database of that name next may have another
	}
}

// cloudSQLSettings are the host and port of the connection string of a
// Cloud SQL instance: the instance (for pgx's messages), at the server-side
// proxy's port; the dial goes to the connector whatever they say.
func cloudSQLSettings(cs *CloudSQL) []string {
	return []string{"host=" + connValue(cs.Instance), "port=3307"}
}

// connValue quotes a value for a keyword=value connection string.
func connValue(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// Querier is what typed functions run statements on: a pool, a connection or a transaction.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Tx runs fn in one read-write transaction on database db, retrying the whole
// transaction on transient errors (serialization failure, deadlock,
// concurrent catalog update) and on connection failures before COMMIT (the
// server rolled the transaction back). When the connection is lost while
// COMMIT is under way, the outcome is unknown: Tx returns an error matching
// ErrOutcomeUnknown. Every Exec on tx uses the extended protocol (one
// statement only, see ExecOne).
func (c *Client) Tx(ctx context.Context, db string, fn func(ctx context.Context, tx pgx.Tx) error) error {
	defer c.wrote()
	return c.explainLockTimeout(ctx, db, c.retryOn(ctx, db, false, func() error {
		p, err := c.Pool(ctx, db)
		if err != nil {
			return err
		}
		tx, err := p.Begin(ctx)
		if err != nil {
			return err
		}
		if err := fn(ctx, oneStatementTx{tx}); err != nil {
			_ = tx.Rollback(ctx)
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			if IsConnectionError(err) && !nothingSent(err) {
				return c.outcomeUnknown(ctx, err)
			}
			return err
		}
		return nil
	}))
}

// ReadTx runs fn in one READ ONLY transaction on a read-only connection of
// database db (for reads that need one snapshot), retrying on transient
// errors and connection failures. It is what Read, ModifyPlan and data
// sources use: PostgreSQL refuses any DDL, DCL or write in it, and it never
// assigns a transaction ID.
func (c *Client) ReadTx(ctx context.Context, db string, fn func(ctx context.Context, tx pgx.Tx) error) error {
	return c.ReadPool(ctx, db, func(ctx context.Context, p *pgxpool.Pool) error {
		return pgx.BeginTxFunc(ctx, p, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			return fn(ctx, oneStatementTx{tx})
		})
	})
}

// Do runs fn on a pooled read-write connection of database db without a
// transaction (for statements PostgreSQL refuses inside one, such as CREATE
// DATABASE), retrying fn on transient errors and on connection failures that
// happened before anything was sent; fn must therefore be idempotent or fail
// cleanly. A connection lost after a statement was sent ends with an error
// matching ErrOutcomeUnknown.
func (c *Client) Do(ctx context.Context, db string, fn func(ctx context.Context, q Querier) error) error {
	defer c.wrote()
	return c.explainLockTimeout(ctx, db, c.retryOn(ctx, db, false, func() error {
		p, err := c.Pool(ctx, db)
		if err != nil {
			return err
		}
		return c.sentWrite(ctx, fn(ctx, oneStatement{p}))
	}))
}

// Read runs fn on a pooled read-only connection of database db (sessions with
// default_transaction_read_only = on), retrying on transient errors and
// connection failures. Every read of Read, ModifyPlan and data sources goes
// through Read or ReadTx, so plan and refresh cannot change anything: no DDL,
// no DCL, no writes, no transaction IDs, and no locks beyond those of plain
// catalog reads.
func (c *Client) Read(ctx context.Context, db string, fn func(ctx context.Context, q Querier) error) error {
	return c.ReadPool(ctx, db, func(ctx context.Context, p *pgxpool.Pool) error {
		return fn(ctx, oneStatement{p})
	})
}

// ReadPool runs fn on the read-only pool of database db, holding a read
// slot, retrying on transient errors and connection failures (Read, ReadTx).
func (c *Client) ReadPool(ctx context.Context, db string, fn func(ctx context.Context, p *pgxpool.Pool) error) error {
	return c.retryOn(ctx, db, true, func() error {
		ctx, done := c.readSlot(ctx, db)
		defer done()
		p, err := c.readOnlyPool(ctx, db)
		if err != nil {
			return err
		}
		return fn(ctx, p)
	})
}

// ReadConcurrency is how many reads of one database run at once; readSlotWait
// is how long a read waits for one of them before it goes ahead anyway.
//
// A refresh reads with Terraform's parallelism (10 by default), but each read
// is one short catalog query: two connections serve them all, while one
// connection per concurrent read costs a backend and an authentication (a
// SCRAM exchange) each. A read that waits longer than readSlotWait (a slow
// data source query holds the slots) opens a connection of its own, so no
// read ever waits on another for long, and none can wait forever.
const (
	ReadConcurrency = 2
	readSlotWait    = 500 * time.Millisecond
)

// Option adjusts a client made by NewClient (tests: shorter or longer waits).
type Option func(*clientCore)

// WithReadSlotWait sets how long a read waits for a read slot before it goes
// ahead on a connection of its own (default 500 ms).
func WithReadSlotWait(d time.Duration) Option {
	return func(c *clientCore) { c.readSlotWait = d }
}

type readSlotKey struct{}

// readSlot waits for one of the read slots of database db and returns the
// context to read with and the function that gives the slot back. A read made
// while one is under way (its context has the mark) takes no slot of its own.
func (c *Client) readSlot(ctx context.Context, db string) (context.Context, func()) {
	if ctx.Value(readSlotKey{}) != nil {
		return ctx, func() {}
	}
	s := c.readSlotsOf(db)
	marked := context.WithValue(ctx, readSlotKey{}, true)
	if s.TryAcquire(1) {
		return marked, func() { s.Release(1) }
	}
	wait, cancel := context.WithTimeout(ctx, c.readSlotWait)
	defer cancel()
	if s.Acquire(wait, 1) != nil {
		return marked, func() {} // waited long enough: read on a connection of its own
	}
	return marked, func() { s.Release(1) }
}

// readSlotsOf returns the semaphore of the read slots of database db.
func (c *Client) readSlotsOf(db string) *semaphore.Weighted {
	if db == "" {
		db = c.cfg.Database
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.readSlots[db]
	if s == nil {
		s = semaphore.NewWeighted(ReadConcurrency)
		c.readSlots[db] = s
	}
	return s
}

// Conn runs fn on one dedicated read-write connection of database db (session
// state such as SET ROLE stays on it); the connection goes back to the pool
// afterwards. Getting the connection is retried on connection failures; a
// connection lost while fn runs ends with an error matching ErrOutcomeUnknown
// (fn is not repeated).
func (c *Client) Conn(ctx context.Context, db string, fn func(ctx context.Context, conn Querier) error) error {
	defer c.wrote()
	var conn *pgxpool.Conn
	err := c.retryOn(ctx, db, false, func() error {
		p, err := c.Pool(ctx, db)
		if err != nil {
			return err
		}
		conn, err = p.Acquire(ctx)
		return err
	})
	if err != nil {
		return err
	}
	defer conn.Release()
	err = fn(ctx, OneStatement(conn))
	if IsConnectionError(err) && !errors.Is(err, ErrOutcomeUnknown) {
		return c.outcomeUnknown(ctx, err)
	}
	return c.explainLockTimeout(ctx, db, err)
}

// sentWrite turns the error of a write run outside a transaction into an
// unknown outcome when the connection was lost after it was sent.
func (c *Client) sentWrite(ctx context.Context, err error) error {
	if IsConnectionError(err) && !nothingSent(err) && !errors.Is(err, ErrOutcomeUnknown) {
		return c.outcomeUnknown(ctx, err)
	}
	return err
}

func (c *Client) outcomeUnknown(ctx context.Context, err error) error {
	c.unknowns.Add(1)
	tflog.Info(logContext(ctx), "connection lost after a change was sent: its outcome is unknown, the catalog will tell", map[string]any{"error": err.Error()})
	return outcomeUnknown(ctx, err)
}

// ExecOne runs one statement over the extended protocol. pgx sends an Exec
// without arguments as a simple query, which runs every statement of a text
// separated by semicolons; the extended protocol parses exactly one, and the
// server refuses a text with several ("cannot insert multiple commands into a
// prepared statement"). So configuration text spliced into a statement (an
// expression, an option value) can never smuggle a second statement in.
// QueryExecModeExec uses the unnamed statement: no extra round trip and no
// statement cache entry per DDL text.
func ExecOne(ctx context.Context, q Querier, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(args) > 0 {
		// with arguments pgx always uses the extended protocol
		return q.Exec(ctx, sql, args...)
	}
	rows, err := q.Query(ctx, sql, pgx.QueryExecModeExec)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	rows.Close()
	return rows.CommandTag(), rows.Err()
}

// ExecOneErr is ExecOne for a statement whose command tag does not matter.
func ExecOneErr(ctx context.Context, q Querier, sql string, args ...any) error {
	_, err := ExecOne(ctx, q, sql, args...)
	return err
}

// oneStatement is a Querier whose Exec runs exactly one statement (ExecOne).
type oneStatement struct{ q Querier }

func (o oneStatement) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return ExecOne(ctx, o.q, sql, args...)
}

func (o oneStatement) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return o.q.Query(ctx, sql, args...)
}

func (o oneStatement) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return o.q.QueryRow(ctx, sql, args...)
}

// oneStatementTx is a transaction whose Exec runs exactly one statement
// (ExecOne), and whose savepoints are the same.
type oneStatementTx struct{ pgx.Tx }

func (t oneStatementTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return ExecOne(ctx, t.Tx, sql, args...)
}

func (t oneStatementTx) Begin(ctx context.Context) (pgx.Tx, error) {
	sp, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return oneStatementTx{sp}, nil
}

// maxAttempts bounds the attempts after transient SQL errors (serialization
// failures, deadlocks); connection failures are bounded by MaxRetryDuration.
const maxAttempts = 10

// retryable reports whether an attempt that failed with err may run again, and
// whether err was a connection failure. A write whose outcome is unknown is
// never repeated here (the caller finds out from the catalog).
func (c *Client) retryable(err error) (retry, conn bool) {
	if errors.Is(err, ErrOutcomeUnknown) {
		return false, true
	}
	var zero *connLimitZeroError
	var gaveUp *TooManyConnectionsError
	if errors.As(err, &zero) || errors.As(err, &gaveUp) {
		return false, true // refused for good, or already retried (by an inner retry)
	}
	if isTooManyConnections(err) {
		// The server refused the connection for a connection limit: nothing
		// ran, and sessions come and go (the provider's own backends take a
		// moment to exit after it closes them). Retried with backoff within
		// max_retry_duration, even before the client ever connected.
		return true, true
	}
	if IsConnectionError(err) {
		// A server never reached is a configuration error until the client
		// has connected once; afterwards it is a restart or a failover.
		if isDialFailure(err) && !c.connected.Load() {
			return false, true
		}
		return true, true
	}
	return IsTransient(err), false
}

// retry runs fn until it succeeds or fails with an error not worth retrying.
// Transient SQL errors are retried maxAttempts times, connection failures
// until MaxRetryDuration has passed since the first attempt, with a backoff
// growing from 20 ms to 2 s (jittered) between attempts.
func (c *Client) retry(ctx context.Context, fn func() error) error {
	limit := c.cfg.MaxRetryDuration
	if limit == 0 {
		limit = DefaultMaxRetryDuration
	}
	err := c.explainTargetSessionAttrs(retryLoop(ctx, limit, 20*time.Millisecond, func(err error) (bool, bool) { return c.retryable(err) }, func() error {
		err := fn()
		if err == nil {
			c.connected.Store(true)
		}
		return err
	}, func() { c.retries.Add(1) }))
	var gaveUp *TooManyConnectionsError
	if isTooManyConnections(err) && !errors.As(err, &gaveUp) {
		return &TooManyConnectionsError{Err: err, Retry: max(limit, 0)}
	}
	return err
}

// retryOn is retry for fn using a pool of database db (read-only or not).
// When the server refuses one of its connections for a connection limit, the
// idle connections of the database's other pool are closed before the next
// attempt, to make room. When it refuses the connection for want of CONNECT
// on db, a write (or a read of a write: a context of TrackOutcome) takes the
// privileges of db's owner through the client's ConnectLender and tries
// again; a read only asks the lender whether that could be done, for its error
// (NoConnectError).
func (c *Client) retryOn(ctx context.Context, db string, readOnly bool, fn func() error) error {
	if db == "" {
		db = c.cfg.Database
	}
	key := db
	if readOnly {
		key = readOnlyKey(db)
	}
	attempt := func() error {
		return c.retry(ctx, func() error {
			err := fn()
			if isTooManyConnections(err) {
				c.closeIdleOfDatabase(ctx, db, key)
			}
			return err
		})
	}
	err := attempt()
	if !refusedConnect(err) {
		return err
	}
	lender := c.lender.Load()
	if lender == nil || db == c.cfg.Database || ctx.Value(lendingKey{}) != nil {
		return &NoConnectError{Database: db, Err: err}
	}
	_, writing := ctx.Value(outcomeKey{}).(*OutcomeTracker)
	take := !readOnly || writing
	lent, lendErr := (*lender)(context.WithValue(ctx, lendingKey{}, true), c, db, take)
	switch {
	case lendErr != nil:
		return &NoConnectError{Database: db, Err: errors.Join(err, lendErr)}
	case lent && take:
		if err = attempt(); refusedConnect(err) {
			return &NoConnectError{Database: db, Err: err}
		}
		return err
	default:
		return &NoConnectError{Database: db, Err: err, Lendable: lent}
	}
}

// ConnectLender gives the provider's role, refused a connection to database
// db for want of CONNECT, the privileges of db's owner (a committed
// membership), when take is set and its role can, reporting whether it did;
// when take is not set it changes nothing (a plan or refresh) and reports
// whether it could. c is the client whose connection was refused. Package pg
// sets it (SetConnectLender): the catalog is its business.
type ConnectLender func(ctx context.Context, c *Client, db string, take bool) (bool, error)

// lendingKey marks the context of a ConnectLender, whose own connections are
// never lent for (the default database's, which the lender uses).
type lendingKey struct{}

// SetConnectLender sets the client's ConnectLender, unless it has one.
func (c *Client) SetConnectLender(l ConnectLender) { c.lender.CompareAndSwap(nil, &l) }

// refusedConnect reports whether err is the server's refusal of a connection
// for want of the CONNECT privilege.
func refusedConnect(err error) bool {
	var connectErr *pgconn.ConnectError
	return err != nil && errors.As(err, &connectErr) && SQLState(err) == CodeInsufficientPriv
}

// NoConnectError is a connection that the server refused for want of CONNECT
// on Database. A managed administrator reaches a database whose PUBLIC has
// no CONNECT through its owner's privileges, and loses them when the database
// is given to another role outside Terraform (the long walk, seeds 26008 and
// 26508). A write takes the new owner's privileges when the provider's role
// can grant itself that role (ConnectLender); a read cannot (plan and refresh
// change nothing), and says whether the apply will (Lendable).
type NoConnectError struct {
	Database string
	Err      error
	// Lendable: a read was refused, and the provider's role can take the
	// owner's privileges, which the next write in the database does
	Lendable bool
}

func (e *NoConnectError) Error() string {
	if e.Lendable {
		return fmt.Sprintf("%v (the provider's role has no CONNECT on database %s, neither PUBLIC's nor its own, and not its owner's "+
			"privileges; a plan or refresh changes nothing, so it cannot take them, but its role can: the next change the provider "+
			"makes in that database takes them, or grant it CONNECT, see the managed-services guide, \"Databases without PUBLIC's CONNECT\")",
			e.Err, QuoteIdent(e.Database))
	}
	return fmt.Sprintf("%v (the provider's role has no CONNECT on database %s: not PUBLIC's, not its own, and not its owner's, "+
		"which it cannot take; grant it CONNECT on the database, see the managed-services guide, \"Databases without PUBLIC's CONNECT\")",
		e.Err, QuoteIdent(e.Database))
}

func (e *NoConnectError) Unwrap() error { return e.Err }

// IsLendableNoConnect reports whether err is a read's NoConnectError that
// the next write in its database overcomes (Lendable).
func IsLendableNoConnect(err error) bool {
	var e *NoConnectError
	return errors.As(err, &e) && e.Lendable
}

// retryLoop is retry's loop, apart for unit tests: delay is the first
// backoff, classify tells whether an error is worth retrying and whether it is
// a connection failure; onRetry is called before every repeated attempt after
// a connection failure.
func retryLoop(ctx context.Context, limit, delay time.Duration, classify func(error) (retry, conn bool), fn func() error, onRetry func()) error {
	deadline := time.Now().Add(limit)
	transient := 0
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil {
			return nil
		}
		again, conn := classify(err)
		if !again || conn && limit < 0 {
			return err
		}
		if !conn {
			transient++
			if transient >= maxAttempts {
				return err
			}
		}
		// jitter from the clock's low bits keeps parallel retries apart
		sleep := delay + time.Duration(time.Now().UnixNano()%int64(delay))
		if conn && time.Now().Add(sleep).After(deadline) {
			return fmt.Errorf("%w (gave up after retrying for %s, max_retry_duration)", err, limit)
		}
		if conn {
			onRetry()
			tflog.Info(logContext(ctx), "retrying on a fresh connection after a connection failure", map[string]any{"attempt": attempt, "error": err.Error()})
		} else {
			tflog.Debug(logContext(ctx), "retrying after transient PostgreSQL error", map[string]any{"attempt": attempt, "error": err.Error()})
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(sleep):
		}
		if delay < 2*time.Second {
			delay = min(2*delay, 2*time.Second)
		}
	}
}

// AdvisoryLockKey names one catalog object for a transaction-scoped advisory lock.
type AdvisoryLockKey struct {
	ClassID uint32 // e.g. the OID of pg_class, pg_namespace, pg_authid
	ObjID   uint32
}

// LockObjects takes transaction-scoped advisory locks on keys in one global
// order (class, then object), so concurrent transactions changing the same
// ACLs or memberships queue instead of failing with "tuple concurrently updated".
func LockObjects(ctx context.Context, tx pgx.Tx, keys []AdvisoryLockKey) error {
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].ClassID != keys[j].ClassID {
			return keys[i].ClassID < keys[j].ClassID
		}
		return keys[i].ObjID < keys[j].ObjID
	})
	var last *AdvisoryLockKey
	for i := range keys {
		k := keys[i]
		if last != nil && *last == k {
			continue
		}
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1::int4, $2::int4)", int32(k.ClassID), int32(k.ObjID)); err != nil {
			return fmt.Errorf("taking advisory lock: %w", err)
		}
		last = &keys[i]
	}
	return nil
}

// OneStatement returns q with an Exec that runs exactly one statement (ExecOne).
func OneStatement(q Querier) Querier { return oneStatement{q} }
