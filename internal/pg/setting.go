package pg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// What the server says of a configuration parameter (pg_settings), for the
// settings of databases and roles (ALTER DATABASE / ALTER ROLE ... SET): the
// checks at plan time, and the semantic equality of values (the same amount
// in other units, another letter case of an enum or boolean).

// SettingInfo describes one configuration parameter (a row of pg_settings).
type SettingInfo struct {
	// Name is the server's spelling (e.g. `DateStyle`, `work_mem`).
	Name string
	// Context is when it can be set: internal, postmaster, sighup,
	// superuser-backend, backend, superuser or user.
	Context string
	// Type is bool, integer, real, string or enum.
	Type string
	// Unit is the base unit of a number (`kB`, `8kB`, `ms`, `s`, `min`), "" for none.
	Unit     string
	Min, Max *float64
	EnumVals []string
	// MaySet: the connected role may set it per role or database (a
	// superuser, a parameter of context user or backend, or on PostgreSQL 15+
	// a role granted SET on it).
	MaySet bool
}

// ErrUnknownParameter is returned (wrapped) by CheckSetting for a parameter
// the server does not know.
var ErrUnknownParameter = errors.New("unrecognized configuration parameter")

// settableContexts are the contexts of the parameters ALTER ROLE and ALTER
// DATABASE can set (the others need a restart or a reload of the server's
// configuration, or cannot be changed at all).
var settableContexts = []string{"user", "superuser", "backend", "superuser-backend"}

// LookupSetting returns what the server says of parameter (any letter case),
// nil when pg_settings has no such row: an unknown parameter, a custom
// placeholder (`app.tenant`) not defined in this session, or one hidden from
// the connected role.
func (c *Client) LookupSetting(ctx context.Context, parameter string) (*SettingInfo, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, err
	}
	var info *SettingInfo
	err = c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		info, err = lookupSetting(ctx, q, caps, parameter)
		return err
	})
	return info, err
}

func lookupSetting(ctx context.Context, q Querier, caps *pgconn.Capabilities, parameter string) (*SettingInfo, error) {
	maySet := "s.context IN ('user', 'backend') OR $2"
	if caps.AtLeast(15) {
		maySet += " OR has_parameter_privilege(s.name, 'SET')"
	}
	var s SettingInfo
	var minV, maxV *string
	err := q.QueryRow(ctx, `SELECT s.name, s.context, s.vartype, coalesce(s.unit, ''), s.min_val, s.max_val, coalesce(s.enumvals, '{}'), `+maySet+`
FROM pg_catalog.pg_settings s WHERE lower(s.name) = lower($1)`, parameter, caps.IsSuperuser).Scan(
		&s.Name, &s.Context, &s.Type, &s.Unit, &minV, &maxV, &s.EnumVals, &s.MaySet)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading parameter %s from pg_settings: %w", parameter, err)
	}
	for _, p := range []struct {
		from *string
		to   **float64
	}{{minV, &s.Min}, {maxV, &s.Max}} {
		if p.from != nil {
			if f, err := strconv.ParseFloat(*p.from, 64); err == nil {
				*p.to = &f
			}
		}
	}
	return &s, nil
}

// SettingProblem is what CheckSetting found wrong: on the parameter (Value
// false) or on the value.
type SettingProblem struct {
	Value   bool
	Summary string
	Detail  string
}

