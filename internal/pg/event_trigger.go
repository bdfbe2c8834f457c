package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// EventTrigger is an event trigger as the catalog describes it.
type EventTrigger struct {
	OID            uint32
	Name           string
	Event          string
	Tags           []string // upper case, as PostgreSQL stores them; empty = every command
	Function       string
	FunctionSchema string
	Enabled        string // ORIGIN, REPLICA, ALWAYS or DISABLED
	Owner          string
}

// EventTriggerSpec is what an event trigger should look like.
type EventTriggerSpec struct {
	Name           string
	Event          string
	Tags           []string
	Function       string
	FunctionSchema string
	Enabled        string
	Owner          string // "" = leave as is
}

const eventTriggerSelect = `
SELECT e.oid, e.evtname, e.evtevent, coalesce(e.evttags, '{}'), p.proname, n.nspname,
       CASE e.evtenabled WHEN 'O' THEN 'ORIGIN' WHEN 'R' THEN 'REPLICA' WHEN 'A' THEN 'ALWAYS' ELSE 'DISABLED' END,
       pg_get_userbyid(e.evtowner)
FROM pg_event_trigger e JOIN pg_proc p ON p.oid = e.evtfoid JOIN pg_namespace n ON n.oid = p.pronamespace`

func readEventTrigger(ctx context.Context, q Querier, oid uint32, name string) (*EventTrigger, error) {
	scan := func(row pgx.Row) (*EventTrigger, error) {
		var e EventTrigger
		err := row.Scan(&e.OID, &e.Name, &e.Event, &e.Tags, &e.Function, &e.FunctionSchema, &e.Enabled, &e.Owner)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading event trigger: %w", err)
		}
		return &e, nil
	}
	if oid != 0 {
		if e, err := scan(q.QueryRow(ctx, eventTriggerSelect+" WHERE e.oid = $1", oid)); err != nil || e != nil {
			return e, err
		}
	}
	return scan(q.QueryRow(ctx, eventTriggerSelect+" WHERE e.evtname = $1", name))
}

// ReadEventTrigger reads an event trigger of database db by OID when oid is
// not 0 (following renames), else by name; nil, nil when it does not exist.
func (c *Client) ReadEventTrigger(ctx context.Context, db string, oid uint32, name string) (*EventTrigger, error) {
	var e *EventTrigger
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		e, err = readEventTrigger(ctx, q, oid, name)
		return err
	})
	return e, err
}

func eventTriggerEnable(mode string) string {
	switch strings.ToUpper(mode) {
	case "REPLICA":
		return "ENABLE REPLICA"
	case "ALWAYS":
		return "ENABLE ALWAYS"
	case "DISABLED":
		return "DISABLE"
	}
	return "ENABLE"
}

// CreateEventTrigger creates an event trigger (PostgreSQL allows this to superusers only).
func (c *Client) CreateEventTrigger(ctx context.Context, db string, s EventTriggerSpec) (*EventTrigger, error) {
	var out *EventTrigger
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE EVENT TRIGGER " + pgconn.QuoteIdent(s.Name) + " ON " + pgconn.QuoteIdent(s.Event)
		if len(s.Tags) > 0 {
			tags := make([]string, len(s.Tags))
			for i, t := range s.Tags {
				tags[i] = pgconn.QuoteLiteral(t)
			}
			stmt += " WHEN TAG IN (" + strings.Join(tags, ", ") + ")"
		}
		stmt += " EXECUTE FUNCTION " + pgconn.QuoteQualified(s.FunctionSchema, s.Function) + "()"
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("creating event trigger %q: %w", s.Name, err)
		}
		if en := eventTriggerEnable(s.Enabled); en != "ENABLE" {
			if _, err := tx.Exec(ctx, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(s.Name)+" "+en); err != nil {
				return fmt.Errorf("setting event trigger %q to %s: %w", s.Name, s.Enabled, err)
			}
		}
		if s.Owner != "" {
			if _, err := tx.Exec(ctx, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(s.Name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner)); err != nil {
				return fmt.Errorf("setting the owner of event trigger %q to %q: %w", s.Name, s.Owner, err)
			}
		}
		var err error
		out, err = readEventTrigger(ctx, tx, 0, s.Name)
		return err
	})
	return out, err
}

// UpdateEventTrigger renames the event trigger with OID oid and sets its
// firing mode and owner, in one transaction.
func (c *Client) UpdateEventTrigger(ctx context.Context, db string, oid uint32, s EventTriggerSpec) (*EventTrigger, error) {
	var out *EventTrigger
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readEventTrigger(ctx, tx, oid, "")
		if err != nil {
			return err
		}
		if cur == nil || cur.OID != oid {
			return fmt.Errorf("event trigger %q no longer exists", s.Name)
		}
		if cur.Name != s.Name {
			if _, err := tx.Exec(ctx, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(cur.Name)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
				return fmt.Errorf("renaming event trigger %q to %q: %w", cur.Name, s.Name, err)
			}
		}
		if !strings.EqualFold(cur.Enabled, s.Enabled) {
			if _, err := tx.Exec(ctx, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(s.Name)+" "+eventTriggerEnable(s.Enabled)); err != nil {
				return fmt.Errorf("setting event trigger %q to %s: %w", s.Name, s.Enabled, err)
			}
		}
		if s.Owner != "" && s.Owner != cur.Owner {
			if _, err := tx.Exec(ctx, "ALTER EVENT TRIGGER "+pgconn.QuoteIdent(s.Name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner)); err != nil {
				return fmt.Errorf("setting the owner of event trigger %q to %q: %w", s.Name, s.Owner, err)
			}
		}
		out, err = readEventTrigger(ctx, tx, oid, "")
		return err
	})
	return out, err
}

// DropEventTrigger drops an event trigger; a missing trigger or database is not an error.
func (c *Client) DropEventTrigger(ctx context.Context, db string, oid uint32, name string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readEventTrigger(ctx, tx, oid, name)
		if err != nil || cur == nil {
			return err
		}
		_, err = tx.Exec(ctx, "DROP EVENT TRIGGER IF EXISTS "+pgconn.QuoteIdent(cur.Name))
		return err
	})
	if err != nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping event trigger %q: %w", name, err)
	}
	return nil
}
