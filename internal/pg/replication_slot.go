package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ReplicationSlot is a row of pg_replication_slots.
type ReplicationSlot struct {
	Name      string
	Type      string // "logical" or "physical"
	Plugin    string // logical only
	Database  string // logical only
	Active    bool
	Temporary bool
}

// ReadReplicationSlot reads the slot called name (slots are cluster-wide); nil if none.
func (c *Client) ReadReplicationSlot(ctx context.Context, name string) (*ReplicationSlot, error) {
	var s ReplicationSlot
	err := c.ReadTx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		return tx.QueryRow(ctx, `
SELECT slot_name::text, slot_type, coalesce(plugin::text, ''), coalesce(database::text, ''), active, temporary
FROM pg_replication_slots WHERE slot_name = $1`, name).Scan(&s.Name, &s.Type, &s.Plugin, &s.Database, &s.Active, &s.Temporary)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading replication slot %q: %w", name, err)
	}
	return &s, nil
}

// CreateLogicalReplicationSlot creates a logical slot in database db with the
// output plugin plugin. It runs outside an explicit transaction: PostgreSQL
// refuses to create a logical slot in a transaction that has written anything.
func (c *Client) CreateLogicalReplicationSlot(ctx context.Context, db, name, plugin string) error {
	return c.Do(ctx, db, func(ctx context.Context, q Querier) error {
		if _, err := q.Exec(ctx, `SELECT pg_create_logical_replication_slot($1, $2)`, name, plugin); err != nil {
			return fmt.Errorf("creating logical replication slot %q: %w", name, err)
		}
		return nil
	})
}

// CreatePhysicalReplicationSlot creates a physical slot (WAL is reserved when a
// client first connects to it).
func (c *Client) CreatePhysicalReplicationSlot(ctx context.Context, name string) error {
	return c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		if _, err := q.Exec(ctx, `SELECT pg_create_physical_replication_slot($1)`, name); err != nil {
			return fmt.Errorf("creating physical replication slot %q: %w", name, err)
		}
		return nil
	})
}

// DropReplicationSlot drops the slot; a missing slot is not an error. An
// active slot (a consumer is connected) cannot be dropped.
func (c *Client) DropReplicationSlot(ctx context.Context, name string) error {
	return c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		if _, err := q.Exec(ctx, `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1`, name); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeUndefinedObject {
				return nil
			}
			return fmt.Errorf("dropping replication slot %q: %w", name, err)
		}
		return nil
	})
}
