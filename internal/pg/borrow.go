package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Managed services (AWS RDS, Cloud SQL, Azure) give the admin CREATEROLE but
// not superuser. Acting on an object owned by another role, or giving an
// object to another role, then needs the privileges of that role: the admin
// takes them by granting itself the membership (GRANT role TO CURRENT_USER,
// which PostgreSQL 15 allows a CREATEROLE role for any non-superuser role, and
// 16+ for the roles it holds ADMIN OPTION on: those it created) and gives them
// back afterwards (on 16+ REVOKE takes back only the grant the admin made, not
// its ADMIN OPTION). Every such borrowing goes through this file.

// loan is what borrowRoles took, for returnRoles to give back: the
// memberships it granted the connected role, and the memberships of those
// roles in the connected role that it took out meanwhile (suspended).
type loan struct {
	me        string
	granted   []string
	suspended []suspension
	plain     []plainLoan // outside a transaction: the gates it is in
}

// suspension is a membership of a borrowed role in the connected role,
// taken out while the connected role holds the borrowed role's privileges:
// PostgreSQL refuses circular memberships (0LP01), and a role given
// `roles = ["<admin>"]`, as users do on managed services, is a member of the
// admin's role. It is granted back, with its ADMIN OPTION, before the
// transaction ends, so no other session ever sees it gone.
type suspension struct {
	role  string
	admin bool
}

// CodeInvalidGrantOperation is the SQLSTATE of a circular membership.
const CodeInvalidGrantOperation = "0LP01"

// errBorrowedRoleGone is the error of a transaction whose borrowed role was
// dropped by another session before it gave the membership back: the
// transaction is rolled back and retried (IsTransient), and the retry no
// longer borrows the role.
var errBorrowedRoleGone = &pgconn.TransientError{Err: errors.New("a role whose privileges this change borrowed was dropped meanwhile by another session")}

