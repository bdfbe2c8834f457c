// Package pg owns every SQL statement the provider runs and all knowledge of
// the PostgreSQL catalog: typed read/write functions per object kind,
// version and capability rules, privilege spelling, and catalog snapshots.
// Getting a connection (pools, retries, error classes, quoting, secrets,
// tunnels, cloud logins) is package pgconn's: a Client here is a pgconn
// client whose writes invalidate the catalog snapshots (a write hook).
package pg

import (
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Client is a connection client (pgconn) with the catalog's view of it: the
// catalog snapshot of one provider instance (WithSnapshot) and the objects its
// plans create (NotePlanned). Every method of pgconn.Client is promoted.
type Client struct {
	*pgconn.Client
	// snap serves repeated reads of one provider instance (one Terraform
	// command) from catalog snapshots; nil: every read goes to the server.
	snap *snapshot
	// pend is the registry of the roles, databases and schemas one provider
	// instance creates (pending.go); nil: none.
	pend *pending
	// dropWithoutForce makes DropDatabase take the path of servers older
	// than PostgreSQL 13 (no DROP DATABASE ... WITH (FORCE)); set by tests on
	// a client of their own.
	dropWithoutForce bool
	// claims are the facts the resources of this view (one apply) state
	// (claims.go).
	claims *claims
}

// Querier is what typed functions run statements on: a pool, a connection or a transaction.
type Querier = pgconn.Querier

// NewClient creates a client. It never connects: pools open on first use.
func NewClient(cfg pgconn.Config, opts ...pgconn.Option) *Client {
	return catalogView(pgconn.NewClient(cfg, opts...), nil, nil)
}

// SharedClient returns the client for cfg, sharing its pools and capability
// detection with every other client of the same configuration in this process
// (pgconn.SharedClient).
func SharedClient(cfg pgconn.Config, opts ...pgconn.Option) *Client {
	return catalogView(pgconn.SharedClient(cfg, opts...), nil, nil)
}

// catalogView returns a view of conn whose writes invalidate every catalog
// snapshot of the process, and turn off snap (the view's own; nil: none);
// pend is the view's registry of creates (nil: none).
func catalogView(conn *pgconn.Client, snap *snapshot, pend *pending) *Client {
	conn.SetConnectLender(lendDatabaseOwner)
	c := &Client{snap: snap, claims: &claims{}, pend: pend}
	c.Client = conn.OnWrite(c.wrote)
	return c
}
