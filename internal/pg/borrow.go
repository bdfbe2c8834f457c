package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Borrowing an owner's privileges
//
// Managed services (AWS RDS, Cloud SQL, Azure) give the admin CREATEROLE but
// not superuser. Acting on an object owned by another role, or giving an
// object to another role, then needs the privileges of that role: the admin
// takes them by granting itself membership in it (GRANT role TO
// CURRENT_USER), which PostgreSQL 15 and older allow a CREATEROLE role for any
// non-superuser role, and 16+ for the roles it holds ADMIN OPTION on: those it
// created (CREATE ROLE records that grant). Every such borrowing goes through
// this file (borrowRoles, returnRoles, withRoles).
//
// # States
//
// What the admin (A) holds of a role R, as one borrowing sees it:
//
//   - none: A does not have R's privileges;
//   - held: A has them through a committed membership: one a user granted, or
//     a lasting one A granted itself (the row of pg_auth_members with R, A
//     and grantor A; on 16+ WITH INHERIT TRUE, SET TRUE);
//   - lent (PostgreSQL 15 and older, inside a transaction only): the
//     transaction granted A a membership in R, which it revokes before it
//     ends, so that no other session ever sees it;
//   - suspended (15 and older, inside a transaction only): R is a direct
//     member of A's role, which PostgreSQL's ban on circular memberships
//     makes incompatible with A being a member of R: the transaction takes
//     R's membership in A out, lends A the membership in R, and gives both
//     back (with the ADMIN OPTION R had) before it ends.
//
// The privileges of R that A has only through other roles (A a member of
// a role that is a member of R) count as none when A can get a membership
// of its own: another session (a postgresql_grant_role or a role's `roles`
// destroyed in the same apply) may revoke a link of that chain at any
// moment, and a session sees it gone when it next reads invalidations, in
// the middle of its transaction too. When A cannot grant itself R, the
// chain is relied on, as nothing better is possible.
//
// Each borrowing decides from one catalog check (decide, unit-tested over
// every state in borrow_test.go):
//
//	none --take--> held              on 16+; on 15 and older outside a transaction
//	none --lend--> lent --return--> none              15 and older, in a transaction
//	none --suspend, lend--> suspended --return--> none   likewise, R a direct member of A
//	held --------> held              nothing to do
//
// and never held --> none: a borrowing never revokes a membership that has
// been committed. (The one revocation of a lasting membership is not a
// borrowing's: when a user makes R a member of A's role, which PostgreSQL
// refuses while A is a member of R, the grant gives A's lasting membership in
// R back first, yieldLasting; R is then borrowed by suspension.)
//
// # Invariants
//
//  1. A committed membership of A in R is never revoked by a borrowing. So no
//     borrower, in this provider process or in another (every provider alias
//     is a plugin process of its own), connected to any database, can lose a
//     membership it relies on, and borrowers need no coordination: no locks,
//     no counting of who uses a membership, nothing kept per process.
//  2. A lent membership and a suspension exist only inside the transaction
//     that made them, and that transaction revokes only the row it inserted
//     (lend checks the row's xmin): when another session committed a lasting
//     membership meanwhile, the GRANT changed nothing and there is nothing of
//     this transaction's to give back.
//  3. Concurrent grants of one membership are serialised by PostgreSQL: on 16+
//     GRANT locks the role (AddRoleMems, src/backend/commands/user.c: a
//     ShareUpdateExclusiveLock on the role, a shared object, so for the whole
//     cluster, until the transaction ends); on 15 and older a GRANT waits on
//     the unique index of pg_auth_members for a transaction that inserted the
//     same membership, and fails with unique_violation (23505) if that
//     transaction committed it. A borrower
//     outside a transaction then has the membership it wanted; a transaction
//     is retried (pgconn.TransientError) and its retry finds the membership
//     held.
//  4. A session relies on a membership only once its own membership caches
//     show it (catchUp), see below.
//
// Statements PostgreSQL runs outside a transaction (CREATE and DROP DATABASE,
// ALTER DATABASE ... SET TABLESPACE) need the membership committed, where
// every session sees it, so they always take a lasting one; those borrowings
// must run on one dedicated connection (Client.Conn), since the caches
// invariant 4 is about are the session's.
//
// # What it leaves in the cluster
//
// On PostgreSQL 16 and later the admin keeps, in every role whose privileges
// it needed, one membership it granted itself WITH INHERIT TRUE, SET TRUE,
// and no ADMIN OPTION: what createrole_self_grant = 'set, inherit' would have
// given it when it created the role. It adds no power: an admin with ADMIN
// OPTION on a role can grant itself that membership at any time (PostgreSQL's
// commit e5b8a4c098ad6add39626a14475148872cd687e0, "Add new GUC
// createrole_self_grant", says as much). On 15 and older it keeps a
// membership in the owners of the databases it created, dropped or moved for
// them; the other borrowings there are lent, inside their transaction. The
// memberships go with their role when it is dropped.
//
// # The membership cache (invariant 4)
//
// A backend caches the list of roles the connected role is a member of, one
// list per kind of membership (roles_is_member_of, cached_role/cached_roles
// in src/backend/utils/adt/acl.c); RoleMembershipCacheCallback marks the
// lists stale when pg_auth_members or pg_authid change. Two things make a
// list miss a membership another session committed:
//
//   - A transaction's commit becomes visible to other sessions' snapshots
//     before its invalidation messages are sent (CommitTransaction,
//     src/backend/access/transam/xact.c: ProcArrayEndTransaction, then
//     AtEOXact_Inval, then the release of its locks); a session reads them at
//     the start of its next transaction or when it takes a lock on a relation
//     it had not locked yet in this transaction. So a session can see the
//     membership in pg_auth_members and not in its caches.
//   - roles_is_member_of assigns cached_role once it has built the list, so an
//     invalidation that arrives while it builds it (its catalog lookups
//     process pending invalidations) is lost, and the list misses the new
//     membership until the next change of pg_auth_members (observed on
//     PostgreSQL 18: "must be owner of database" from a session whose check
//     had run while another granted the membership).
//
// catchUp therefore first asks about another role, which puts that role's
// lists in the cache's place, so that the next check builds the connected
// role's lists again from the catalog caches; when they still miss a
// membership the catalog holds, the invalidation has not been sent yet: a
// transaction is retried (it cannot read invalidations for the catalogs it
// has locked), a plain connection asks again a moment later. A list that
// holds the membership keeps holding it: invariant 1.

