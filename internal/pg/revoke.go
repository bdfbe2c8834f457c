package pg

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	pgxconn "github.com/jackc/pgx/v5/pgconn"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Revokes from what no longer exists.
//
// A revoke takes away what a grantee holds: privileges, default privileges,
// a membership, a setting, a comment or a security label. When the grantee
// (or the owner or schema the revoke names) no longer exists, what it held
// went with it (PostgreSQL refuses to drop a role that holds anything, and
// postgresql_role's destroy runs DROP OWNED first), so the revoke is done,
// not an error.
//
// Terraform may drop a role while it updates or destroys what referred to it:
// when a configuration removes a role together with the policy block, grant
// or membership that named it, nothing orders the role's destroy after the
// other change (TestAccPostgresqlSchema_AddPolicy of cyrilgdn/postgresql,
// step 2). A revoke therefore checks, in its transaction, that what it names
// still exists, and runs its statements through revoking: the role can still
// be dropped by another session between that check and the statement, which
// then fails with "role ... does not exist" (42704), and only a look at the
// catalog after the failure tells that error from one about something else
// (a type, a parameter, an object the revoke names that another change
// dropped, which remain errors).

// goneCheck reports, in transaction q, whether what a revoke takes away from
// no longer exists (a grantee, owner, member, schema or object).
type goneCheck func(ctx context.Context, q Querier) (bool, error)

// rolesGone is a goneCheck that is true when one of roles no longer
// exists; "" and PUBLIC always exist.
func rolesGone(roles ...string) goneCheck {
	return func(ctx context.Context, q Querier) (bool, error) {
		missing, err := missingRoles(ctx, q, roles)
		return len(missing) > 0, err
	}
}

// roleOIDsGone is a goneCheck that is true when a role of oids (0 = PUBLIC,
// never gone) no longer exists: a role renamed meanwhile is not gone.
func roleOIDsGone(oids ...uint32) goneCheck {
	return func(ctx context.Context, q Querier) (bool, error) {
		var gone bool
		err := q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM unnest($1::oid[]) o WHERE o <> 0 AND NOT EXISTS (SELECT 1 FROM pg_roles WHERE oid = o))", oids).Scan(&gone)
		return gone, err
	}
}

// schemaGone is a goneCheck that is true when schema name ("" = none) no
// longer exists in the current database.
func schemaGone(name string) goneCheck {
	return func(ctx context.Context, q Querier) (bool, error) {
		if name == "" {
			return false, nil
		}
		var ok bool
		err := q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_namespace WHERE nspname = $1)", name).Scan(&ok)
		return !ok, err
	}
}

// databaseGone is a goneCheck that is true when database name ("" = none)
// no longer exists.
func databaseGone(name string) goneCheck {
	return func(ctx context.Context, q Querier) (bool, error) {
		if name == "" {
			return false, nil
		}
		var ok bool
		err := q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
		return !ok, err
	}
}

// gone is the goneCheck of a revoke on t (a comment or label removed): t no
// longer exists.
func (t ObjectTarget) gone(ctx context.Context, q Querier) (bool, error) {
	_, _, _, found, err := t.address(ctx, q)
	return !found, err
}

// anyGone is a goneCheck that is true when one of checks is.
func anyGone(checks ...goneCheck) goneCheck {
	return func(ctx context.Context, q Querier) (bool, error) {
		for _, c := range checks {
			if gone, err := c(ctx, q); err != nil || gone {
				return gone, err
			}
		}
		return false, nil
	}
}

// missingRoles returns which of names do not exist ("" and PUBLIC aside), in
// the order given, without repetitions.
func missingRoles(ctx context.Context, q Querier, names []string) ([]string, error) {
	var ask []string
	for _, n := range names {
		if n != "" && !IsPublic(n) && !slices.Contains(ask, n) {
			ask = append(ask, n)
		}
	}
	if len(ask) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, "SELECT n FROM unnest($1::text[]) WITH ORDINALITY AS a(n, i) WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = a.n) ORDER BY a.i", ask)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// MissingRoles returns which of names do not exist ("" and PUBLIC aside),
// read-only (from the role snapshot where there is one): a refresh drops
// what a resource keeps for a role that is gone.
func (c *Client) MissingRoles(ctx context.Context, names []string) ([]string, error) {
	if x, ok, err := c.roleSnapshot(ctx); ok {
		if err != nil {
			return nil, err
		}
		var out []string
		for _, n := range names {
			if n != "" && !IsPublic(n) && x.byName[n] == nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		return out, nil
	}
	var out []string
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var err error
		out, err = missingRoles(ctx, q, names)
		return err
	})
	return out, err
}

