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
		var has, v16, super bool
		var me string
		var oid uint32
		err := q.QueryRow(ctx, `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) THEN true
  WHEN current_setting('server_version_num')::int >= 160000
    THEN pg_has_role(current_user, $1::text, 'USAGE') AND pg_has_role(current_user, $1::text, 'SET')
  ELSE pg_has_role(current_user, $1::text, 'MEMBER') END,
  current_setting('server_version_num')::int >= 160000, current_user,
  coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = $1), false),
  coalesce((SELECT oid FROM pg_roles WHERE rolname = $1), 0)`, r).Scan(&has, &v16, &me, &super, &oid)
		if err != nil {
			return granted, fmt.Errorf("checking membership in role %q: %w", r, err)
		}
		if has {
			continue
		}
		if v16 {
			if !borrowKeepsMembership(ctx, q, oid) {
				return granted, fmt.Errorf("role %s needs the privileges of role %s for this change; it holds a membership in it that it granted "+
					"itself without INHERIT or SET, which taking them temporarily would end: grant the membership WITH INHERIT TRUE, SET TRUE",
					QuoteIdent(me), QuoteIdent(r))
			}
		}
		grant := "GRANT " + QuoteIdent(r) + " TO CURRENT_USER"
		if v16 {
			grant += " WITH INHERIT TRUE, SET TRUE"
		}
		if _, err := q.Exec(ctx, grant); err != nil {
			return granted, borrowError(r, me, v16, super, err)
		}
		granted = append(granted, r)
	}
	return granted, nil
}

// borrowKeepsMembership reports whether the connected role, already a member
// of role (by OID) without its privileges, can borrow them and give them back
// without ending that membership: on PostgreSQL 16+, where the borrowed
// membership is a row of its own (granted by the connected role), unless the
// existing one was granted by the connected role too. On older servers a
// member has one membership, which giving back would end.
func borrowKeepsMembership(ctx context.Context, q Querier, role uint32) bool {
	var ok bool
	err := q.QueryRow(ctx, `SELECT current_setting('server_version_num')::int >= 160000 AND NOT EXISTS (
  SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.rolname = current_user
  WHERE m.roleid = $1 AND m.member = me.oid AND m.grantor = me.oid)`, role).Scan(&ok)
	return err == nil && ok
}

// borrowError explains a membership the admin could not take: which role it
// needs, why it could not grant it to itself, and the statement that fixes it.
func borrowError(role, me string, v16, super bool, err error) error {
	if super {
		return fmt.Errorf("role %s needs the privileges of role %s for this change and cannot grant itself membership in it: "+
			"%s is a superuser, which only a superuser can act as. Make a role the provider manages the owner instead, "+
			"or apply this change with a superuser: %w", QuoteIdent(me), QuoteIdent(role), QuoteIdent(role), err)
	}
	if v16 {
		return fmt.Errorf("role %s needs the privileges of role %s for this change (membership WITH INHERIT TRUE, SET TRUE) and "+
			"cannot grant them to itself: since PostgreSQL 16 a CREATEROLE role manages only the roles it holds ADMIN OPTION on, "+
			"which are the roles it created; %s was created or is managed by another role (a superuser or the service). "+
			"Fix it once, as a superuser or a role with ADMIN OPTION on %s: GRANT %s TO %s WITH ADMIN OPTION, INHERIT FALSE, SET FALSE "+
			"(what CREATE ROLE gives the creator: the provider then grants itself the membership only while it needs it), or GRANT %s TO %s WITH INHERIT TRUE, SET TRUE "+
			"(a lasting membership): %w",
			QuoteIdent(me), QuoteIdent(role), QuoteIdent(role), QuoteIdent(role),
			QuoteIdent(role), QuoteIdent(me), QuoteIdent(role), QuoteIdent(me), err)
	}
	return fmt.Errorf("role %s needs the privileges of role %s for this change and cannot grant itself membership in it "+
		"(a CREATEROLE role cannot manage superusers or, on managed services, the service's reserved roles). "+
		"Fix it once, as a superuser: GRANT %s TO %s: %w",
		QuoteIdent(me), QuoteIdent(role), QuoteIdent(role), QuoteIdent(me), err)
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