// CheckSetting tells, with read-only queries, whether ALTER ROLE / ALTER
// DATABASE ... SET parameter = value would be refused: an unknown parameter
// (one without a dot: a qualified name may be a custom variable), one that
// cannot be set per role or database (it needs a restart or a reload), one
// that the connected role may not set, or a value the parameter does not take
// (a boolean, an enum, a number out of range). what names the setting in the
// messages. nil when none of these applies (the server still checks on apply).
func (c *Client) CheckSetting(ctx context.Context, parameter, value, what string) (*SettingProblem, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return nil, err
	}
	info, err := c.LookupSetting(ctx, parameter)
	if err != nil {
		return nil, err
	}
	if info == nil {
		if strings.Contains(parameter, ".") {
			// a custom variable, or a parameter of an extension not loaded in
			// this session: PostgreSQL lets only superusers (and, from 15,
			// roles granted SET on it) set one per role or database, since it
			// cannot know its context
			if caps.IsSuperuser || c.maySetPlaceholder(ctx, caps, parameter) {
				return nil, nil
			}
			grant := "a superuser provider role"
			if caps.AtLeast(15) {
				grant += fmt.Sprintf(", or GRANT SET ON PARAMETER %s TO %s (given once by a superuser)", parameter, pgconn.QuoteIdent(caps.CurrentUser))
			}
			return &SettingProblem{Summary: "Parameter reserved to superusers",
				Detail: fmt.Sprintf("%s is not a parameter the server knows in this session: a custom variable, or one of an extension that is not loaded (%s). "+
					"Only a superuser may set such a parameter for a role or a database, and the provider's role %s is not one. It needs %s.",
					parameter, what, pgconn.QuoteIdent(caps.CurrentUser), grant)}, nil
		}
		var v *string
		err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
			return q.QueryRow(ctx, "SELECT current_setting($1, true)", parameter).Scan(&v)
		})
		if pgconn.SQLState(err) == pgconn.CodeInsufficientPriv || (err == nil && v != nil) {
			return nil, nil // it exists, hidden from pg_settings for this role
		}
		if err != nil {
			return nil, err
		}
		return &SettingProblem{Summary: "Unknown configuration parameter",
			Detail: fmt.Sprintf("PostgreSQL %s has no configuration parameter %q (%s); see SHOW ALL or pg_settings for the names it knows. "+
				"A custom variable needs a qualified name (`prefix.name`).", caps.ServerVersion, parameter, what)}, nil
	}
	if !slices.Contains(settableContexts, info.Context) {
		how := "it is set in postgresql.conf or with ALTER SYSTEM and needs a restart of the server"
		switch info.Context {
		case "sighup":
			how = "it is set in postgresql.conf or with ALTER SYSTEM and takes effect on a reload of the configuration"
		case "internal":
			how = "it is fixed when the server is built or initialized"
		}
		return &SettingProblem{Summary: "Parameter cannot be set per role or database",
			Detail: fmt.Sprintf("The configuration parameter %s (%s) has context %q: ALTER ROLE and ALTER DATABASE cannot set it; %s.", info.Name, what, info.Context, how)}, nil
	}
	if !info.MaySet {
		grant := "a superuser provider role"
		if caps.AtLeast(15) {
			grant += fmt.Sprintf(", or GRANT SET ON PARAMETER %s TO %s (given once by a superuser)", info.Name, pgconn.QuoteIdent(caps.CurrentUser))
		}
		return &SettingProblem{Summary: "Parameter reserved to superusers",
			Detail: fmt.Sprintf("The configuration parameter %s (%s) has context %q: only a superuser may set it for a role or a database, and the provider's role %s is not one. It needs %s.",
				info.Name, what, info.Context, pgconn.QuoteIdent(caps.CurrentUser), grant)}, nil
	}
	if msg := info.checkValue(value); msg != "" {
		return &SettingProblem{Value: true, Summary: "Invalid value for " + info.Name, Detail: fmt.Sprintf("The value %q of %s (%s) %s.", value, info.Name, what, msg)}, nil
	}
	return nil, nil
}

// maySetPlaceholder reports whether the connected role was granted SET on a
// parameter the server does not know (PostgreSQL 15+).
func (c *Client) maySetPlaceholder(ctx context.Context, caps *pgconn.Capabilities, parameter string) bool {
	if !caps.AtLeast(15) {
		return false
	}
	var ok bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_parameter_acl WHERE lower(parname) = lower($1)) AND has_parameter_privilege($1, 'SET')", parameter).Scan(&ok)
	})
	return err == nil && ok
}

// checkValue returns why value is not one the parameter takes, "" when it is
// or when this cannot tell (the server decides then).
func (s *SettingInfo) checkValue(value string) string {
	switch s.Type {
	case "bool":
		if _, ok := parseSettingBool(value); !ok {
			return "is not a boolean (on, off, true, false, yes, no, 1, 0)"
		}
	case "enum":
		for _, e := range s.EnumVals {
			if strings.EqualFold(strings.TrimSpace(value), e) {
				return ""
			}
		}
		return "is not one of " + strings.Join(s.EnumVals, ", ")
	case "integer", "real":
		n, ok := s.parseNumber(value)
		if !ok {
			return "" // units or a syntax this check does not know: the server decides
		}
		if s.Min != nil && n < *s.Min || s.Max != nil && n > *s.Max {
			unit := ""
			if s.Unit != "" {
				unit = " " + s.Unit
			}
			return fmt.Sprintf("is out of range: it is %s%s, and the parameter takes %s to %s%s", trimFloat(n), unit, trimFloat(deref(s.Min)), trimFloat(deref(s.Max)), unit)
		}
	}
	return ""
}

