package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ClassForeignServer is the OID of pg_foreign_server (advisory-lock class).
const ClassForeignServer = 1417

// ForeignServer is a foreign server as the catalog describes it.
type ForeignServer struct {
	OID     uint32
	Name    string
	FDW     string
	Type    string // "" when not set
	Version string // "" when not set
	Owner   string
	Options map[string]string
}

// ForeignServerSpec is what a foreign server should look like.
type ForeignServerSpec struct {
	Name    string
	FDW     string
	Type    string // "" = none
	Version string // "" = none
	Owner   string // "" = leave as is (the creating role on create)
	Options map[string]string
	// Keep are options to leave as they are, whatever Options say (write-only
	// options whose values are not being set).
	Keep []string
	// SecretKeys are options whose values are secret whatever their names
	// (write-only ones): masked in logs and kept out of the server's log.
	SecretKeys []string
}

// keptOptions returns want with the options of keep set to their values in
// have (left out when have has none): an options change that leaves them alone.
func keptOptions(have, want map[string]string, keep []string) map[string]string {
	if len(keep) == 0 {
		return want
	}
	out := make(map[string]string, len(want)+len(keep))
	for k, v := range want {
		out[k] = v
	}
	for _, k := range keep {
		if v, ok := have[k]; ok {
			out[k] = v
		} else {
			delete(out, k)
		}
	}
	return out
}

const foreignServerSelect = `

SELECT s.oid, s.srvname, w.fdwname, coalesce(s.srvtype, ''), coalesce(s.srvversion, ''), pg_get_userbyid(s.srvowner),
       coalesce(array(SELECT o.option_name || '=' || o.option_value FROM pg_options_to_table(s.srvoptions) o), '{}')
FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw`

func readForeignServer(ctx context.Context, q Querier, where string, arg any) (*ForeignServer, error) {
	var s ForeignServer
	var opts []string
	err := q.QueryRow(ctx, foreignServerSelect+" "+where, arg).Scan(&s.OID, &s.Name, &s.FDW, &s.Type, &s.Version, &s.Owner, &opts)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading foreign server: %w", err)
	}
	s.Options = parseOptions(opts)
	return &s, nil
}

// parseOptions turns PostgreSQL's name=value option array into a map.
func parseOptions(opts []string) map[string]string {
	m := make(map[string]string, len(opts))
	for _, kv := range opts {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// ReadForeignServer reads a foreign server of database db by OID when oid is
// not 0 (following renames), else by name; nil, nil when it does not exist.
func (c *Client) ReadForeignServer(ctx context.Context, db string, oid uint32, name string) (*ForeignServer, error) {
	var s *ForeignServer
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		if oid != 0 {
			if s, err = readForeignServer(ctx, q, "WHERE s.oid = $1", oid); err != nil || s != nil {
				return err
			}
		}
		s, err = readForeignServer(ctx, q, "WHERE s.srvname = $1", name)
		return err
	})
	return s, err
}

