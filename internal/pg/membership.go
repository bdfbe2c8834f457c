package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// RoleMembership is one membership as the catalog holds it.
type RoleMembership struct {
	Exists      bool
	AdminOption bool
	// PostgreSQL 16 and later only.
	InheritOption bool
	SetOption     bool
}

// MembershipSpec is what postgresql_grant_role wants.
type MembershipSpec struct {
	Role, GrantRole string
	AdminOption     bool
	InheritOption   *bool // PostgreSQL >= 16
	SetOption       *bool // PostgreSQL >= 16
}

// ReadMembership reads whether role is a member of grantRole. On PostgreSQL
// 16 and later, where memberships are keyed by grantor too, it reads the row
// granted by the connected role (or by the bootstrap superuser, which is what
// a superuser's grants record), falling back to any row.
func (c *Client) ReadMembership(ctx context.Context, role, grantRole string) (*RoleMembership, bool, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, false, err
	}
	m := &RoleMembership{}
	rolesExist := false
	err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		if err := q.QueryRow(ctx, "SELECT count(*) = 2 FROM pg_roles WHERE rolname IN ($1, $2)", role, grantRole).Scan(&rolesExist); err != nil {
			return err
		}
		if role == grantRole {
			rolesExist = false
		}
		if !rolesExist {
			return nil
		}
		query := `SELECT m.admin_option, true, true FROM pg_auth_members m
JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid
WHERE r.rolname = $1 AND g.rolname = $2 LIMIT 1`
		if caps.AtLeast(16) {
			query = `SELECT m.admin_option, m.inherit_option, m.set_option FROM pg_auth_members m
JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid
WHERE r.rolname = $1 AND g.rolname = $2
ORDER BY ` + membershipRowOrder + ` LIMIT 1`
		}
		err := q.QueryRow(ctx, query, role, grantRole).Scan(&m.AdminOption, &m.InheritOption, &m.SetOption)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		m.Exists = true
		return nil
	})
	return m, rolesExist, err
}

// membershipRowOrder picks, on PostgreSQL 16+ where a membership is one row
// per grantor, the row postgresql_grant_role manages: the one the connected
// role granted, else the bootstrap superuser's (what superusers' grants
// record), else any (a membership that exists already is adopted).
const membershipRowOrder = `(m.grantor = (SELECT oid FROM pg_roles WHERE rolname = current_user)) DESC, (m.grantor = 10) DESC, m.grantor`

// SetMembership grants grantRole to role with the given options, or changes
// the options of an existing membership, under advisory locks on both roles;
// a membership that already has them is left as it is (only read).
func (c *Client) SetMembership(ctx context.Context, s MembershipSpec) error {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	if !caps.AtLeast(16) && (s.InheritOption != nil || s.SetOption != nil) {
		return fmt.Errorf("inherit_option and set_option need PostgreSQL 16 or later; the server runs %s", caps.ServerVersion)
	}
	return awaitReversed(ctx, func() error {
		return c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error { return setMembership(ctx, tx, caps, s) })
	})
}

// awaitReversed runs grant and, while it fails because the group is a member
// of the role (PostgreSQL refuses a circular membership), runs it again for
// a few seconds: a membership reversed in one apply (b in a becomes a in b)
// is revoked by another resource's destroy, which Terraform runs before or
// after the grant (the walk, seed 12003 step 10 as the superuser on
// PostgreSQL 15). The failed grant changed nothing, so running it again is
// safe; a membership that stays circular fails as before.
func awaitReversed(ctx context.Context, grant func() error) error {
	for i := 0; ; i++ {
		err := grant()
		if err == nil || i >= 20 || pgconn.SQLState(err) != "0LP01" || !strings.Contains(err.Error(), "is a member of role") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// MoveMembership revokes the membership of fromRole in fromGrantRole (what
// the resource named before: roles that still exist under those names) and
// sets the membership s, in one transaction.
func (c *Client) MoveMembership(ctx context.Context, fromRole, fromGrantRole string, s MembershipSpec) error {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	if !caps.AtLeast(16) && (s.InheritOption != nil || s.SetOption != nil) {
		return fmt.Errorf("inherit_option and set_option need PostgreSQL 16 or later; the server runs %s", caps.ServerVersion)
	}
	return awaitReversed(ctx, func() error { return c.moveMembership(ctx, caps, fromRole, fromGrantRole, s) })
}

func (c *Client) moveMembership(ctx context.Context, caps *pgconn.Capabilities, fromRole, fromGrantRole string, s MembershipSpec) error {
	return c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		if err := revokeMembership(ctx, tx, caps, fromRole, fromGrantRole); err != nil {
			return err
		}
		return setMembership(ctx, tx, caps, s)
	})
}