func deref(f *float64) float64 {
	if f == nil {
		return math.NaN()
	}
	return *f
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// parseSettingBool parses a boolean as PostgreSQL does (parse_bool): any
// letter case, a unique prefix of true, false, yes, no, on (at least "on"),
// off (at least "of"), and 1 and 0.
func parseSettingBool(v string) (bool, bool) {
	s := strings.ToLower(strings.TrimSpace(v))
	if s == "" {
		return false, false
	}
	if s == "1" || s == "0" {
		return s == "1", true
	}
	// s is a prefix of the word: "t", "tr", "true"; "on" and "off" need two letters
	for _, w := range []struct {
		word string
		min  int
		val  bool
	}{{"true", 1, true}, {"yes", 1, true}, {"false", 1, false}, {"no", 1, false}, {"on", 2, true}, {"off", 2, false}} {
		if len(s) >= w.min && len(s) <= len(w.word) && w.word[:len(s)] == s {
			return w.val, true
		}
	}
	return false, false
}

// memoryUnits and timeUnits are PostgreSQL's units (case-sensitive), in
// kilobytes and milliseconds.
var (
	memoryUnits = map[string]float64{"B": 1.0 / 1024, "kB": 1, "MB": 1024, "GB": 1024 * 1024, "TB": 1024 * 1024 * 1024}
	timeUnits   = map[string]float64{"us": 0.001, "ms": 1, "s": 1000, "min": 60000, "h": 3600000, "d": 86400000}
)

// baseUnit returns the size of the parameter's unit in kilobytes or
// milliseconds, and which table its value units come from.
func (s *SettingInfo) baseUnit() (float64, map[string]float64, bool) {
	u := s.Unit
	mult := 1.0
	if i := strings.IndexFunc(u, func(r rune) bool { return r < '0' || r > '9' }); i > 0 {
		m, err := strconv.ParseFloat(u[:i], 64)
		if err != nil {
			return 0, nil, false
		}
		mult, u = m, u[i:]
	}
	if f, ok := memoryUnits[u]; ok {
		return f * mult, memoryUnits, true
	}
	if f, ok := timeUnits[u]; ok {
		return f * mult, timeUnits, true
	}
	return 0, nil, u == ""
}

// parseNumber parses a numeric value, with an optional unit, into the
// parameter's base unit (rounded for an integer parameter, as the server
// does); false when this parser does not know the syntax.
func (s *SettingInfo) parseNumber(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	end := 0
	for end < len(v) && strings.ContainsRune("+-.0123456789eE", rune(v[end])) {
		if (v[end] == 'e' || v[end] == 'E') && (end+1 >= len(v) || !strings.ContainsRune("+-0123456789", rune(v[end+1]))) {
			break
		}
		end++
	}
	n, err := strconv.ParseFloat(v[:end], 64)
	if err != nil {
		return 0, false
	}
	unit := strings.TrimSpace(v[end:])
	if unit != "" {
		base, table, ok := s.baseUnit()
		if !ok || table == nil {
			return 0, false
		}
		f, known := table[unit]
		if !known {
			return 0, false
		}
		n = n * f / base
	}
	if s.Type == "integer" {
		n = math.RoundToEven(n)
	}
	return n, true
}

// caseInsensitiveStrings are string parameters whose values PostgreSQL reads
// in any letter case.
var caseInsensitiveStrings = []string{"datestyle", "timezone", "log_timezone"}

// SettingValuesEqual reports whether two values of a parameter mean the
// same: the same string; the same elements of a list parameter; the same
// boolean, enum label (any case) or amount (in any unit) when info (may be
// nil) says the parameter takes one.
func SettingValuesEqual(info *SettingInfo, parameter, a, b string) bool {
	if a == b {
		return true
	}
	if slices.Contains(ListParameters, strings.ToLower(parameter)) {
		return slices.Equal(ParseSearchPath(a), ParseSearchPath(b))
	}
	if info == nil {
		return false
	}
	switch info.Type {
	case "bool":
		x, okA := parseSettingBool(a)
		y, okB := parseSettingBool(b)
		return okA && okB && x == y
	case "enum":
		return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
	case "integer", "real":
		x, okA := info.parseNumber(a)
		y, okB := info.parseNumber(b)
		return okA && okB && (x == y || math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y)))
	case "string":
		return slices.Contains(caseInsensitiveStrings, strings.ToLower(info.Name)) && strings.EqualFold(a, b)
	}
	return false
}