// loan is what borrowRoles took, for returnRoles to give back: the
// memberships it lent the connected role inside the transaction, and the
// memberships of those roles in the connected role that it took out
// meanwhile (suspended). Lasting memberships are not part of it.
type loan struct {
	me        string
	lent      []string
	suspended []suspension
}

// suspension is a membership of a borrowed role in the connected role, taken
// out while the connected role holds the borrowed role's privileges:
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

// codeUniqueViolation is the SQLSTATE of a GRANT that raced another session's
// GRANT of the same membership (PostgreSQL 15 and older).
const codeUniqueViolation = "23505"

// errBorrowedRoleGone is the error of a transaction whose borrowed role was
// dropped by another session before it gave the membership back: the
// transaction is rolled back and retried (IsTransient), and the retry no
// longer borrows the role.
var errBorrowedRoleGone = &pgconn.TransientError{Err: errors.New("a role whose privileges this change borrowed was dropped meanwhile by another session")}

// step is what a borrowing does about one role (decide).
type step int

const (
	stepNone    step = iota // nothing: no such role, a superuser admin, or the privileges are held
	stepCatchUp             // the catalog holds a lasting membership this session's caches do not show yet
	stepTake                // grant a lasting membership
	stepLend                // grant a membership given back before the transaction ends (15 and older)
	stepSuspend             // take the role's membership in the admin's out, then lend (15 and older)
	stepRefuse              // impossible: the error says why and what fixes it
)

func (s step) String() string {
	return [...]string{"none", "catch up", "take", "lend", "suspend", "refuse"}[s]
}

// decide is the borrowing's state machine (see the top of this file): what
// to do about a role, given what checkMembership found and whether the
// borrowing is inside a transaction.
func decide(m membership, inTx bool) (step, error) {
	switch {
	case m.oid == 0 || m.meSuper || m.has:
		return stepNone, nil
	case m.lasting:
		return stepCatchUp, nil
	case m.indirect && (m.partial || !m.canGrant):
		// the privileges come only through other roles, and the connected
		// role cannot get a membership of its own: the chain is all there is
		return stepNone, nil
	case m.partial:
		return stepRefuse, fmt.Errorf("role %s needs the privileges of role %s for this change; it holds a membership in it that it granted "+
			"itself without INHERIT or SET (for example through createrole_self_grant): grant it WITH INHERIT TRUE, SET TRUE "+
			"(GRANT %s TO %s WITH INHERIT TRUE, SET TRUE), which the provider then uses",
			pgconn.QuoteIdent(m.me), pgconn.QuoteIdent(m.role), pgconn.QuoteIdent(m.role), pgconn.QuoteIdent(m.me))
	case m.loop && (m.direct == nil || m.v16 || !inTx):
		return stepRefuse, circularError(m.role, m.me, m.direct != nil, m.v16, inTx, nil)
	case m.loop:
		return stepSuspend, nil
	case m.v16 || !inTx:
		return stepTake, nil
	default:
		return stepLend, nil
	}
}

