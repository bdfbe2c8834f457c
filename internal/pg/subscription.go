package pg

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
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
}

// ReadSubscription reads the subscription of database db with OID oid (or,
// when oid is 0, called name); nil if none. conninfo is read only as superuser.
func (c *Client) ReadSubscription(ctx context.Context, db string, oid uint32, name string) (*Subscription, error) {
	var s Subscription
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var super bool
		if err := tx.QueryRow(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&super); err != nil {
			return err
		}
		conninfo := "''::text"
		if super {
			conninfo = "s.subconninfo"
		}
		var slot *string
		err := tx.QueryRow(ctx, `
SELECT s.oid, s.subname, `+conninfo+`, s.subpublications, s.subslotname::text, s.subenabled
FROM pg_subscription s
WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND (($1::oid <> 0 AND s.oid = $1) OR ($1::oid = 0 AND s.subname = $2))`, oid, name).Scan(
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
// in a transaction block. It needs superuser (PostgreSQL 15).
func (c *Client) CreateSubscription(ctx context.Context, db string, s SubscriptionSpec) error {
	opts := []string{fmt.Sprintf("create_slot = %t", s.CreateSlot)}
	if s.SlotName != "" {
		opts = append(opts, "slot_name = "+QuoteLiteral(s.SlotName))
	}
	stmt := "CREATE SUBSCRIPTION " + QuoteIdent(s.Name) + " CONNECTION " + QuoteLiteral(s.Conninfo) +
		" PUBLICATION " + QuoteIdents(s.Publications) + " WITH (" + strings.Join(opts, ", ") + ")"
	p, err := c.Pool(ctx, db)
	if err != nil {
		return err
	}
	if _, err := execOne(ctx, p, stmt); err != nil {
		return fmt.Errorf("creating subscription %q: %w", s.Name, err)
	}
	return nil
}

// UpdateSubscription renames the subscription with OID oid and changes its
// connection, publications and slot name in place. Each change is its own
// statement: ALTER SUBSCRIPTION ... SET PUBLICATION refreshes the table list,
// which PostgreSQL refuses inside a transaction block.
func (c *Client) UpdateSubscription(ctx context.Context, db string, oid uint32, s SubscriptionSpec) error {
	cur, err := c.ReadSubscription(ctx, db, oid, "")
	if err != nil {
		return err
	}
	if cur == nil {
		return fmt.Errorf("subscription %q (OID %d) no longer exists", s.Name, oid)
	}
	p, err := c.Pool(ctx, db)
	if err != nil {
		return err
	}
	exec := func(what, stmt string) error {
		if _, err := execOne(ctx, p, stmt); err != nil {
			return fmt.Errorf("%s of subscription %q: %w", what, s.Name, err)
		}
		return nil
	}
	name := QuoteIdent(s.Name)
	if cur.Name != s.Name {
		if err := exec("renaming", "ALTER SUBSCRIPTION "+QuoteIdent(cur.Name)+" RENAME TO "+name); err != nil {
			return err
		}
	}
	if s.Conninfo != "" && s.Conninfo != cur.Conninfo {
		if err := exec("changing the connection", "ALTER SUBSCRIPTION "+name+" CONNECTION "+QuoteLiteral(s.Conninfo)); err != nil {
			return err
		}
	}
	want := append([]string{}, s.Publications...)
	sort.Strings(want)
	if strings.Join(want, "\x00") != strings.Join(cur.Publications, "\x00") {
		refresh := ""
		if !cur.Enabled {
			refresh = " WITH (refresh = false)" // a disabled subscription cannot refresh
		}
		if err := exec("changing the publications", "ALTER SUBSCRIPTION "+name+" SET PUBLICATION "+QuoteIdents(s.Publications)+refresh); err != nil {
			return err
		}
	}
	if s.SlotName != "" && s.SlotName != cur.SlotName {
		if cur.Enabled {
			if err := exec("disabling", "ALTER SUBSCRIPTION "+name+" DISABLE"); err != nil {
				return err
			}
		}
		if err := exec("changing the slot", "ALTER SUBSCRIPTION "+name+" SET (slot_name = "+QuoteLiteral(s.SlotName)+")"); err != nil {
			return err
		}
		if cur.Enabled {
			if err := exec("enabling", "ALTER SUBSCRIPTION "+name+" ENABLE"); err != nil {
				return err
			}
		}
	}
	return nil
}

// DropSubscription drops the subscription (which also drops its slot on the
// publisher); a missing subscription or database is not an error.
func (c *Client) DropSubscription(ctx context.Context, db string, oid uint32, name string) error {
	cur, err := c.ReadSubscription(ctx, db, oid, name)
	if SQLState(err) == CodeInvalidCatalogName {
		return nil
	}
	if err != nil || cur == nil {
		return err
	}
	p, err := c.Pool(ctx, db)
	if err != nil {
		return err
	}
	if _, err := execOne(ctx, p, "DROP SUBSCRIPTION IF EXISTS "+QuoteIdent(cur.Name)); err != nil {
		return fmt.Errorf("dropping subscription %q: %w", cur.Name, err)
	}
	return nil
}
