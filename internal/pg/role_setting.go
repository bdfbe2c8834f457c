package pg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// RoleSetting is one configuration parameter a role gets at login (ALTER ROLE
// ... [IN DATABASE ...] SET), from pg_db_role_setting.
type RoleSetting struct {
	Role string
	// Database is "" for a setting in every database.
	Database  string
	Parameter string
	// Value is the value as PostgreSQL stores it (for a list parameter, the
	// elements joined by ", ", quoted where needed).
	Value string
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
	return QuoteLiteral(value)
}

// RoleSettingValuesEqual reports whether two values of parameter mean the
// same: equal strings, or the same list elements for a list parameter.
func RoleSettingValuesEqual(parameter, a, b string) bool {
	if a == b {
		return true
	}
	return slices.Contains(ListParameters, parameter) && slices.Equal(ParseSearchPath(a), ParseSearchPath(b))
}

// ReadRoleSetting reads one setting of role in database ("" = every
// database); nil, nil when the role, the database or the setting does not
// exist.
func (c *Client) ReadRoleSetting(ctx context.Context, role, database, parameter string) (*RoleSetting, error) {
	var s *RoleSetting
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		var cfg []string
		err := q.QueryRow(ctx, `
SELECT coalesce(s.setconfig, '{}')
FROM pg_roles r
LEFT JOIN pg_database d ON d.datname = $2
JOIN pg_db_role_setting s ON s.setrole = r.oid AND s.setdatabase = coalesce(d.oid, 0)
WHERE r.rolname = $1 AND ($2 = '' OR d.oid IS NOT NULL)`, role, database).Scan(&cfg)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, kv := range cfg {
			if k, v, _ := strings.Cut(kv, "="); k == parameter {
				s = &RoleSetting{Role: role, Database: database, Parameter: k, Value: v}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading setting %s of role %q: %w", parameter, role, err)
	}
	return s, nil
}

// SetRoleSetting sets (or replaces) a setting.
func (c *Client) SetRoleSetting(ctx context.Context, s RoleSetting) error {
	stmt := roleSettingTarget(s.Role, s.Database) + " SET " + QuoteIdent(s.Parameter) + " = " + RoleSettingValue(s.Parameter, s.Value)
	if err := c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, stmt)
		return err
	}); err != nil {
		return fmt.Errorf("setting %s for role %q%s: %w", s.Parameter, s.Role, inDatabase(s.Database), err)
	}
	return nil
}

// ResetRoleSetting removes a setting; a missing role or database is no error.
func (c *Client) ResetRoleSetting(ctx context.Context, role, database, parameter string) error {
	err := c.Do(ctx, "", func(ctx context.Context, q Querier) error {
		_, err := q.Exec(ctx, roleSettingTarget(role, database)+" RESET "+QuoteIdent(parameter))
		return err
	})
	if code := SQLState(err); code == CodeUndefinedObject || code == CodeInvalidCatalogName {
		return nil
	}
	if err != nil {
		return fmt.Errorf("resetting %s for role %q%s: %w", parameter, role, inDatabase(database), err)
	}
	return nil
}

func roleSettingTarget(role, database string) string {
	stmt := "ALTER ROLE " + QuoteIdent(role)
	if database != "" {
		stmt += " IN DATABASE " + QuoteIdent(database)
	}
	return stmt
}

func inDatabase(database string) string {
	if database == "" {
		return ""
	}
	return fmt.Sprintf(" in database %q", database)
}