// optionsClause renders OPTIONS (...) changing have into want: ADD new keys,
// SET changed ones, DROP missing ones ("" when nothing changes). Values are
// literals because PostgreSQL does not take parameters in utility statements;
// o renders them, registering the secret ones.
func optionsClause(have, want map[string]string, o *optionValues) string {
	keys := make([]string, 0, len(want)+len(have))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range have {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		w, inWant := want[k]
		h, inHave := have[k]
		switch {
		case inWant && !inHave:
			parts = append(parts, "ADD "+pgconn.QuoteIdent(k)+" "+o.literal(k, w))
		case inWant && h != w:
			parts = append(parts, "SET "+pgconn.QuoteIdent(k)+" "+o.literal(k, w))
		case !inWant && inHave:
			parts = append(parts, "DROP "+pgconn.QuoteIdent(k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " OPTIONS (" + strings.Join(parts, ", ") + ")"
}

func lockForeignServer(ctx context.Context, tx pgx.Tx, oid uint32) error {
	return pgconn.LockObjects(ctx, tx, []pgconn.AdvisoryLockKey{{ClassID: ClassForeignServer, ObjID: oid}})
}

// CreateForeignServer creates a foreign server in database db and returns it as read back.
func (c *Client) CreateForeignServer(ctx context.Context, db string, s ForeignServerSpec) (*ForeignServer, error) {
	ctx, sec := pgconn.WithSecrets(ctx)
	var out *ForeignServer
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE SERVER " + pgconn.QuoteIdent(s.Name)
		if s.Type != "" {
			stmt += " TYPE " + pgconn.QuoteLiteral(s.Type)
		}
		if s.Version != "" {
			stmt += " VERSION " + pgconn.QuoteLiteral(s.Version)
		}
		stmt += " FOREIGN DATA WRAPPER " + pgconn.QuoteIdent(s.FDW)
		opts := &optionValues{sec: sec, keys: s.SecretKeys}
		if len(s.Options) > 0 {
			stmt += optionsClauseCreate(s.Options, opts)
		}
		if err := c.ExecInTx(ctx, tx, opts.secret, stmt); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeInsufficientPriv {
				return fmt.Errorf("creating foreign server %q: %w (a non-superuser needs USAGE on the foreign-data wrapper, which a superuser grants: GRANT USAGE ON FOREIGN DATA WRAPPER %s TO <role>)",
					s.Name, err, pgconn.QuoteIdent(s.FDW))
			}
			return fmt.Errorf("creating foreign server %q: %w", s.Name, err)
		}
		if s.Owner != "" {
			err := withRoles(ctx, tx, []string{s.Owner}, func() error {
				_, err := tx.Exec(ctx, "ALTER SERVER "+pgconn.QuoteIdent(s.Name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner))
				return err
			})
			if err != nil {
				return fmt.Errorf("setting the owner of foreign server %q to %q: %w", s.Name, s.Owner, err)
			}
		}
		var err error
		out, err = readForeignServer(ctx, tx, "WHERE s.srvname = $1", s.Name)
		return err
	})
	return out, sec.Scrub(err)
}

// UpdateForeignServer renames (when the name differs), changes version,
// options and owner of the server with OID oid, in one transaction.
func (c *Client) UpdateForeignServer(ctx context.Context, db string, oid uint32, s ForeignServerSpec) (*ForeignServer, error) {
	ctx, sec := pgconn.WithSecrets(ctx)
	var out *ForeignServer
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		if err := lockForeignServer(ctx, tx, oid); err != nil {
			return err
		}
		cur, err := readForeignServer(ctx, tx, "WHERE s.oid = $1", oid)
		if err != nil {
			return err
		}
		if cur == nil {
			return fmt.Errorf("foreign server %q no longer exists", s.Name)
		}
		// Changing a server needs ownership: borrow the current and the new owner.
		return withRoles(ctx, tx, []string{cur.Owner, s.Owner}, func() error {
			name := cur.Name
			if s.Name != name {
				if _, err := tx.Exec(ctx, "ALTER SERVER "+pgconn.QuoteIdent(name)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
					return fmt.Errorf("renaming foreign server %q to %q: %w", name, s.Name, err)
				}
				name = s.Name
			}
			var clauses string
			if s.Version != cur.Version {
				if s.Version == "" {
					clauses += " VERSION NULL"
				} else {
					clauses += " VERSION " + pgconn.QuoteLiteral(s.Version)
				}
			}
			opts := &optionValues{sec: sec, keys: s.SecretKeys}
			clauses += optionsClause(cur.Options, keptOptions(cur.Options, s.Options, s.Keep), opts)
			if clauses != "" {
				if err := c.ExecInTx(ctx, tx, opts.secret, "ALTER SERVER "+pgconn.QuoteIdent(name)+clauses); err != nil {
					return fmt.Errorf("altering foreign server %q: %w", name, err)
				}
			}
			if s.Owner != "" && s.Owner != cur.Owner {
				if _, err := tx.Exec(ctx, "ALTER SERVER "+pgconn.QuoteIdent(name)+" OWNER TO "+pgconn.QuoteIdent(s.Owner)); err != nil {
					return fmt.Errorf("setting the owner of foreign server %q to %q: %w", name, s.Owner, err)
				}
			}
			out, err = readForeignServer(ctx, tx, "WHERE s.oid = $1", oid)
			return err
		})
	})
	return out, sec.Scrub(err)
}

// DropForeignServer drops the foreign server (by OID when known, else by
// name), with CASCADE when cascade. A missing server is not an error.
func (c *Client) DropForeignServer(ctx context.Context, db string, oid uint32, name string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var cur *ForeignServer
		var err error
		if oid != 0 {
			cur, err = readForeignServer(ctx, tx, "WHERE s.oid = $1", oid)
		}
		if err == nil && cur == nil {
			cur, err = readForeignServer(ctx, tx, "WHERE s.srvname = $1", name)
		}
		if err != nil || cur == nil {
			return err
		}
		if err := lockForeignServer(ctx, tx, cur.OID); err != nil {
			return err
		}
		return withRoles(ctx, tx, []string{cur.Owner}, func() error {
			stmt := "DROP SERVER IF EXISTS " + pgconn.QuoteIdent(cur.Name)
			if cascade {
				stmt += " CASCADE"
			}
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
	if err != nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil // the database is gone, and the server with it
	}
	if err != nil {
		return fmt.Errorf("dropping foreign server %q: %w", name, err)
	}
	return nil
}

// ForeignServerDependents counts the user mappings and foreign tables of the
// server with OID oid (for destroy-plan warnings).
func (c *Client) ForeignServerDependents(ctx context.Context, db string, oid uint32) (mappings, tables int, err error) {
	err = c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_user_mappings WHERE srvid = $1),
       (SELECT count(*) FROM pg_foreign_table WHERE ftserver = $1)`, oid).Scan(&mappings, &tables)
	})
	return mappings, tables, err
}

// optionValues renders option values of one statement: those that are secret
// (every value when all, else those SensitiveServerOption names) through sec.
type optionValues struct {
	sec    *pgconn.Secrets
	all    bool
	keys   []string // further options whose values are secret (write-only ones)
	secret bool     // a secret value was rendered
}

func (o *optionValues) literal(name, value string) string {
	if o.all || pgconn.SensitiveServerOption(name) || slices.Contains(o.keys, name) {
		o.secret = true
		return o.sec.Literal(value)
	}
	return pgconn.QuoteLiteral(value)
}
