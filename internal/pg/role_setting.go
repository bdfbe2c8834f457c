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

// RoleSetting is one configuration parameter a session gets at login, from
// pg_db_role_setting: a role's (ALTER ROLE ... [IN DATABASE ...] SET) or a
// database's for every role (ALTER DATABASE ... SET).
type RoleSetting struct {
	// Role is "" for a database's setting for every role (Database is set then).
	Role string
	// Database is "" for a role's setting in every database.
	Database  string
	Parameter string
	// Value is the value as PostgreSQL stores it (for a list parameter, the
	// elements joined by ", ", quoted where needed).
	Value string
	// Info is what pg_settings says of the parameter (nil when it has no row:
	// a custom variable), for comparing values (SettingValuesEqual).
	Info *SettingInfo
}

// ListParameters are the parameters whose value is a list of names: their
// value is written element by element (see RoleSettingValue).
var ListParameters = []string{"search_path", "temp_tablespaces", "session_preload_libraries", "local_preload_libraries"}

// RoleSettingValue renders value for SET: a string literal, or, for a list
// parameter, its elements (split as PostgreSQL prints such a list) as quoted
// identifiers.
func RoleSettingValue(parameter, value string) string {
	if slices.Contains(ListParameters, parameter) {
		return SearchPathValue(ParseSearchPath(value))
	}
	return pgconn.QuoteLiteral(value)
}

// ReadRoleSetting reads one setting of role ("" = every role) in database
// ("" = every database); nil, nil when the role, the database or the setting
// does not exist. PostgreSQL stores a parameter under its own spelling
// (`TimeZone`, `DateStyle`), so the name is matched in any letter case.
func (c *Client) ReadRoleSetting(ctx context.Context, role, database, parameter string) (*RoleSetting, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading setting %s%s: %w", parameter, settingScope(role, database), err)
	}
	var s *RoleSetting
	err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var cfg []string
		err := q.QueryRow(ctx, `
SELECT coalesce(s.setconfig, '{}')
FROM (SELECT 0::oid AS oid WHERE $1 = '' UNION ALL SELECT oid FROM pg_roles WHERE rolname = $1) r
LEFT JOIN pg_database d ON d.datname = $2
JOIN pg_db_role_setting s ON s.setrole = r.oid AND s.setdatabase = coalesce(d.oid, 0)
WHERE ($2 = '' OR d.oid IS NOT NULL)`, role, database).Scan(&cfg)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, kv := range cfg {
			if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, parameter) {
				s = &RoleSetting{Role: role, Database: database, Parameter: k, Value: v}
			}
		}
		if s != nil {
			s.Info, err = lookupSetting(ctx, q, caps, parameter)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading setting %s%s: %w", parameter, settingScope(role, database), err)
	}
	return s, nil
}

// SetRoleSetting sets (or replaces) a setting. A database's setting for
// every role (ALTER DATABASE ... SET) needs ownership of the database: a
// provider role that is not its owner borrows the owner's privileges
// (borrow.go).
func (c *Client) SetRoleSetting(ctx context.Context, s RoleSetting) error {
	stmt := roleSettingTarget(s.Role, s.Database) + " SET " + pgconn.QuoteIdent(s.Parameter) + " = " + RoleSettingValue(s.Parameter, s.Value)
	if err := c.alterSetting(ctx, s.Role, s.Database, stmt, false); err != nil {
		return fmt.Errorf("setting %s%s: %w", s.Parameter, settingScope(s.Role, s.Database), err)
	}
	return nil
}

// ResetRoleSetting removes a setting; a missing role or database is no error
// (the setting went with it), even when another session drops it while the
// setting is being removed (revoke.go).
func (c *Client) ResetRoleSetting(ctx context.Context, role, database, parameter string) error {
	err := c.alterSetting(ctx, role, database, roleSettingTarget(role, database)+" RESET "+pgconn.QuoteIdent(parameter), true)
	if IsMissingDatabase(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("resetting %s%s: %w", parameter, settingScope(role, database), err)
	}
	return nil
}

// alterSetting runs stmt, an ALTER ROLE or ALTER DATABASE of a setting, in
// a transaction holding an advisory lock on the role (or, for a database's
// setting for every role, the database): the first setting of a role or
// database inserts its pg_db_role_setting row, and two such inserts at once
// would fail on the row's unique key. ALTER DATABASE runs with the
// privileges of the database's owner (borrow.go). A reset of a role that does
// not exist (or that another session drops meanwhile) is done.
func (c *Client) alterSetting(ctx context.Context, role, database, stmt string, reset bool) error {
	return c.Tx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		var oid uint32
		var owner string
		var err error
		if role != "" {
			err = tx.QueryRow(ctx, "SELECT oid, '' FROM pg_roles WHERE rolname = $1", role).Scan(&oid, &owner)
		} else {
			err = tx.QueryRow(ctx, "SELECT oid, pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", database).Scan(&oid, &owner)
		}
		switch {
		case errors.Is(err, pgx.ErrNoRows) && reset && role != "":
			return nil // the role is gone, and its settings with it
		case errors.Is(err, pgx.ErrNoRows):
			// the statement says it does not exist
		case err != nil:
			return err
		default:
			if err := pgconn.LockObjects(ctx, tx, []pgconn.AdvisoryLockKey{{ClassID: pgDBRoleSettingClass, ObjID: oid}}); err != nil {
				return err
			}
		}
		return withRoles(ctx, tx, []string{owner}, func() error {
			if reset {
				_, err := revokeStatement(ctx, tx, anyGone(rolesGone(role), databaseGone(database)), stmt)
				return err
			}
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
}

// pgDBRoleSettingClass is the OID of pg_db_role_setting, the class of the
// advisory locks of settings.
const pgDBRoleSettingClass = 2964

func roleSettingTarget(role, database string) string {
	if role == "" {
		return "ALTER DATABASE " + pgconn.QuoteIdent(database)
	}
	stmt := "ALTER ROLE " + pgconn.QuoteIdent(role)
	if database != "" {
		stmt += " IN DATABASE " + pgconn.QuoteIdent(database)
	}
	return stmt
}

// settingScope names whose setting it is in messages.
func settingScope(role, database string) string {
	if role == "" {
		return fmt.Sprintf(" of database %q (every role)", database)
	}
	return fmt.Sprintf(" for role %q%s", role, inDatabase(database))
}

func inDatabase(database string) string {
	if database == "" {
		return ""
	}
	return fmt.Sprintf(" in database %q", database)
}

// ListDatabaseSettings lists the settings of database db (for every role, and
// each role's in it), as (role, parameter) pairs with role "" for the
// database's own, sorted; role, when not "", keeps only that role's.
func (c *Client) ListDatabaseSettings(ctx context.Context, db, role string) ([]RoleSetting, error) {
	var out []RoleSetting
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, `
SELECT coalesce(r.rolname::text, ''), split_part(c, '=', 1)
FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
LEFT JOIN pg_roles r ON r.oid = s.setrole, unnest(s.setconfig) c
WHERE d.datname = $1 AND (s.setrole = 0 OR r.oid IS NOT NULL) AND ($2 = '' OR r.rolname = $2)
ORDER BY 1, 2`, db, role)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (RoleSetting, error) {
			s := RoleSetting{Database: db}
			return s, r.Scan(&s.Role, &s.Parameter)
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the settings of database %q: %w", db, err)
	}
	return out, nil
}
