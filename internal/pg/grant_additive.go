package pg

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// The additive form of grants and default privileges (postgresql_grant_additive,
// postgresql_default_privileges_additive): "these privileges, whatever else the
// grantee holds". It grants what the grantee lacks of them and revokes only
// what it gave and no longer names (GrantSpec.Revoke, DefaultPrivilegesChange.Revoke);
// privileges other resources, other grantors or people gave stay. A REVOKE
// takes back only the grants of the role it acts as (the owner whose
// privileges the provider borrows, or the provider's role): a privilege
// another grantor gave too stays held, which is what the additive form wants
// (checkApplied does not report it).

// DefaultPrivilegesChange is an additive change of a grantee's default
// privileges: grant Grant where the entry lacks them (with grant option when
// WithGrantOption), revoke Revoke and the grant option of RevokeGrantOption
// where it holds them; leave the rest.
type DefaultPrivilegesChange struct {
	Target            DefaultPrivilegesTarget
	Grant             []string
	WithGrantOption   bool
	Revoke            []string
	RevokeGrantOption []string
}

// revokesOnly reports whether the change grants nothing: then a missing
// database, owner, grantee or schema means there is nothing left to revoke.
func (d DefaultPrivilegesChange) revokesOnly() bool { return len(d.Grant) == 0 }

func (d DefaultPrivilegesChange) change() defaclChange {
	return func(held, grantable []string) grantAction {
		return additiveAction(d.Grant, d.WithGrantOption, d.Revoke, d.RevokeGrantOption, held, grantable)
	}
}

// ChangeDefaultPrivileges applies additive changes in order: in one
// transaction when they are all in one database; otherwise those that grant
// first (a failure leaves the old privileges in place), then those that only
// revoke. A change that only revokes is done when its target no longer exists;
// one that grants fails with a NotFoundError naming what is missing.
func (c *Client) ChangeDefaultPrivileges(ctx context.Context, changes ...DefaultPrivilegesChange) error {
	if len(changes) == 0 {
		return nil
	}
	db := changes[0].Target.Database
	for _, d := range changes[1:] {
		if d.Target.Database != db {
			var grants, revokes []DefaultPrivilegesChange
			for _, d := range changes {
				if d.revokesOnly() {
					revokes = append(revokes, d)
				} else {
					grants = append(grants, d)
				}
			}
			for _, d := range append(grants, revokes...) {
				if err := c.ChangeDefaultPrivileges(ctx, d); err != nil {
					return err
				}
			}
			return nil
		}
	}
	grants := false
	for _, d := range changes {
		grants = grants || !d.revokesOnly()
	}
	if grants {
		if err := c.checkDatabase(ctx, db); err != nil {
			return err
		}
	} else {
		var dbOK bool
		err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1 AND datallowconn)", db).Scan(&dbOK)
		})
		if err != nil || !dbOK {
			return err
		}
	}
	superuser, memberOnly, err := c.defaclMode(ctx)
	if err != nil {
		return err
	}
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		for _, d := range changes {
			if err := setDefaultPrivileges(ctx, tx, superuser, memberOnly, d.Target, d.change(), d.revokesOnly()); err != nil {
				return err
			}
		}
		return nil
	})
}