// borrowRoles gives the connected role the privileges of each of roles it
// lacks (decide), and returns what it lent (a loan, for returnRoles). "",
// repetitions, superusers' needs and roles that do not exist (the statement
// that needs them fails with its own error) are skipped. Roles are borrowed in
// name order, so that transactions borrowing the same roles queue instead of
// deadlocking. pg_database_owner stands for the current database's owner,
// whose privileges are borrowed (lender.go).
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
	hooks := borrowHooksOf(ctx)
	for _, r := range sorted {
		if r == "" {
			continue
		}
		m, err := checkMembership(ctx, q, r)
		if err != nil {
			return l, err
		}
		l.me = m.me
		hooks.call(hooks.checked, r)
		s, err := decide(m, inTx)
		switch s {
		case stepNone:
		case stepRefuse:
			return l, err
		case stepCatchUp:
			err = catchUp(ctx, q, m, inTx)
		case stepTake:
			err = take(ctx, q, m, inTx)
		case stepSuspend:
			if err = suspend(ctx, q.(pgx.Tx), m, l); err == nil {
				err = lend(ctx, q, m, l)
			}
		case stepLend:
			err = lend(ctx, q, m, l)
		}
		if err != nil {
			return l, err
		}
		hooks.call(hooks.held, r)
	}
	return l, nil
}

// membership is what checkMembership found about the connected role (me) and
// a role whose privileges it may need.
type membership struct {
	role string
	// has: the connected role has the privileges of the role already,
	// through a membership of its own in it (a row of pg_auth_members with
	// it as the member, whoever granted it), and its session's caches say
	// so (on 16+ USAGE and SET: it needs the role's privileges (INHERIT)
	// and the right to SET ROLE to it (giving it objects)); true for no
	// such role. Privileges that come only through other roles do not
	// count: another session may revoke a link of that chain at any time
	// (a postgresql_grant_role or a role's `roles` destroyed in the same
	// apply), and a statement relying on it then fails ("permission denied
	// to change default privileges"); see indirect.
	has bool
	// indirect: the session has the privileges, but only through other
	// roles; the borrowing takes a membership of its own when it can
	// (canGrant), and relies on the chain otherwise
	indirect bool
	// canGrant: the connected role can grant itself membership in the role
	// (16+: it holds ADMIN OPTION on it; 15 and older: it has CREATEROLE
	// and the role is no superuser)
	canGrant bool
	// lasting: the catalog holds a membership the connected role granted
	// itself (on 16+ WITH INHERIT TRUE, SET TRUE): a lasting one, or one lent
	// by this very transaction
	lasting bool
	// partial: the catalog holds a membership the connected role granted
	// itself without INHERIT or SET (16+), which a lasting one would replace
	partial bool
	v16     bool
	super   bool // the role is a superuser
	meSuper bool // the connected role is a superuser
	loop    bool // the role is a member of the connected role
	me      string
	oid     uint32
	direct  *bool // the role's own membership in the connected role, with its ADMIN OPTION
}