// undefinedName reports whether err is PostgreSQL's refusal of a name that
// does not resolve: a role or other object (42704), a schema (3F000), a
// relation (42P01), a routine (42883), a database (3D000).
//
// It also covers an object dropped by another session between the moment
// PostgreSQL resolved its name and the moment it read its catalog row (GRANT
// and REVOKE take no lock on routines): "cache lookup failed for aggregate
// 20504" (XX000, walk pair grant_grantor_is_owner, superuser, PostgreSQL 15,
// at its destroy; TestAccWalk_regressionGrantGrantorIsOwner).
func undefinedName(err error) bool {
	switch pgconn.SQLState(err) {
	case pgconn.CodeUndefinedObject, pgconn.CodeInvalidSchemaName, pgconn.CodeInvalidCatalogName, "42P01", "42883":
		return true
	case "XX000":
		var pgErr *pgxconn.PgError
		return errors.As(err, &pgErr) && strings.HasPrefix(pgErr.Message, "cache lookup failed for ")
	}
	return false
}

// revoking runs fn, the statements of a revoke, in a savepoint of tx. When
// they fail because a name they hold does not resolve and gone, asked after
// the savepoint is rolled back, says that what the revoke takes away from no
// longer exists, the revoke is done: revoking returns true and no error, and
// tx goes on as if fn had not run. Any other failure is returned as it is.
//
// The savepoint costs two round trips (SAVEPOINT, RELEASE) on success.
func revoking(ctx context.Context, tx pgx.Tx, gone goneCheck, fn func(tx pgx.Tx) error) (bool, error) {
	if hook, ok := ctx.Value(beforeRevokeKey{}).(func()); ok {
		hook()
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return false, err
	}
	err = fn(sp)
	if err == nil {
		return false, sp.Commit(ctx)
	}
	if !undefinedName(err) {
		return false, err
	}
	if rerr := sp.Rollback(ctx); rerr != nil {
		return false, errors.Join(err, rerr)
	}
	isGone, cerr := gone(ctx, tx)
	if cerr != nil {
		return false, errors.Join(err, cerr)
	}
	if !isGone {
		return false, err
	}
	return true, nil
}

// revokeStatement runs stmt, a revoke, through revoking.
func revokeStatement(ctx context.Context, tx pgx.Tx, gone goneCheck, stmt string) (bool, error) {
	return revoking(ctx, tx, gone, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, stmt)
		return err
	})
}

// beforeRevokeKey is the context key of a test's hook, which revoking runs
// before a revoke's statements (after the revoke has checked what it names):
// tests drop the grantee there, as a concurrent destroy would.
type beforeRevokeKey struct{}

// ResolvedRole is a role that a resource names, found by name, or by the OID
// recorded when it last read it (a role renamed since, outside Terraform or
// by this apply).
type ResolvedRole struct {
	Name string // the role's name now ("" when it no longer exists)
	OID  uint32
}

// ResolveRoles finds each of names ("" and PUBLIC aside) by name, or else
// by oids[name], the OID recorded for it: a role renamed since is found
// under its new name, a dropped one not at all (Name ""). Read-only, from the
// role snapshot where there is one.
func (c *Client) ResolveRoles(ctx context.Context, names []string, oids map[string]uint32) (map[string]ResolvedRole, error) {
	out := map[string]ResolvedRole{}
	var ask []string
	var askOIDs []uint32
	for _, n := range names {
		if n == "" || IsPublic(n) || slices.Contains(ask, n) {
			continue
		}
		ask, askOIDs = append(ask, n), append(askOIDs, oids[n])
	}
	if len(ask) == 0 {
		return out, nil
	}
	if x, ok, err := c.roleSnapshot(ctx); ok {
		if err != nil {
			return nil, err
		}
		for i, n := range ask {
			if r := x.byName[n]; r != nil {
				out[n] = ResolvedRole{Name: r.Name, OID: r.OID}
			} else if r := x.byOID[askOIDs[i]]; askOIDs[i] != 0 && r != nil {
				out[n] = ResolvedRole{Name: r.Name, OID: r.OID}
			} else {
				out[n] = ResolvedRole{}
			}
		}
		return out, nil
	}
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, `SELECT a.n, coalesce(r1.rolname, r2.rolname, ''), coalesce(r1.oid, r2.oid, 0)
FROM unnest($1::text[], $2::oid[]) AS a(n, o)
LEFT JOIN pg_roles r1 ON r1.rolname = a.n
LEFT JOIN pg_roles r2 ON r1.oid IS NULL AND a.o <> 0 AND r2.oid = a.o`, ask, askOIDs)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			var r ResolvedRole
			if err := rows.Scan(&n, &r.Name, &r.OID); err != nil {
				return err
			}
			out[n] = r
		}
		return rows.Err()
	})
	return out, err
}