// MembershipFrom is the membership that the roles a resource named before
// (fromRole in fromGrantRole) name now that it names role in grantRole: each
// taken as renamed to the new name when it no longer exists under its old
// one (memberships are keyed by OIDs: they followed the rename). When the
// result is (role, grantRole), the membership is already where it belongs.
func (c *Client) MembershipFrom(ctx context.Context, fromRole, fromGrantRole, role, grantRole string) (string, string, error) {
	var roleOK, grantOK bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1), exists(SELECT 1 FROM pg_roles WHERE rolname = $2)",
			fromRole, fromGrantRole).Scan(&roleOK, &grantOK)
	})
	if !roleOK {
		fromRole = role
	}
	if !grantOK {
		fromGrantRole = grantRole
	}
	return fromRole, fromGrantRole, err
}

// setMembership is SetMembership in transaction tx.
func setMembership(ctx context.Context, tx pgx.Tx, caps *pgconn.Capabilities, s MembershipSpec) error {
	if err := lockRoles(ctx, tx, []string{s.Role, s.GrantRole}); err != nil {
		return err
	}
	var admin bool
	var exists bool
	err := tx.QueryRow(ctx, `SELECT coalesce(bool_or(m.admin_option), false), count(*) > 0 FROM pg_auth_members m
JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid WHERE r.rolname = $1 AND g.rolname = $2`, s.Role, s.GrantRole).Scan(&admin, &exists)
	if err != nil {
		return err
	}
	if exists && admin && !s.AdminOption {
		if _, err := tx.Exec(ctx, "REVOKE ADMIN OPTION FOR "+pgconn.QuoteIdent(s.GrantRole)+" FROM "+pgconn.QuoteIdent(s.Role)); err != nil {
			return fmt.Errorf("revoking admin option of role %q from %q: %w", s.GrantRole, s.Role, err)
		}
	}
	if err := yieldLasting(ctx, tx, s.Role, s.GrantRole); err != nil {
		return err
	}
	stmt := "GRANT " + pgconn.QuoteIdent(s.GrantRole) + " TO " + pgconn.QuoteIdent(s.Role)
	if caps.AtLeast(16) {
		// A membership that already has the wanted options is kept as it
		// is: granted by another role, granting it again would add a
		// second row, granted by the provider's role; granted by the
		// provider's role, there is nothing to change.
		var adopt bool
		err := tx.QueryRow(ctx, `SELECT m.admin_option = $3 AND ($4::bool IS NULL OR m.inherit_option = $4) AND ($5::bool IS NULL OR m.set_option = $5)
FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid
WHERE r.rolname = $1 AND g.rolname = $2 ORDER BY `+membershipRowOrder+` LIMIT 1`, s.Role, s.GrantRole, s.AdminOption, s.InheritOption, s.SetOption).Scan(&adopt)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if adopt {
			return nil
		}
		// GRANT on an existing membership (same grantor) updates its options.
		opts := []string{"ADMIN " + boolWord(s.AdminOption)}
		if s.InheritOption != nil {
			opts = append(opts, "INHERIT "+boolWord(*s.InheritOption))
		}
		if s.SetOption != nil {
			opts = append(opts, "SET "+boolWord(*s.SetOption))
		}
		stmt += " WITH " + strings.Join(opts, ", ")
	} else {
		if exists && (admin == s.AdminOption || !s.AdminOption) {
			return nil
		}
		if s.AdminOption {
			stmt += " WITH ADMIN OPTION"
		}
	}
	if _, err := tx.Exec(ctx, stmt); err != nil {
		if strings.Contains(err.Error(), "granted back to your own grantor") {
			return fmt.Errorf("granting role %q to %q with these options: %q granted the provider's role its ADMIN OPTION on %q, "+
				"and PostgreSQL 16+ does not let a role grant ADMIN OPTION back to its own grantor. Have %q's membership changed by a superuser, "+
				"or by the role that granted it: %w", s.GrantRole, s.Role, s.Role, s.GrantRole, s.Role, err)
		}
		return fmt.Errorf("granting role %q to %q: %w", s.GrantRole, s.Role, err)
	}
	return nil
}

