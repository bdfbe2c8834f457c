package pg

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Subscription is a subscription as the catalog describes it.
type Subscription struct {
	OID          uint32
	Name         string
	Conninfo     string // "" when the connected role may not read it (not superuser)
	Publications []string
	SlotName     string // "" = NONE
	Enabled      bool
}

// SubscriptionSpec is what a subscription should look like.
type SubscriptionSpec struct {
	Name         string
	Conninfo     string
	Publications []string
	CreateSlot   bool
	SlotName     string // "" = the subscription name (PostgreSQL's default)
	Enabled      bool
}

// ReadSubscription reads the subscription of database db with OID oid (or,
// when oid is 0, called name); nil if none. conninfo is read only as superuser.
func (c *Client) ReadSubscription(ctx context.Context, db string, oid uint32, name string) (*Subscription, error) {
	var s Subscription
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var super, oidReadable bool
		if err := tx.QueryRow(ctx, `SELECT rolsuper, has_column_privilege('pg_catalog.pg_subscription', 'oid', 'SELECT')
FROM pg_roles WHERE rolname = current_user`).Scan(&super, &oidReadable); err != nil {
			return err
		}
		conninfo := "''::text"
		if super {
			conninfo = "s.subconninfo"
		}
		// PostgreSQL 13 lets only superusers read pg_subscription.oid: there
		// the OID comes from pg_get_object_address, which resolves a
		// subscription name in the current database for any role
		// (pg_shdepend records no database for it, nor any owner dependency
		// on the bootstrap superuser, and pg_stat_subscription no database)
		subOID := "s.oid"
		if !oidReadable {
			subOID = `CASE WHEN s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  THEN (pg_get_object_address('subscription', ARRAY[s.subname::text], '{}'::text[])).objid END`
		}
		var slot *string
		err := tx.QueryRow(ctx, `
SELECT `+subOID+`, s.subname, `+conninfo+`, s.subpublications, s.subslotname::text, s.subenabled
FROM pg_subscription s
WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND (($1::oid <> 0 AND `+subOID+` = $1) OR ($1::oid = 0 AND s.subname = $2))`, oid, name).Scan(
			&s.OID, &s.Name, &s.Conninfo, &s.Publications, &slot, &s.Enabled)
		if slot != nil {
			s.SlotName = *slot
		}
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading subscription %q: %w", name, err)
	}
	sort.Strings(s.Publications)
	return &s, nil
}

// CreateSubscription creates the subscription. It runs outside an explicit
// transaction: PostgreSQL refuses CREATE SUBSCRIPTION with create_slot = true
// in a transaction block. It needs superuser (PostgreSQL 15). The connection
// string is secret (it may hold a password).
func (c *Client) CreateSubscription(ctx context.Context, db string, s SubscriptionSpec) error {
	ctx, sec := pgconn.WithSecrets(ctx)
	sec.AddConninfo(s.Conninfo)
	opts := []string{fmt.Sprintf("create_slot = %t", s.CreateSlot), fmt.Sprintf("enabled = %t", s.Enabled)}
	if s.SlotName != "" {
		opts = append(opts, "slot_name = "+pgconn.QuoteLiteral(s.SlotName))
	}
	stmt := "CREATE SUBSCRIPTION " + pgconn.QuoteIdent(s.Name) + " CONNECTION " + sec.Literal(s.Conninfo) +
		" PUBLICATION " + pgconn.QuoteIdents(s.Publications) + " WITH (" + strings.Join(opts, ", ") + ")"
	if err := c.execSecretSession(ctx, db, stmt); err != nil {
		return sec.Scrub(fmt.Errorf("creating subscription %q: %w", s.Name, err))
	}
	return nil
}

// execSecretSession runs stmt, whose text carries secrets, outside a
// transaction block on a dedicated connection (ExecSecret); a connection whose
// logging settings could not be restored is closed instead of pooled.
func (c *Client) execSecretSession(ctx context.Context, db, stmt string) error {
	defer c.wrote()
	p, err := c.Pool(ctx, db)
	if err != nil {
		return err
	}
	conn, err := p.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	err = c.ExecSecret(ctx, pgconn.OneStatement(conn), false, stmt)
	var re *pgconn.RestoreError
	if errors.As(err, &re) {
		_ = conn.Conn().Close(ctx)
	}
	return err
}

// UpdateSubscription renames the subscription with OID oid and changes its
// connection, slot name, enabled state and publications in place.
//
// Everything but a publication change that refreshes the table list runs in
// one transaction, so that a failure changes nothing: in particular a slot
// change (DISABLE, SET (slot_name = ...), ENABLE) never leaves the
// subscription disabled. ALTER SUBSCRIPTION ... SET PUBLICATION with refresh,
// which PostgreSQL refuses inside a transaction block (and which needs the
// subscription enabled), runs on its own after that transaction when the
// subscription ends up enabled; when it fails, the publications are left as
// they were and the next plan shows the difference.
func (c *Client) UpdateSubscription(ctx context.Context, db string, oid uint32, s SubscriptionSpec) error {
	defer c.wrote() // some statements run on the pool directly
	ctx, sec := pgconn.WithSecrets(ctx)
	sec.AddConninfo(s.Conninfo)
	return sec.Scrub(c.updateSubscription(ctx, db, oid, s, sec))
}

