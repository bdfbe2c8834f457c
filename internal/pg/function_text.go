package pg

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
)

// CheckFragment checks a piece of configuration text that is spliced into a
// statement (a type name, a default expression, a result type) without
// executing anything: it must be a single fragment, so it may not hold a
// semicolon, a comment, an unbalanced parenthesis or an unterminated quoted
// string, identifier or dollar-quoted string outside of quotes. Statements that
// carry such text are additionally sent over the extended protocol (see
// execOneStatement), where PostgreSQL refuses a second statement.
func CheckFragment(s string) error {
	if strings.ContainsRune(s, 0) {
		return errors.New("must not contain a NUL byte")
	}
	depth := 0
	isIdent := func(c byte) bool {
		return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$'
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ';':
			return errors.New("must not contain a semicolon outside quotes: it must be a single SQL fragment, not a statement")
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '/' && i+1 < len(s) && s[i+1] == '*':
			return errors.New("must not contain an SQL comment (-- or /*)")
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return errors.New("has a closing parenthesis without an opening one")
			}
		case c == '\'':
			// E'...' strings take backslash escapes; all others (with
			// standard_conforming_strings on) only doubled quotes.
			escapes := i > 0 && (s[i-1] == 'e' || s[i-1] == 'E') && (i == 1 || !isIdent(s[i-2]))
			j := i + 1
			for ; j < len(s); j++ {
				if escapes && s[j] == '\\' {
					j++
					continue
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return errors.New("has an unterminated string constant")
			}
			i = j
		case c == '"':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '"' {
					if j+1 < len(s) && s[j+1] == '"' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return errors.New("has an unterminated quoted identifier")
			}
			i = j
		case c == '$' && (i == 0 || !isIdent(s[i-1])):
			tag := dollarTag.FindString(s[i:])
			if tag == "" {
				continue // $1 and the like
			}
			end := strings.Index(s[i+len(tag):], tag)
			if end < 0 {
				return errors.New("has an unterminated dollar-quoted string")
			}
			i += len(tag) + end + len(tag) - 1
		}
	}
	if depth != 0 {
		return errors.New("has an opening parenthesis without a closing one")
	}
	return nil
}

var dollarTag = regexp.MustCompile(`^\$([A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*)?\$`)

// execOneStatement runs sql, which carries configuration text, over the
// extended protocol (Parse/Bind/Execute of an unnamed statement): PostgreSQL
// refuses more than one statement there. pgx's Exec without arguments always
// falls back to the simple protocol, which runs every statement of the text,
// whatever the query exec mode; so this goes to pgconn directly.
func execOneStatement(ctx context.Context, tx pgx.Tx, sql string) error {
	_, err := tx.Conn().PgConn().ExecParams(ctx, sql, nil, nil, nil, nil).Close()
	return err
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
		cols := splitTopLevel(inner)
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
func splitTopLevel(s string) []string {
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