// borrowRoles grants the connected role membership in each of roles it is not
// already a member of, and returns what it took (a loan). Superusers,
// existing members (a membership the admin already has is never granted again:
// giving it back would end it) and roles that do not exist (the statement that
// needs them fails with its own error) are skipped, as are "" and repetitions.
// Roles are borrowed in name order, so that concurrent borrowers of the same
// roles queue instead of deadlocking. pg_database_owner stands for the
// current database's owner, whose privileges are borrowed (lender.go).
//
// A role that is a member of the connected role (directly) has that
// membership taken out for the duration of the transaction and put back by
// returnRoles, as the community provider does: PostgreSQL 15 and older let
// the connected role grant and revoke membership in itself. On PostgreSQL 16+
// only a role with ADMIN OPTION on the connected role may, and on a plain
// connection (statements PostgreSQL runs outside a transaction, such as CREATE
// DATABASE) other sessions would see it gone: both are refused with an error
// saying why and what fixes it.
func borrowRoles(ctx context.Context, q Querier, roles ...string) (*loan, error) {
	l := &loan{}
	roles, err := resolveLenders(ctx, q, roles)
	if err != nil {
		return l, err
	}
	sorted := slices.Clone(roles)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	_, inTx := q.(pgx.Tx)
	st := borrowTxState(q)
	for _, r := range sorted {
		if r == "" {
			continue
		}
		m, err := checkMembership(ctx, q, r)
		if err != nil {
			return l, err
		}
		l.me = m.me
		if m.oid == 0 || m.meSuper {
			// no such role, or a superuser admin: nothing to borrow
			continue
		}
		if m.has && !m.self && inTx {
			// a lasting membership: no borrowing, and none of the
			// borrowers' memberships to rely on
			continue
		}
		// A lasting membership needs no borrowing on a plain connection
		// either, but pg_has_role may still see one that this process's
		// last plain borrower has just taken back (the backend's membership
		// cache learns of a commit a moment after its snapshots do, so
		// has and self disagree): the plain borrower enters the gate
		// anyway, and acquirePlainLoan decides under the loan mutex, once
		// the membership is given back (before the fix a DROP DATABASE ran
		// unborrowed: "must be owner of database",
		// TestAccDatabase_regressionConcurrentDropsSameOwnerManaged).
		g := gateOf(m.gateKey())
		if !inTx {
			err := g.enterPlain(func() (bool, error) { return acquirePlainLoan(ctx, q, r) },
				func() error { return advisory(ctx, q, "pg_advisory_lock_shared", loanUseClass, m.oid) })
			if err != nil {
				return l, err
			}
			l.plain = append(l.plain, plainLoan{gate: g, role: r, oid: m.oid})
			if err := refreshMembershipCache(ctx, q, m.oid, m.v16); err != nil {
				return l, err
			}
			continue
		}
		if st != nil {
			loaned := m.self
			st.enter(g) // until the transaction ends
			if m, err = checkMembership(ctx, q, r); err != nil {
				return l, err
			}
			if loaned && !m.self {
				// The membership was a borrowing that ended meanwhile. The
				// backend's membership cache may not know yet (a transaction
				// takes in other sessions' catalog changes when it first locks
				// a catalog, which it did when it checked first): pg_has_role
				// can still say true.
				m.has = false
			}
		}
		if m.has {
			continue
		}
		if m.loop {
			if m.direct == nil || m.v16 {
				return l, circularError(r, m.me, m.direct != nil, m.v16, inTx, nil)
			}
			// Concurrent borrowers of this role in this database queue here
			// (another database's get "tuple concurrently deleted" and retry).
			if err := lockRoles(ctx, q.(pgx.Tx), []string{r}); err != nil {
				return l, err
			}
			if _, err := q.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(m.me)+" FROM "+pgconn.QuoteIdent(r)); err != nil {
				return l, fmt.Errorf("taking the membership of role %s in role %s out while borrowing the privileges of %s: %w",
					pgconn.QuoteIdent(r), pgconn.QuoteIdent(m.me), pgconn.QuoteIdent(r), err)
			}
			l.suspended = append(l.suspended, suspension{role: r, admin: *m.direct})
		}
		if err := grantToSelf(ctx, q, r, m, inTx); err != nil {
			return l, err
		}
		l.granted = append(l.granted, r)
	}
	return l, nil
}

// membership is what checkMembership found about the connected role (me) and
// a role whose privileges it may need.
type membership struct {
	// has: the connected role has the privileges of the role already (on
	// 16+ USAGE and SET: a CREATEROLE admin holds ADMIN OPTION only on the
	// roles it created, and needs their privileges (INHERIT) and the right
	// to SET ROLE to them (giving them objects)); true for no such role
	has bool
	// self: it holds a membership in the role that it granted itself (a
	// borrowing under way, or one it made to last)
	self    bool
	v16     bool
	super   bool // the role is a superuser
	meSuper bool // the connected role is a superuser
	loop    bool // the role is a member of the connected role
	me      string
	oid     uint32
	direct  *bool  // the role's own membership in the connected role, with its ADMIN OPTION
	server  string // the server instance (start time and port), for gateKey
}

// gateKey names the borrowGate of the role: one per server, admin and role.
func (m membership) gateKey() string {
	return fmt.Sprintf("%s\x00%s\x00%d", m.server, m.me, m.oid)
}