// checkMembership reads what decide needs about the connected role and role
// r, in one query. Membership rows are read as JSON so that the query runs on
// every version: inherit_option and set_option exist from 16 on.
func checkMembership(ctx context.Context, q Querier, r string) (membership, error) {
	m := membership{role: r}
	err := q.QueryRow(ctx, `WITH me AS (SELECT oid, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user),
  target AS (SELECT oid, rolsuper FROM pg_roles WHERE rolname = $1),
  rows AS (SELECT m.grantor = me.oid AS self,
      coalesce((to_jsonb(m) ->> 'inherit_option')::bool, true) AND coalesce((to_jsonb(m) ->> 'set_option')::bool, true) AS usable
    FROM pg_auth_members m, me, target WHERE m.roleid = target.oid AND m.member = me.oid),
  cached AS (SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
      THEN pg_has_role(current_user, $1::text, 'USAGE') AND pg_has_role(current_user, $1::text, 'SET')
    ELSE pg_has_role(current_user, $1::text, 'MEMBER') END AS has FROM target)
SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM target) OR (SELECT oid FROM target) = (SELECT oid FROM me) THEN true
  ELSE EXISTS (SELECT 1 FROM rows WHERE usable) AND (SELECT has FROM cached) END,
  EXISTS (SELECT 1 FROM target WHERE oid <> (SELECT oid FROM me)) AND NOT EXISTS (SELECT 1 FROM rows WHERE usable) AND coalesce((SELECT has FROM cached), false),
  EXISTS (SELECT 1 FROM rows WHERE self AND usable), EXISTS (SELECT 1 FROM rows WHERE self AND NOT usable),
  current_setting('server_version_num')::int >= 160000, current_user,
  coalesce((SELECT rolsuper FROM target), false),
  coalesce((SELECT oid FROM target), 0),
  coalesce((SELECT NOT rolsuper AND pg_has_role(oid, current_user, 'MEMBER') FROM target), false),
  (SELECT bool_or(m.admin_option) FROM pg_auth_members m, me, target WHERE m.member = target.oid AND m.roleid = me.oid),
  coalesce((SELECT rolsuper FROM me), false),
  coalesce((SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN pg_has_role(current_user, t.oid, 'MEMBER WITH ADMIN OPTION')
    ELSE NOT t.rolsuper AND (SELECT rolcreaterole FROM me) END FROM target t), false)`, r).Scan(
		&m.has, &m.indirect, &m.lasting, &m.partial, &m.v16, &m.me, &m.super, &m.oid, &m.loop, &m.direct, &m.meSuper, &m.canGrant)
	if pgconn.SQLState(err) == pgconn.CodeUndefinedObject {
		// dropped by another session between the lookups of the query
		// (pg_has_role resolves the name afresh): as no such role, the
		// statement that needs it fails with its own error
		return membership{role: r, has: true}, nil
	}
	if err != nil {
		return m, fmt.Errorf("checking membership in role %q: %w", r, err)
	}
	return m, nil
}

// grantStatement grants the connected role membership in role (on 16+ with
// the privileges and SET ROLE, without ADMIN OPTION).
func grantStatement(role string, v16 bool) string {
	grant := "GRANT " + pgconn.QuoteIdent(role) + " TO CURRENT_USER"
	if v16 {
		grant += " WITH INHERIT TRUE, SET TRUE"
	}
	return grant
}

// grantFailed explains a GRANT of membership to the connected role that
// failed; a race with another session's GRANT of the same membership is for
// the caller (raced).
func grantFailed(m membership, inTx bool, err error) (raced bool, _ error) {
	switch pgconn.SQLState(err) {
	case codeUniqueViolation:
		return true, err
	case CodeInvalidGrantOperation:
		return false, circularError(m.role, m.me, false, m.v16, inTx, err)
	}
	return false, borrowError(m.role, m.me, m.v16, m.super, err)
}

// take grants the connected role a lasting membership in the role: committed
// at once outside a transaction, with the transaction inside one.
func take(ctx context.Context, q Querier, m membership, inTx bool) error {
	if _, err := q.Exec(ctx, grantStatement(m.role, m.v16)); err != nil {
		raced, gerr := grantFailed(m, inTx, err)
		if !raced {
			return gerr
		}
		if inTx {
			return &pgconn.TransientError{Err: fmt.Errorf("another session granted the membership in role %s at the same time: %w", pgconn.QuoteIdent(m.role), err)}
		}
		// another session committed the same membership meanwhile: it is there
	}
	return catchUp(ctx, q, m, inTx)
}