func (c *Client) updateSubscription(ctx context.Context, db string, oid uint32, s SubscriptionSpec, sec *pgconn.Secrets) error {
	cur, err := c.ReadSubscription(ctx, db, oid, "")
	if err != nil {
		return err
	}
	if cur == nil {
		return fmt.Errorf("subscription %q (OID %d) no longer exists", s.Name, oid)
	}
	name := pgconn.QuoteIdent(s.Name)
	want := append([]string{}, s.Publications...)
	sort.Strings(want)
	pubsChange := strings.Join(want, "\x00") != strings.Join(cur.Publications, "\x00")
	setPubs := "ALTER SUBSCRIPTION " + name + " SET PUBLICATION " + pgconn.QuoteIdents(s.Publications)
	err = c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		exec := func(what, stmt string) error {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("%s of subscription %q: %w", what, s.Name, err)
			}
			return nil
		}
		if cur.Name != s.Name {
			if err := exec("renaming", "ALTER SUBSCRIPTION "+pgconn.QuoteIdent(cur.Name)+" RENAME TO "+name); err != nil {
				return err
			}
		}
		if s.Conninfo != "" && s.Conninfo != cur.Conninfo {
			sec.Add(cur.Conninfo, pgconn.ConninfoPassword(cur.Conninfo))
			if err := c.ExecSecret(ctx, tx, true, "ALTER SUBSCRIPTION "+name+" CONNECTION "+sec.Literal(s.Conninfo)); err != nil {
				return fmt.Errorf("changing the connection of subscription %q: %w", s.Name, err)
			}
		}
		enabled := cur.Enabled
		if s.SlotName != "" && s.SlotName != cur.SlotName {
			if enabled { // PostgreSQL changes the slot of a disabled subscription only
				if err := exec("disabling", "ALTER SUBSCRIPTION "+name+" DISABLE"); err != nil {
					return err
				}
				enabled = false
			}
			if err := exec("changing the slot", "ALTER SUBSCRIPTION "+name+" SET (slot_name = "+pgconn.QuoteLiteral(s.SlotName)+")"); err != nil {
				return err
			}
		}
		if enabled != s.Enabled {
			what, stmt := "enabling", " ENABLE"
			if !s.Enabled {
				what, stmt = "disabling", " DISABLE"
			}
			if err := exec(what, "ALTER SUBSCRIPTION "+name+stmt); err != nil {
				return err
			}
		}
		if pubsChange && !s.Enabled {
			// a disabled subscription cannot refresh: its new tables are fetched by a later REFRESH PUBLICATION
			return exec("changing the publications", setPubs+" WITH (refresh = false)")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if pubsChange && s.Enabled {
		p, err := c.Pool(ctx, db)
		if err != nil {
			return err
		}
		if _, err := pgconn.ExecOne(ctx, p, setPubs); err != nil {
			return fmt.Errorf("changing the publications of subscription %q (its other changes are applied): %w", s.Name, err)
		}
	}
	return nil
}

// DropSubscription drops the subscription (which also drops its slot on the
// publisher); a missing subscription or database is not an error.
func (c *Client) DropSubscription(ctx context.Context, db string, oid uint32, name string) error {
	defer c.wrote() // some statements run on the pool directly
	cur, err := c.ReadSubscription(ctx, db, oid, name)
	if pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil || cur == nil {
		return err
	}
	ctx, sec := pgconn.WithSecrets(ctx)
	sec.AddConninfo(cur.Conninfo) // an error connecting to the publisher may quote it
	p, err := c.Pool(ctx, db)
	if err != nil {
		return err
	}
	// Disable first, in a transaction of its own: DROP SUBSCRIPTION waits for
	// the publisher to drop the slots (table-sync ones included), and a slot a
	// walsender is still creating on the same server waits in turn for every
	// running transaction (a consistent snapshot), the DROP's own included.
	// Once DISABLE has committed, the workers stop and their walsenders can
	// finish and let go of the slots.
	if cur.Enabled {
		if _, err := pgconn.ExecOne(ctx, p, "ALTER SUBSCRIPTION "+pgconn.QuoteIdent(cur.Name)+" DISABLE"); err != nil {
			return sec.Scrub(fmt.Errorf("disabling subscription %q before dropping it: %w", cur.Name, err))
		}
	}
	if _, err := pgconn.ExecOne(ctx, p, "DROP SUBSCRIPTION IF EXISTS "+pgconn.QuoteIdent(cur.Name)); err != nil {
		return sec.Scrub(fmt.Errorf("dropping subscription %q: %w", cur.Name, err))
	}
	return nil
}
