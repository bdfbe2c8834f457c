package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
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
			parts = append(parts, "ADD "+QuoteIdent(k)+" "+o.literal(k, w))
		case inWant && h != w:
			parts = append(parts, "SET "+QuoteIdent(k)+" "+o.literal(k, w))
		case !inWant && inHave:
			parts = append(parts, "DROP "+QuoteIdent(k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " OPTIONS (" + strings.Join(parts, ", ") + ")"
}

func lockForeignServer(ctx context.Context, tx pgx.Tx, oid uint32) error {
	return LockObjects(ctx, tx, []AdvisoryLockKey{{ClassID: ClassForeignServer, ObjID: oid}})
}

// CreateForeignServer creates a foreign server in database db and returns it as read back.
func (c *Client) CreateForeignServer(ctx context.Context, db string, s ForeignServerSpec) (*ForeignServer, error) {
	ctx, sec := withSecrets(ctx)
	var out *ForeignServer
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE SERVER " + QuoteIdent(s.Name)
		if s.Type != "" {
			stmt += " TYPE " + QuoteLiteral(s.Type)
		}
		if s.Version != "" {
			stmt += " VERSION " + QuoteLiteral(s.Version)
		}
		stmt += " FOREIGN DATA WRAPPER " + QuoteIdent(s.FDW)
		opts := &optionValues{sec: sec}
		if len(s.Options) > 0 {
			stmt += optionsClauseCreate(s.Options, opts)
		}
		if err := c.exec(ctx, tx, opts.secret, stmt); err != nil {
			if SQLState(err) == CodeInsufficientPriv {
				return fmt.Errorf("creating foreign server %q: %w (a non-superuser needs USAGE on the foreign-data wrapper, which a superuser grants: GRANT USAGE ON FOREIGN DATA WRAPPER %s TO <role>)",
					s.Name, err, QuoteIdent(s.FDW))
			}
			return fmt.Errorf("creating foreign server %q: %w", s.Name, err)
		}
		if s.Owner != "" {
			err := withRoles(ctx, tx, []string{s.Owner}, func() error {
				_, err := tx.Exec(ctx, "ALTER SERVER "+QuoteIdent(s.Name)+" OWNER TO "+QuoteIdent(s.Owner))
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
	return out, sec.scrub(err)
}

// UpdateForeignServer renames (when the name differs), changes version,
// options and owner of the server with OID oid, in one transaction.
func (c *Client) UpdateForeignServer(ctx context.Context, db string, oid uint32, s ForeignServerSpec) (*ForeignServer, error) {
	ctx, sec := withSecrets(ctx)
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
				if _, err := tx.Exec(ctx, "ALTER SERVER "+QuoteIdent(name)+" RENAME TO "+QuoteIdent(s.Name)); err != nil {
					return fmt.Errorf("renaming foreign server %q to %q: %w", name, s.Name, err)
				}
				name = s.Name
			}
			var clauses string
			if s.Version != cur.Version {
				if s.Version == "" {
					clauses += " VERSION NULL"
				} else {
					clauses += " VERSION " + QuoteLiteral(s.Version)
				}
			}
			opts := &optionValues{sec: sec}
			clauses += optionsClause(cur.Options, s.Options, opts)
			if clauses != "" {
				if err := c.exec(ctx, tx, opts.secret, "ALTER SERVER "+QuoteIdent(name)+clauses); err != nil {
					return fmt.Errorf("altering foreign server %q: %w", name, err)
				}
			}
			if s.Owner != "" && s.Owner != cur.Owner {
				if _, err := tx.Exec(ctx, "ALTER SERVER "+QuoteIdent(name)+" OWNER TO "+QuoteIdent(s.Owner)); err != nil {
					return fmt.Errorf("setting the owner of foreign server %q to %q: %w", name, s.Owner, err)
				}
			}
			out, err = readForeignServer(ctx, tx, "WHERE s.oid = $1", oid)
			return err
		})
	})
	return out, sec.scrub(err)
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
			stmt := "DROP SERVER IF EXISTS " + QuoteIdent(cur.Name)
			if cascade {
				stmt += " CASCADE"
			}
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
	if err != nil && SQLState(err) == CodeInvalidCatalogName {
		return nil // the database is gone, and the server with it
	}
	if err != nil {
		return fmt.Errorf("dropping foreign server %q: %w", name, err)
	}
	return nil
}

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
	return QuoteIdent(user)
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
	ctx, sec := withSecrets(ctx)
	var out *UserMapping
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		owner, err := serverOwner(ctx, tx, server, user)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			stmt := "CREATE USER MAPPING FOR " + userMappingRole(user) + " SERVER " + QuoteIdent(server)
			opts := &optionValues{sec: sec, all: true}
			if len(options) > 0 {
				stmt += optionsClauseCreate(options, opts)
			}
			if err := c.exec(ctx, tx, opts.secret, stmt); err != nil {
				return fmt.Errorf("creating user mapping for %q on server %q: %w", user, server, err)
			}
			var err error
			out, err = readUserMapping(ctx, tx, user, server)
			return err
		})
	})
	return out, sec.scrub(err)
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
		parts[i] = QuoteIdent(k) + " " + o.literal(k, options[k])
	}
	return " OPTIONS (" + strings.Join(parts, ", ") + ")"
}

