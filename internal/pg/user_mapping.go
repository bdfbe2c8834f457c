package pg

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// UserMapping is a user mapping as pg_user_mappings shows it.
type UserMapping struct {
	OID    uint32
	User   string // "public" for the PUBLIC mapping
	Server string
	// Options are nil when the connected role may not see them: PostgreSQL
	// shows them to superusers, to the mapped role itself, and for the PUBLIC
	// mapping to the server's owner.
	Options map[string]string
}

// userMappingRole renders the role of USER MAPPING FOR: PUBLIC, or a quoted name.
func userMappingRole(user string) string {
	if IsPublic(user) {
		return "PUBLIC"
	}
	return pgconn.QuoteIdent(user)
}

const userMappingSelect = `

SELECT m.umid, m.usename, m.srvname,
       m.umoptions IS NOT NULL
         OR (m.umuser <> 0 AND m.usename = current_user AND (pg_has_role(s.srvowner, 'USAGE') OR has_server_privilege(s.oid, 'USAGE')))
         OR (m.umuser = 0 AND pg_has_role(s.srvowner, 'USAGE'))
         OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
       coalesce(array(SELECT o.option_name || '=' || o.option_value FROM pg_options_to_table(m.umoptions) o), '{}')
FROM pg_user_mappings m JOIN pg_foreign_server s ON s.oid = m.srvid`

func scanUserMapping(row pgx.Row) (*UserMapping, error) {
	var m UserMapping
	var opts []string
	var visible bool
	err := row.Scan(&m.OID, &m.User, &m.Server, &visible, &opts)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading user mapping: %w", err)
	}
	if visible {
		m.Options = parseOptions(opts)
	}
	return &m, nil
}

func readUserMapping(ctx context.Context, q Querier, user, server string) (*UserMapping, error) {
	if strings.EqualFold(user, "public") {
		user = "public"
	}
	return scanUserMapping(q.QueryRow(ctx, userMappingSelect+" WHERE m.usename = $1 AND m.srvname = $2", user, server))
}

func readUserMappingByOID(ctx context.Context, q Querier, oid uint32) (*UserMapping, error) {
	return scanUserMapping(q.QueryRow(ctx, userMappingSelect+" WHERE m.umid = $1", oid))
}

// ReadUserMapping reads a user mapping of database db by OID when oid is not 0
// (following renames of its role and server), else by user ("public" for
// PUBLIC) and server; nil, nil when it does not exist.
func (c *Client) ReadUserMapping(ctx context.Context, db string, oid uint32, user, server string) (*UserMapping, error) {
	var m *UserMapping
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		var err error
		if oid != 0 {
			if m, err = readUserMappingByOID(ctx, q, oid); err != nil || m != nil {
				return err
			}
		}
		m, err = readUserMapping(ctx, q, user, server)
		return err
	})
	return m, err
}

// serverOwner returns the owner of a foreign server ("" when it does not
// exist) unless the mapping is the connected role's own (which needs no ownership).
func serverOwner(ctx context.Context, tx pgx.Tx, server, user string) (string, error) {
	var owner string
	var own bool
	err := tx.QueryRow(ctx, "SELECT pg_get_userbyid(srvowner), $2 = current_user FROM pg_foreign_server WHERE srvname = $1", server, user).Scan(&owner, &own)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if own {
		return "", err
	}
	return owner, err
}

// CreateUserMapping creates a user mapping in database db. Creating a mapping
// for another role needs ownership of the server: a non-superuser admin
// temporarily becomes a member of the server's owner.
func (c *Client) CreateUserMapping(ctx context.Context, db, user, server string, options map[string]string) (*UserMapping, error) {
	ctx, sec := pgconn.WithSecrets(ctx)
	var out *UserMapping
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		owner, err := serverOwner(ctx, tx, server, user)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			stmt := "CREATE USER MAPPING FOR " + userMappingRole(user) + " SERVER " + pgconn.QuoteIdent(server)
			opts := &optionValues{sec: sec, all: true}
			if len(options) > 0 {
				stmt += optionsClauseCreate(options, opts)
			}
			if err := c.ExecInTx(ctx, tx, opts.secret, stmt); err != nil {
				return fmt.Errorf("creating user mapping for %q on server %q: %w", user, server, err)
			}
			var err error
			out, err = readUserMapping(ctx, tx, user, server)
			return err
		})
	})
	return out, sec.Scrub(err)
}

// optionsClauseCreate renders the OPTIONS (...) of a CREATE statement; o
// renders the values, registering the secret ones.
func optionsClauseCreate(options map[string]string, o *optionValues) string {
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = pgconn.QuoteIdent(k) + " " + o.literal(k, options[k])
	}
	return " OPTIONS (" + strings.Join(parts, ", ") + ")"
}