func checkMembership(ctx context.Context, q Querier, r string) (membership, error) {
	var m membership
	err := q.QueryRow(ctx, `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) THEN true
  WHEN current_setting('server_version_num')::int >= 160000
    THEN pg_has_role(current_user, $1::text, 'USAGE') AND pg_has_role(current_user, $1::text, 'SET')
  ELSE pg_has_role(current_user, $1::text, 'MEMBER') END,
  EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.roleid JOIN pg_roles me ON me.oid = m.member
    WHERE b.rolname = $1 AND me.rolname = current_user AND m.grantor = me.oid),
  current_setting('server_version_num')::int >= 160000, current_user,
  coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = $1), false),
  coalesce((SELECT oid FROM pg_roles WHERE rolname = $1), 0),
  coalesce((SELECT NOT rolsuper AND pg_has_role(oid, current_user, 'MEMBER') FROM pg_roles WHERE rolname = $1), false),
  (SELECT bool_or(m.admin_option) FROM pg_auth_members m JOIN pg_roles b ON b.oid = m.member
   WHERE b.rolname = $1 AND m.roleid = (SELECT oid FROM pg_roles WHERE rolname = current_user)),
  pg_postmaster_start_time()::text || '/' || current_setting('port'),
  coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)`, r).Scan(
		&m.has, &m.self, &m.v16, &m.me, &m.super, &m.oid, &m.loop, &m.direct, &m.server, &m.meSuper)
	if err != nil {
		return m, fmt.Errorf("checking membership in role %q: %w", r, err)
	}
	return m, nil
}

// grantToSelf grants the connected role membership in role r (with INHERIT
// and SET on 16+), unless it holds one it granted itself without them, which
// giving the borrowed one back would end.
func grantToSelf(ctx context.Context, q Querier, r string, m membership, inTx bool) error {
	if m.v16 && !borrowKeepsMembership(ctx, q, m.oid) {
		return fmt.Errorf("role %s needs the privileges of role %s for this change; it holds a membership in it that it granted "+
			"itself without INHERIT or SET, which taking them temporarily would end: grant the membership WITH INHERIT TRUE, SET TRUE",
			pgconn.QuoteIdent(m.me), pgconn.QuoteIdent(r))
	}
	grant := "GRANT " + pgconn.QuoteIdent(r) + " TO CURRENT_USER"
	if m.v16 {
		grant += " WITH INHERIT TRUE, SET TRUE"
	}
	if _, err := q.Exec(ctx, grant); err != nil {
		if pgconn.SQLState(err) == CodeInvalidGrantOperation {
			return circularError(r, m.me, false, m.v16, inTx, err)
		}
		return borrowError(r, m.me, m.v16, m.super, err)
	}
	return nil
}

// plainLoan is a borrowing outside a transaction: the borrower is in the
// gate of the role and holds its use lock (borrow_gate.go).
type plainLoan struct {
	gate *borrowGate
	role string
	oid  uint32
}

// acquirePlainLoan is what the first plain borrower of role r in this process
// does, on its connection: under the role's loan mutex (other provider
// processes), it takes the membership unless the connected role has the
// privileges, and takes the use lock. revoke tells whether the last plain
// borrower is to take the membership back: the one it granted, or one another
// process granted and still uses (that process then leaves it to this one).
func acquirePlainLoan(ctx context.Context, q Querier, r string) (revoke bool, err error) {
	m, err := checkMembership(ctx, q, r)
	if err != nil {
		return false, err
	}
	if err := advisory(ctx, q, "pg_advisory_lock", loanMutexClass, m.oid); err != nil {
		return false, err
	}
	defer func() {
		err = errors.Join(err, advisory(context.WithoutCancel(ctx), q, "pg_advisory_unlock", loanMutexClass, m.oid))
	}()
	if m, err = checkMembership(ctx, q, r); err != nil {
		return false, err
	}
	switch {
	case m.has && m.self:
		if revoke, err = loanInUse(ctx, q, m.oid); err != nil {
			return false, err
		}
	case m.has:
	case m.loop:
		return false, circularError(r, m.me, m.direct != nil, m.v16, false, nil)
	default:
		if err := grantToSelf(ctx, q, r, m, false); err != nil {
			return false, err
		}
		revoke = true
	}
	if err := advisory(ctx, q, "pg_advisory_lock_shared", loanUseClass, m.oid); err != nil {
		if revoke {
			err = errors.Join(err, revokeFromSelf(context.WithoutCancel(ctx), q, r))
		}
		return false, err
	}
	return revoke, nil
}