func boolWord(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// RevokeMembership revokes grantRole from role; missing roles or membership are not errors.
func (c *Client) RevokeMembership(ctx context.Context, role, grantRole string) error {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return err
	}
	return c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error { return revokeMembership(ctx, tx, caps, role, grantRole) })
}

// revokeMembership is RevokeMembership in transaction tx.
//
// A role renamed by another session while the revoke runs (its
// postgresql_role in the same apply) makes REVOKE find no role of the old
// name, which it takes for a dropped role (the membership went with it): the
// membership, recorded by OIDs, stayed under the new name (the long walk,
// seed 27007 step 17 as the managed admin on PostgreSQL 15: a
// postgresql_grant_role moved to another member while its old member was
// renamed). So the roles' OIDs are read first, and the revoke runs again
// under their new names while the membership is still there.
func revokeMembership(ctx context.Context, tx pgx.Tx, caps *pgconn.Capabilities, role, grantRole string) error {
	var roleOID, grantOID *uint32
	if err := tx.QueryRow(ctx, "SELECT (SELECT oid FROM pg_roles WHERE rolname = $1), (SELECT oid FROM pg_roles WHERE rolname = $2)",
		role, grantRole).Scan(&roleOID, &grantOID); err != nil {
		return err
	}
	for try := 0; ; try++ {
		if err := revokeMembershipOnce(ctx, tx, caps, role, grantRole); err != nil || roleOID == nil || grantOID == nil || try == 2 {
			return err
		}
		var still bool
		var nowRole, nowGrant *string
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_auth_members WHERE member = $1 AND roleid = $2),
  (SELECT rolname FROM pg_roles WHERE oid = $1), (SELECT rolname FROM pg_roles WHERE oid = $2)`, *roleOID, *grantOID).Scan(&still, &nowRole, &nowGrant); err != nil {
			return err
		}
		if !still || nowRole == nil || nowGrant == nil || *nowRole == role && *nowGrant == grantRole {
			return nil
		}
		role, grantRole = *nowRole, *nowGrant
	}
}

// revokeMembershipOnce is one attempt of revokeMembership.
func revokeMembershipOnce(ctx context.Context, tx pgx.Tx, caps *pgconn.Capabilities, role, grantRole string) error {
	if err := lockRoles(ctx, tx, []string{role, grantRole}); err != nil {
		return err
	}
	// One row per grantor on PostgreSQL 16+ (one row before): each is
	// revoked that the provider's role may revoke, its own grant and those
	// of roles whose privileges it has (a superuser: all of them).
	rows, err := tx.Query(ctx, `SELECT gr.rolname, gr.rolname = current_user FROM pg_auth_members m
JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles gr ON gr.oid = m.grantor
WHERE r.rolname = $1 AND g.rolname = $2 AND (gr.rolname = current_user OR pg_has_role(current_user, gr.oid, 'USAGE')
  OR current_setting('server_version_num')::int < 160000)
ORDER BY 2 DESC`, role, grantRole)
	if err != nil {
		return err
	}
	type row struct {
		Grantor string
		Mine    bool
	}
	grants, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	if err != nil {
		return err
	}
	for i, g := range grants {
		stmt := "REVOKE " + pgconn.QuoteIdent(grantRole) + " FROM " + pgconn.QuoteIdent(role)
		if caps.AtLeast(16) && !g.Mine {
			stmt += " GRANTED BY " + pgconn.QuoteIdent(g.Grantor)
		} else if i > 0 {
			break // before 16 one REVOKE ends the membership
		}
		// either role (or the grantor) may be dropped meanwhile by another
		// session, which ends the membership (revoke.go)
		gone, err := revokeStatement(ctx, tx, rolesGone(role, grantRole, g.Grantor), stmt)
		if err != nil {
			return fmt.Errorf("revoking role %q from %q: %w", grantRole, role, err)
		}
		if gone {
			break
		}
	}
	return nil
}