// lend grants the connected role membership in the role inside the
// transaction and records it for returnRoles, if the GRANT inserted it: when
// another session committed a lasting membership in the role meanwhile, the
// GRANT changed nothing (and the transaction relies on that membership).
func lend(ctx context.Context, q Querier, m membership, l *loan) error {
	if _, err := q.Exec(ctx, grantStatement(m.role, m.v16)); err != nil {
		raced, gerr := grantFailed(m, true, err)
		if raced {
			return &pgconn.TransientError{Err: fmt.Errorf("another session granted the membership in role %s at the same time: %w", pgconn.QuoteIdent(m.role), err)}
		}
		return gerr
	}
	var inserted bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.oid = m.member
  WHERE m.roleid = $1 AND me.rolname = current_user AND m.xmin::text = (txid_current_if_assigned() % 4294967296)::text)`, m.oid).Scan(&inserted); err != nil {
		return fmt.Errorf("checking the membership in role %q: %w", m.role, err)
	}
	if inserted {
		l.lent = append(l.lent, m.role)
		return nil
	}
	return catchUp(ctx, q, m, true)
}

// suspend takes the role's direct membership in the connected role out for
// the transaction (15 and older): PostgreSQL refuses the connected role a
// membership in a role that is a member of it. Concurrent borrowers of the
// role in this database queue here (another database's get "tuple
// concurrently deleted" and retry).
func suspend(ctx context.Context, tx pgx.Tx, m membership, l *loan) error {
	if err := lockRoles(ctx, tx, []string{m.role}); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(m.me)+" FROM "+pgconn.QuoteIdent(m.role)); err != nil {
		return fmt.Errorf("taking the membership of role %s in role %s out while borrowing the privileges of %s: %w",
			pgconn.QuoteIdent(m.role), pgconn.QuoteIdent(m.me), pgconn.QuoteIdent(m.role), err)
	}
	l.suspended = append(l.suspended, suspension{role: m.role, admin: *m.direct})
	return nil
}

// catchUpAttempts and catchUpFirstWait bound how long a plain connection waits
// for its caches to show a membership another session committed: about
// 0.5 s in all (the other session sends its invalidations right after its
// commit).
const (
	catchUpAttempts  = 9
	catchUpFirstWait = 2 * time.Millisecond
)

// catchUp makes sure the session's membership caches show the connected
// role's membership in the role, which the catalog holds (invariant 4 at the
// top of this file): refreshMembershipCache, then the check the statement
// will make. A transaction that does not see it yet is retried; a plain
// connection asks again a moment later.
func catchUp(ctx context.Context, q Querier, m membership, inTx bool) error {
	wait := catchUpFirstWait
	for attempt := 1; ; attempt++ {
		if err := refreshMembershipCache(ctx, q, m.oid, m.v16); err != nil {
			return err
		}
		var has bool
		err := q.QueryRow(ctx, `SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
  THEN pg_has_role(current_user, $1::oid, 'USAGE') AND pg_has_role(current_user, $1::oid, 'SET')
  ELSE pg_has_role(current_user, $1::oid, 'MEMBER') END`, m.oid).Scan(&has)
		switch {
		case pgconn.SQLState(err) == pgconn.CodeUndefinedObject:
			return nil // the role went meanwhile: the statement fails with its own error
		case err != nil:
			return fmt.Errorf("checking membership in role %q: %w", m.role, err)
		case has:
			return nil
		}
		lag := fmt.Errorf("role %s holds a membership in role %s that this session does not see yet (another session has just granted it)",
			pgconn.QuoteIdent(m.me), pgconn.QuoteIdent(m.role))
		if inTx {
			return &pgconn.TransientError{Err: lag}
		}
		if attempt == catchUpAttempts {
			return lag
		}
		select {
		case <-ctx.Done():
			return errors.Join(lag, ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// refreshMembershipCache makes the session read the connected role's
// memberships afresh at its next check (the membership cache at the top of
// this file): asking the same of another role (role, which is not a
// superuser, or it would not be borrowed) puts that role's lists in the
// caches' place, so the next check builds the connected role's lists again,
// from the catalog caches.
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

// yieldLasting gives back, in transaction tx, the lasting membership the
// connected role took in role member, before group is granted to member when
// group is the connected role: PostgreSQL refuses the circular membership
// (0LP01, "role ... is a member of role ..."). It is the one case where a
// committed borrowed membership is revoked (a user made the borrowed role a
// member of the admin's, `roles = ["<admin>"]`, which on PostgreSQL 15 and
// older a CREATEROLE admin may do): later borrowings of member take its
// membership in the connected role out inside their transaction instead
// (decide). A membership in member that another role granted the connected
// role is the user's: PostgreSQL's error stands.
func yieldLasting(ctx context.Context, tx pgx.Tx, member, group string) error {
	var own bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.oid = m.member
  WHERE me.rolname = current_user AND me.rolname = $2 AND m.roleid = (SELECT oid FROM pg_roles WHERE rolname = $1) AND m.grantor = me.oid)`,
		member, group).Scan(&own)
	if err != nil || !own {
		return err
	}
	if _, err := tx.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(member)+" FROM CURRENT_USER"); err != nil {
		return fmt.Errorf("giving back the membership in role %s that role %s took to borrow its privileges, before %s becomes a member of %s: %w",
			pgconn.QuoteIdent(member), pgconn.QuoteIdent(group), pgconn.QuoteIdent(member), pgconn.QuoteIdent(group), err)
	}
	return nil
}