// refreshMembershipCache makes this session read its memberships afresh
// before the statement that relies on the borrowed one. A backend caches the
// roles the connected role is a member of (one list per kind of membership);
// a list built while a membership was being granted can miss it for good
// (PostgreSQL 16-18: the invalidation that arrives during the build is lost),
// so a plain borrower whose connection checked memberships just as the first
// borrower granted the shared one failed with "must be owner of database"
// until some other membership changed (before the fix:
// TestAccDatabase_regressionConcurrentDropsSameOwnerManaged, every few runs
// on PostgreSQL 18). Asking the same of another role (role, which is not a
// superuser, or it would not be borrowed) puts that role in the caches'
// place, so the statement's own check builds the connected role's lists
// again, from a catalog that holds the membership.
func refreshMembershipCache(ctx context.Context, q Querier, role uint32, v16 bool) error {
	kinds := "pg_has_role($1::oid, current_user, 'USAGE'), pg_has_role($1::oid, current_user, 'MEMBER')"
	if v16 {
		kinds += ", pg_has_role($1::oid, current_user, 'SET')"
	}
	if _, err := q.Exec(ctx, "SELECT "+kinds, role); err != nil && pgconn.SQLState(err) != pgconn.CodeUndefinedObject {
		return fmt.Errorf("refreshing the session's memberships: %w", err)
	}
	return nil
}

// releasePlainLoan is what a plain borrower of role r does on its way out: it
// lets go of the use lock; the last one in this process (last) also takes the
// membership back when revoke says so and no borrower of another process
// still uses it.
func releasePlainLoan(ctx context.Context, q Querier, oid uint32, r string) func(last, revoke bool) error {
	ctx = context.WithoutCancel(ctx)
	return func(last, revoke bool) error {
		if !last || !revoke {
			return advisory(ctx, q, "pg_advisory_unlock_shared", loanUseClass, oid)
		}
		if err := advisory(ctx, q, "pg_advisory_lock", loanMutexClass, oid); err != nil {
			return errors.Join(err, advisory(ctx, q, "pg_advisory_unlock_shared", loanUseClass, oid))
		}
		err := advisory(ctx, q, "pg_advisory_unlock_shared", loanUseClass, oid)
		if err == nil {
			var alone bool
			if alone, err = tryUse(ctx, q, oid); err == nil && alone {
				err = errors.Join(revokeFromSelf(ctx, q, r), advisory(ctx, q, "pg_advisory_unlock", loanUseClass, oid))
			}
		}
		return errors.Join(err, advisory(ctx, q, "pg_advisory_unlock", loanMutexClass, oid))
	}
}

// revokeFromSelf takes back the membership in r the connected role granted
// itself; a role dropped meanwhile took it with it.
func revokeFromSelf(ctx context.Context, q Querier, r string) error {
	if _, err := q.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(r)+" FROM CURRENT_USER"); err != nil && pgconn.SQLState(err) != pgconn.CodeUndefinedObject {
		return fmt.Errorf("revoking the temporary membership in role %q: %w", r, err)
	}
	return nil
}

