package pgconn

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// LockTimeoutError is the error of a statement that waited longer than
// lock_timeout for a lock (SQLSTATE 55P03). It names the sessions that held
// strong locks in the database when it failed, where they could be read.
type LockTimeoutError struct {
	Err         error
	LockTimeout time.Duration
	Holders     []string // one line per session, e.g. `pid 123 (user "app", ...) holds AccessExclusiveLock on public.orders`
}

func (e *LockTimeoutError) Error() string {
	var b strings.Builder
	b.WriteString("a lock was not obtained within lock_timeout")
	if e.LockTimeout > 0 {
		fmt.Fprintf(&b, " (%s)", e.LockTimeout)
	}
	b.WriteString(": another session holds a conflicting lock (an open transaction, a migration, a LOCK TABLE). ")
	if len(e.Holders) > 0 {
		b.WriteString("Sessions holding strong locks in this database: " + strings.Join(e.Holders, "; ") + ". ")
	}
	b.WriteString("End or wait for that session, or raise the provider argument lock_timeout (seconds, 0 = wait forever), then apply again. (")
	b.WriteString(e.Err.Error())
	b.WriteString(")")
	return b.String()
}

func (e *LockTimeoutError) Unwrap() error { return e.Err }

// explainLockTimeout turns a lock timeout of a write on database db into a
// LockTimeoutError naming who holds strong locks there (a read-only query of
// pg_locks and pg_stat_activity); other errors pass unchanged.
func (c *Client) explainLockTimeout(ctx context.Context, db string, err error) error {
	if SQLState(err) != CodeLockNotAvailable {
		return err
	}
	e := &LockTimeoutError{Err: err, LockTimeout: c.cfg.LockTimeout}
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, perr := c.readOnlyPool(qctx, db)
	if perr != nil {
		return e
	}
	rows, qerr := p.Query(qctx, `
SELECT format('pid %s (user %s, application %s, %s, transaction open for %s) holds %s on %s',
              l.pid, coalesce(quote_ident(a.usename), '?'), coalesce(quote_literal(a.application_name), '?'),
              coalesce(a.state, '?'), coalesce(date_trunc('second', now() - a.xact_start)::text, '?'),
              l.mode, coalesce(l.relation::regclass::text, l.locktype))
FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.granted AND l.pid <> pg_backend_pid() AND l.locktype IN ('relation', 'object')
  AND l.mode IN ('AccessExclusiveLock', 'ExclusiveLock', 'ShareRowExclusiveLock', 'ShareLock', 'ShareUpdateExclusiveLock')
  AND (l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) OR l.database = 0)
ORDER BY a.xact_start NULLS LAST, l.pid
LIMIT 5`)
	if qerr != nil {
		return e
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if rows.Scan(&line) == nil {
			e.Holders = append(e.Holders, line)
		}
	}
	return e
}