// borrowKeepsMembership reports whether the connected role, a member of role
// (by OID) without its privileges, can get them by borrowing (for plan-time
// and grant checks made before borrowRoles): on PostgreSQL 16+, where the
// borrowed membership is a row of its own (granted by the connected role),
// unless the connected role granted itself one without INHERIT or SET, which
// a borrowing would have to change (decide refuses). On older servers a
// member without the privileges is a NOINHERIT role, which borrowing cannot
// change.
func borrowKeepsMembership(ctx context.Context, q Querier, role uint32) bool {
	var ok bool
	err := q.QueryRow(ctx, `SELECT current_setting('server_version_num')::int >= 160000 AND NOT EXISTS (
  SELECT 1 FROM pg_auth_members m JOIN pg_roles me ON me.rolname = current_user
  WHERE m.roleid = $1 AND m.member = me.oid AND m.grantor = me.oid
    AND NOT (coalesce((to_jsonb(m) ->> 'inherit_option')::bool, true) AND coalesce((to_jsonb(m) ->> 'set_option')::bool, true)))`, role).Scan(&ok)
	return err == nil && ok
}

// circularError explains why the connected role cannot borrow the privileges
// of role, which is a member of it (directly when direct): PostgreSQL refuses
// circular memberships, and the provider takes the membership out only where
// it safely can (decide).
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
			"(what CREATE ROLE gives the creator: the provider then grants itself the membership WITH INHERIT TRUE, SET TRUE when it "+
			"first needs it, and keeps it), or GRANT %s TO %s WITH INHERIT TRUE, SET TRUE: %w",
			pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role),
			pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), err)
	}
	return fmt.Errorf("role %s needs the privileges of role %s for this change and cannot grant itself membership in it "+
		"(a CREATEROLE role cannot manage superusers or, on managed services, the service's reserved roles). "+
		"Fix it once, as a superuser: GRANT %s TO %s: %w",
		pgconn.QuoteIdent(me), pgconn.QuoteIdent(role), pgconn.QuoteIdent(role), pgconn.QuoteIdent(me), err)
}

// returnRoles revokes the memberships borrowRoles lent and grants back those
// it took out, before the transaction ends; lasting memberships stay
// (invariant 1). A lent role dropped meanwhile by another session took its
// memberships with it: the transaction is retried (errBorrowedRoleGone),
// since a membership it granted would otherwise outlive the role.
func returnRoles(ctx context.Context, q Querier, l *loan) error {
	if l == nil {
		return nil
	}
	var errs []error
	for _, r := range l.lent {
		if _, err := q.Exec(ctx, "REVOKE "+pgconn.QuoteIdent(r)+" FROM CURRENT_USER"); err != nil {
			if pgconn.SQLState(err) == pgconn.CodeUndefinedObject {
				return fmt.Errorf("%w (role %s): %w", errBorrowedRoleGone, pgconn.QuoteIdent(r), err)
			}
			errs = append(errs, fmt.Errorf("revoking the temporary membership in role %q: %w", r, err))
		}
	}
	l.lent = nil
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
	l.suspended = nil
	return errors.Join(errs...)
}

// withRoles runs fn with the privileges of roles borrowed (borrowRoles) and
// gives back what was lent afterwards. In a transaction a failed fn rolls
// everything back anyway.
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

// borrowHooks are the points of a borrowing where a test makes other sessions
// act, to reproduce an interleaving without timing (withBorrowHooks): each is
// called with the name of the role being borrowed.
type borrowHooks struct {
	checked func(role string) // the session has checked its membership and not acted yet
	held    func(role string) // the session holds the role's privileges; its statement has not run yet
}

func (borrowHooks) call(f func(string), role string) {
	if f != nil {
		f(role)
	}
}

type borrowHooksKey struct{}

// withBorrowHooks returns a context whose borrowings call hooks.
func withBorrowHooks(ctx context.Context, hooks borrowHooks) context.Context {
	return context.WithValue(ctx, borrowHooksKey{}, hooks)
}

func borrowHooksOf(ctx context.Context) borrowHooks {
	h, _ := ctx.Value(borrowHooksKey{}).(borrowHooks)
	return h
}
