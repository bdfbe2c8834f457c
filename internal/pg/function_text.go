package pg

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// CheckFragment checks a piece of configuration text that is spliced into a
// statement (a type name, a default expression, a result type) without
// executing anything: it must be a single fragment, so besides what
// CheckExpression refuses it may not hold a NUL byte or a comment. Statements
// that carry such text also go over the extended protocol (ExecOne), where
// PostgreSQL refuses a second statement.
func CheckFragment(s string) error {
	if strings.ContainsRune(s, 0) {
		return errors.New("must not contain a NUL byte")
	}
	return checkSQLText(s, false)
}

// typeAliases maps PostgreSQL's alternative spellings of built-in types to the
// name format_type renders (the grammar's aliases, fixed since PostgreSQL 7).
var typeAliases = map[string]string{
	"int": "integer", "int4": "integer", "integer": "integer",
	"int2": "smallint", "smallint": "smallint",
	"int8": "bigint", "bigint": "bigint",
	"float4": "real", "real": "real",
	"float8": "double precision", "double precision": "double precision", "float": "double precision",
	"bool": "boolean", "boolean": "boolean",
	"varchar": "character varying", "character varying": "character varying", "char varying": "character varying",
	"char": "character", "character": "character", "bpchar": "character",
	"decimal": "numeric", "numeric": "numeric", "dec": "numeric",
	"timestamptz": "timestamp with time zone", "timestamp with time zone": "timestamp with time zone",
	"timestamp": "timestamp without time zone", "timestamp without time zone": "timestamp without time zone",
	"timetz": "time with time zone", "time with time zone": "time with time zone",
	"time": "time without time zone", "time without time zone": "time without time zone",
	"varbit": "bit varying", "bit varying": "bit varying",
}

var (
	typmodRe = regexp.MustCompile(`\s*\([^()]*\)`)
	arrayRe  = regexp.MustCompile(`(\s*\[[0-9\s]*\])+$`)
	spaceRe  = regexp.MustCompile(`\s+`)
)

// CanonicalType renders a type name the way format_type and
// pg_get_function_result do for a function's arguments and result, as far as
// that is knowable without asking the server: built-in aliases resolved
// (`int` = `integer`, `timestamptz` = `timestamp with time zone`), type
// modifiers dropped (PostgreSQL ignores them in function signatures:
// `varchar(10)` = `character varying`), array bounds folded to `[]`, unquoted
// names lower-cased, `pg_catalog.` dropped; `SETOF t` and `TABLE(c t, ...)`
// handled element-wise. Names it does not know are only case-folded.
func CanonicalType(s string) string {
	s = strings.TrimSpace(s)
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "setof ") || strings.HasPrefix(lower, "setof\t") || strings.HasPrefix(lower, "setof\n"):
		return "SETOF " + CanonicalType(s[6:])
	case strings.HasPrefix(lower, "table") && strings.HasSuffix(s, ")") && strings.HasPrefix(strings.TrimSpace(s[5:]), "("):
		inner := strings.TrimSpace(s[5:])
		inner = inner[1 : len(inner)-1]
		cols := SplitTopLevel(inner)
		for i, c := range cols {
			c = strings.TrimSpace(c)
			name, typ, _ := strings.Cut(c, " ")
			cols[i] = foldIdent(name) + " " + CanonicalType(typ)
		}
		return "TABLE(" + strings.Join(cols, ", ") + ")"
	}
	if strings.Contains(s, `"`) {
		return s // quoted names: compared as written
	}
	array := arrayRe.MatchString(s)
	s = arrayRe.ReplaceAllString(s, "")
	s = typmodRe.ReplaceAllString(s, "")
	s = strings.ToLower(spaceRe.ReplaceAllString(strings.TrimSpace(s), " "))
	s = strings.TrimPrefix(s, "pg_catalog.")
	if a, ok := typeAliases[s]; ok {
		s = a
	}
	if array {
		s += "[]"
	}
	return s
}

func foldIdent(s string) string {
	if strings.HasPrefix(s, `"`) {
		return s
	}
	return strings.ToLower(s)
}

// splitTopLevel splits s on commas outside parentheses.
func SplitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, ch := range s {
		switch ch {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// SameType reports whether two spellings of a type certainly name the same
// type in a function signature (see CanonicalType); false means "not known to
// be the same".
func SameType(a, b string) bool {
	return a == b || CanonicalType(a) == CanonicalType(b)
}

// SameFunctionArgs reports whether two argument lists certainly mean the same
// (names exact, modes case-insensitively, types by SameType, defaults as written
// up to surrounding white space).
func SameFunctionArgs(a, b []FunctionArg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !strings.EqualFold(a[i].Mode, b[i].Mode) || !SameType(a[i].Type, b[i].Type) ||
			!sameDefault(a[i].Default, b[i].Default, CanonicalType(a[i].Type)) {
			return false
		}
	}
	return true
}

// sameDefault compares default expressions as written, up to surrounding white
// space and the cast to the argument's own type that PostgreSQL adds when it
// deparses a constant ('x' = 'x'::character varying).
func sameDefault(a, b, canonicalType string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	strip := func(s string) string {
		if t, ok := strings.CutSuffix(s, "::"+canonicalType); ok && strings.HasPrefix(t, "'") && strings.HasSuffix(t, "'") {
			return t
		}
		return s
	}
	return a == b || strip(a) == strip(b)
}

// FunctionArgsEqual reports whether two renderings are identical.
func FunctionArgsEqual(a, b []FunctionArg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fragmentError names the offending text in an error from CheckFragment.
func fragmentError(what string, err error) error {
	return fmt.Errorf("%s %w", what, err)
}