// UpdateUserMapping makes the mapping with OID oid (or, when it is gone, the
// one of oldUser on oldServer) the mapping of user on server with options, in
// one transaction: options change in place; when the mapping now belongs to
// another role or server (not by a rename), it is dropped and created again.
// known are the options last seen (used when PostgreSQL hides them).
func (c *Client) UpdateUserMapping(ctx context.Context, db string, oid uint32, oldUser, oldServer, user, server string, known, want map[string]string) (*UserMapping, error) {
	ctx, sec := withSecrets(ctx)
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
				if err := c.alterHiddenOptions(ctx, tx, sec, "ALTER USER MAPPING FOR "+userMappingRole(user)+" SERVER "+QuoteIdent(server), known, want); err != nil {
					return fmt.Errorf("altering user mapping for %q on server %q: %w", user, server, err)
				}
			} else if same {
				opts := &optionValues{sec: sec, all: true}
				if clause := optionsClause(cur.Options, want, opts); clause != "" {
					if err := c.exec(ctx, tx, opts.secret, "ALTER USER MAPPING FOR "+userMappingRole(user)+" SERVER "+QuoteIdent(server)+clause); err != nil {
						return fmt.Errorf("altering user mapping for %q on server %q: %w", user, server, err)
					}
				}
			} else {
				if cur != nil {
					if _, err := tx.Exec(ctx, "DROP USER MAPPING FOR "+userMappingRole(cur.User)+" SERVER "+QuoteIdent(cur.Server)); err != nil {
						return fmt.Errorf("dropping user mapping for %q on server %q: %w", cur.User, cur.Server, err)
					}
				}
				stmt := "CREATE USER MAPPING FOR " + userMappingRole(user) + " SERVER " + QuoteIdent(server)
				opts := &optionValues{sec: sec, all: true}
				if len(want) > 0 {
					stmt += optionsClauseCreate(want, opts)
				}
				if err := c.exec(ctx, tx, opts.secret, stmt); err != nil {
					return fmt.Errorf("creating user mapping for %q on server %q: %w", user, server, err)
				}
			}
			out, err = readUserMapping(ctx, tx, user, server)
			return err
		})
	})
	return out, sec.scrub(err)
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
			_, err := tx.Exec(ctx, "DROP USER MAPPING IF EXISTS FOR "+userMappingRole(user)+" SERVER "+QuoteIdent(server))
			return err
		})
	})
	if err != nil && SQLState(err) == CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dropping user mapping for %q on server %q: %w", user, server, err)
	}
	return nil
}

// DatabaseExists reports whether database name exists (used by imports to
// find which split of a dotted ID names a database).
func (c *Client) DatabaseExists(ctx context.Context, name string) (bool, error) {
	var ok bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
	})
	return ok, err
}

// alterHiddenOptions changes options the connected role cannot read (a
// mapping of another role, seen by a non-superuser): each wanted option is
// SET, or ADDed when it does not exist; options last known but no longer
// wanted are dropped when they still exist. Each step runs in a savepoint.
func (c *Client) alterHiddenOptions(ctx context.Context, tx pgx.Tx, sec *secrets, alter string, known, want map[string]string) error {
	try := func(clause string, secret bool) (bool, error) {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return false, err
		}
		if err := c.exec(ctx, sp, secret, alter+" OPTIONS ("+clause+")"); err != nil {
			_ = sp.Rollback(ctx)
			if SQLState(err) == CodeUndefinedObject || SQLState(err) == CodeDuplicateObject {
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
		ok, err := try("SET "+QuoteIdent(k)+" "+sec.literal(want[k]), true)
		if err != nil {
			return err
		}
		if !ok {
			if ok, err = try("ADD "+QuoteIdent(k)+" "+sec.literal(want[k]), true); err != nil || !ok {
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
		if _, err := try("DROP "+QuoteIdent(k), false); err != nil {
			return err
		}
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