// UpdateUserMapping makes the mapping with OID oid (or, when it is gone, the
// one of oldUser on oldServer) the mapping of user on server with options, in
// one transaction: options change in place; when the mapping now belongs to
// another role or server (not by a rename), it is dropped and created again.
// known are the options last seen (used when PostgreSQL hides them); keep
// are options to leave as they are (write-only ones whose values are not
// being set).
func (c *Client) UpdateUserMapping(ctx context.Context, db string, oid uint32, oldUser, oldServer, user, server string, known, want map[string]string, keep []string) (*UserMapping, error) {
	ctx, sec := pgconn.WithSecrets(ctx)
	var out *UserMapping
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var roles []string
		for _, srv := range []string{server, oldServer} {
			owner, err := serverOwner(ctx, tx, srv, user)
			if err != nil {
				return err
			}
			roles = append(roles, owner)
		}
		return withRoles(ctx, tx, roles, func() error {
			// read as a member of the owners, so the options are visible
			var cur *UserMapping
			var err error
			if oid != 0 {
				cur, err = readUserMappingByOID(ctx, tx, oid)
			}
			if err == nil && cur == nil {
				cur, err = readUserMapping(ctx, tx, oldUser, oldServer)
			}
			if err != nil {
				return err
			}
			same := cur != nil && cur.Server == server && (cur.User == user || (IsPublic(cur.User) && IsPublic(user)))
			if same && cur.Options == nil {
				known := maps.Clone(known)
				for _, k := range keep {
					delete(known, k) // never dropped
				}
				if err := c.alterHiddenOptions(ctx, tx, sec, "ALTER USER MAPPING FOR "+userMappingRole(user)+" SERVER "+pgconn.QuoteIdent(server), known, want); err != nil {
					return fmt.Errorf("altering user mapping for %q on server %q: %w", user, server, err)
				}
			} else if same {
				opts := &optionValues{sec: sec, all: true}
				if clause := optionsClause(cur.Options, keptOptions(cur.Options, want, keep), opts); clause != "" {
					if err := c.ExecInTx(ctx, tx, opts.secret, "ALTER USER MAPPING FOR "+userMappingRole(user)+" SERVER "+pgconn.QuoteIdent(server)+clause); err != nil {
						return fmt.Errorf("altering user mapping for %q on server %q: %w", user, server, err)
					}
				}
			} else {
				if cur != nil {
					// its role may be dropped meanwhile by another session,
					// and the mapping with it (revoke.go)
					if _, err := revokeStatement(ctx, tx, rolesGone(cur.User), "DROP USER MAPPING FOR "+userMappingRole(cur.User)+" SERVER "+pgconn.QuoteIdent(cur.Server)); err != nil {
						return fmt.Errorf("dropping user mapping for %q on server %q: %w", cur.User, cur.Server, err)
					}
				}
				stmt := "CREATE USER MAPPING FOR " + userMappingRole(user) + " SERVER " + pgconn.QuoteIdent(server)
				opts := &optionValues{sec: sec, all: true}
				if len(want) > 0 {
					stmt += optionsClauseCreate(want, opts)
				}
				if err := c.ExecInTx(ctx, tx, opts.secret, stmt); err != nil {
					return fmt.Errorf("creating user mapping for %q on server %q: %w", user, server, err)
				}
			}
			out, err = readUserMapping(ctx, tx, user, server)
			return err
		})
	})
	return out, sec.Scrub(err)
}

// IsPublic reports whether a role name means PUBLIC (user mappings, policies).
func IsPublic(s string) bool { return strings.EqualFold(s, "public") }

// DropUserMapping drops a user mapping; a missing mapping, server or database is not an error.
func (c *Client) DropUserMapping(ctx context.Context, db, user, server string) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var exists bool
		if err := tx.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_foreign_server WHERE srvname = $1)", server).Scan(&exists); err != nil || !exists {
			return err
		}
		owner, err := serverOwner(ctx, tx, server, user)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			_, err := tx.Exec(ctx, "DROP USER MAPPING IF EXISTS FOR "+userMappingRole(user)+" SERVER "+pgconn.QuoteIdent(server))
			return err
		})
	})
	if err != nil && pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping user mapping for %q on server %q: %w", user, server, err)
	}
	return nil
}

// alterHiddenOptions changes options the connected role cannot read (a
// mapping of another role, seen by a non-superuser): each wanted option is
// SET, or ADDed when it does not exist; options last known but no longer
// wanted are dropped when they still exist. Each step runs in a savepoint.
func (c *Client) alterHiddenOptions(ctx context.Context, tx pgx.Tx, sec *pgconn.Secrets, alter string, known, want map[string]string) error {
	try := func(clause string, secret bool) (bool, error) {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return false, err
		}
		if err := c.ExecInTx(ctx, sp, secret, alter+" OPTIONS ("+clause+")"); err != nil {
			_ = sp.Rollback(ctx)
			if pgconn.SQLState(err) == pgconn.CodeUndefinedObject || pgconn.SQLState(err) == pgconn.CodeDuplicateObject {
				return false, nil
			}
			return false, err
		}
		return true, sp.Commit(ctx)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ok, err := try("SET "+pgconn.QuoteIdent(k)+" "+sec.Literal(want[k]), true)
		if err != nil {
			return err
		}
		if !ok {
			if ok, err = try("ADD "+pgconn.QuoteIdent(k)+" "+sec.Literal(want[k]), true); err != nil || !ok {
				return errors.Join(err, fmt.Errorf("option %q can be neither set nor added", k))
			}
		}
	}
	keys = keys[:0]
	for k := range known {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := try("DROP "+pgconn.QuoteIdent(k), false); err != nil {
			return err
		}
	}
	return nil
}
