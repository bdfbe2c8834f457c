package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// Managed services (AWS RDS, Cloud SQL, Azure) give the admin CREATEROLE but
// not superuser. Acting on an object owned by another role, or giving an
// object to another role, then needs the privileges of that role: the admin
// takes them by granting itself the membership (GRANT role TO CURRENT_USER,
// which PostgreSQL 15 allows a CREATEROLE role for any non-superuser role, and
// 16+ for the roles it holds ADMIN OPTION on: those it created) and gives them
// back afterwards (on 16+ REVOKE takes back only the grant the admin made, not
// its ADMIN OPTION). Every such borrowing goes through this file.

// borrowRoles grants the connected role membership in each of roles it is not
// already a member of, and returns the roles it granted. Superusers, existing
// members (a membership the admin already has is never granted again: giving
// it back would end it) and roles that do not exist (the statement that needs
// them fails with its own error) are skipped, as are "" and repetitions.
func borrowRoles(ctx context.Context, q Querier, roles ...string) ([]string, error) {
	var granted []string
	for i, r := range roles {
		if r == "" || slices.Contains(roles[:i], r) {
			continue
		}
		// PostgreSQL 16 split membership into ADMIN, INHERIT and SET: a
		// CREATEROLE admin holds ADMIN OPTION (only) on the roles it created,
		// so being a member is not enough; it needs the role's privileges
		// (USAGE: INHERIT) and the right to SET ROLE to it (giving it objects).
		var has bool
		var v16 bool
		err := q.QueryRow(ctx, `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) THEN true
  WHEN current_setting('server_version_num')::int >= 160000
    THEN pg_has_role(current_user, $1::text, 'USAGE') AND pg_has_role(current_user, $1::text, 'SET')
  ELSE pg_has_role(current_user, $1::text, 'MEMBER') END,
  current_setting('server_version_num')::int >= 160000`, r).Scan(&has, &v16)
		if err != nil {
			return granted, fmt.Errorf("checking membership in role %q: %w", r, err)
		}
		if has {
			continue
		}
		grant := "GRANT " + QuoteIdent(r) + " TO CURRENT_USER"
		if v16 {
			grant += " WITH INHERIT TRUE, SET TRUE"
		}
		if _, err := q.Exec(ctx, grant); err != nil {
			return granted, fmt.Errorf("the provider's role needs the privileges of role %q for this change and could not grant itself "+
				"membership in it (run GRANT %s TO <provider role> as a superuser or a role with ADMIN OPTION on it): %w",
				r, QuoteIdent(r), err)
		}
		granted = append(granted, r)
	}
	return granted, nil
}

// returnRoles revokes the memberships borrowRoles granted.
func returnRoles(ctx context.Context, q Querier, granted []string) error {
	var errs []error
	for _, r := range granted {
		if _, err := q.Exec(ctx, "REVOKE "+QuoteIdent(r)+" FROM CURRENT_USER"); err != nil {
			errs = append(errs, fmt.Errorf("revoking the temporary membership in role %q: %w", r, err))
		}
	}
	return errors.Join(errs...)
}

// withRoles runs fn with the privileges of roles borrowed (borrowRoles) and
// gives them back afterwards. In a transaction a failed fn rolls everything
// back anyway; on a plain connection the memberships are revoked either way.
func withRoles(ctx context.Context, q Querier, roles []string, fn func() error) error {
	granted, err := borrowRoles(ctx, q, roles...)
	if err != nil {
		if _, inTx := q.(pgx.Tx); inTx {
			return err
		}
		return errors.Join(err, returnRoles(ctx, q, granted))
	}
	if err := fn(); err != nil {
		if _, inTx := q.(pgx.Tx); inTx {
			return err
		}
		return errors.Join(err, returnRoles(ctx, q, granted))
	}
	return returnRoles(ctx, q, granted)
}