// circularError explains why the connected role cannot borrow the privileges
// of role, which is a member of it (directly when direct): PostgreSQL refuses
// circular memberships, and the provider takes the membership out only where
// it safely can (borrowRoles).
func circularError(role, me string, direct, v16, inTx bool, err error) error {
	msg := fmt.Sprintf("role %s needs the privileges of role %s for this change, but %s is a member of role %s",
		pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me))
	switch {
	case !direct:
		msg += " through other roles, and PostgreSQL refuses circular memberships (the provider takes out only a direct membership " +
			"while it works). Revoke the membership that makes it a member, or apply this change with a superuser"
	case v16:
		msg += fmt.Sprintf(", and PostgreSQL refuses circular memberships. Since PostgreSQL 16 %s can neither take that membership out "+
			"(only a role with ADMIN OPTION on %s can) nor grant itself %s (it holds no ADMIN OPTION on it: %s did not create it). "+
			"Apply this change with a superuser, or have one revoke the membership (REVOKE %s FROM %s)",
			pgconn.QuoteIdent(me), pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), pgconn.QuoteIdent(me), pgconn.QuoteIdent(role))
	default: // !inTx
		msg += " (e.g. postgresql_role.roles lists it), and PostgreSQL refuses circular memberships. The provider takes that membership out " +
			"for the duration only inside a transaction, where no other session sees it gone, and PostgreSQL runs this statement outside one. " +
			fmt.Sprintf("Revoke it (REVOKE %s FROM %s) while this change is applied, or apply it with a superuser", pgconn.QuoteIdent(me), pgconn.QuoteIdent(role))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", msg, err)
	}
	return errors.New(msg)
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
			"or apply this change with a superuser: %w", pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), err)
	}
	if v16 {
		return fmt.Errorf("role %s needs the privileges of role %s for this change (membership WITH INHERIT TRUE, SET TRUE) and "+
			"cannot grant them to itself: since PostgreSQL 16 a CREATEROLE role manages only the roles it holds ADMIN OPTION on, "+
			"which are the roles it created; %s was created or is managed by another role (a superuser or the service). "+
			"Fix it once, as a superuser or a role with ADMIN OPTION on %s: GRANT %s TO %s WITH ADMIN OPTION, INHERIT FALSE, SET FALSE "+
			"(what CREATE ROLE gives the creator: the provider then grants itself the membership only while it needs it), or GRANT %s TO %s WITH INHERIT TRUE, SET TRUE "+
			"(a lasting membership): %w",
			pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role),
			pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), err)
	}
	return fmt.Errorf("role %s needs the privileges of role %s for this change and cannot grant itself membership in it "+
		"(a CREATEROLE role cannot manage superusers or, on managed services, the service's reserved roles). "+
		"Fix it once, as a superuser: GRANT %s TO %s: %w",
		pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), err)
}

// returnRoles revokes the memberships borrowRoles granted and grants back
// those it took out. A role dropped meanwhile by another session took its
// memberships with it: on a plain connection that is the end of it (nothing
// to give back); in a transaction, the transaction is retried
// (errBorrowedRoleGone), since a membership it granted would otherwise
// outlive the role.
func returnRoles(ctx context.Context, q Querier, l *loan) error {
	if l == nil {
		return nil
	}
	_, inTx := q.(pgx.Tx)
	var errs []error
	for i := len(l.plain) - 1; i >= 0; i-- {
		p := l.plain[i]
		errs = append(errs, p.gate.leavePlain(releasePlainLoan(ctx, q, p.oid, p.role)))
	}
	l.plain = nil
	for _, r := range l.granted {
		if _, err := q.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(r)+" FROM CURRENT_USER"); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeUndefinedObject {
				if inTx {
					return fmt.Errorf("%w (role %s): %w", errBorrowedRoleGone, pgconn.QuoteIdent(r), err)
				}
				continue // the membership went with the role
			}
			errs = append(errs, fmt.Errorf("revoking the temporary membership in role %q: %w", r, err))
		}
	}
	for _, s := range l.suspended {
		grant := "GRANT " + pgconn.QuoteIdent(l.me) + " TO " + pgconn.QuoteIdent(s.role)
		if s.admin {
			grant += " WITH ADMIN OPTION"
		}
		if _, err := q.Exec(ctx, grant); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeUndefinedObject {
				return fmt.Errorf("%w (role %s): %w", errBorrowedRoleGone, pgconn.QuoteIdent(s.role), err)
			}
			errs = append(errs, fmt.Errorf("granting role %s back to role %s after borrowing the privileges of %s: %w",
				pgconn.QuoteIdent(l.me), pgconn.QuoteIdent(s.role), pgconn.QuoteIdent(s.role), err))
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
