package pgconn

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// MaxIdentifierLength is NAMEDATALEN-1: PostgreSQL silently truncates longer names.
const MaxIdentifierLength = 63

// QuoteIdent quotes one identifier with the driver's sanitiser.
func QuoteIdent(name string) string {
	return pgx.Identifier{name}.Sanitize()
}

// QuoteQualified quotes a schema-qualified name (schema.name); an empty schema gives the bare name.
func QuoteQualified(schema, name string) string {
	if schema == "" {
		return QuoteIdent(name)
	}
	return pgx.Identifier{schema, name}.Sanitize()
}

// QuoteIdents quotes each name and joins them with ", ".
func QuoteIdents(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// QuoteLiteral quotes a string constant for the few statements that cannot take
// bind parameters (utility statements such as ALTER ROLE ... VALID UNTIL).
// Every connection this package opens runs with standard_conforming_strings=on,
// so doubling single quotes is the complete escaping rule. NUL bytes cannot be
// sent to PostgreSQL at all and are rejected by ValidateName/validators before we
// get here; they are stripped defensively.
func QuoteLiteral(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// ValidateName checks what PostgreSQL would otherwise mangle silently: empty
// names, names over 63 bytes (truncated by the server) and NUL bytes.
func ValidateName(name string) error {
	switch {
	case name == "":
		return errors.New("must not be empty")
	case strings.ContainsRune(name, 0):
		return errors.New("must not contain a NUL byte")
	case !utf8.ValidString(name):
		return errors.New("must be valid UTF-8")
	case len(name) > MaxIdentifierLength:
		return fmt.Errorf("is %d bytes long; PostgreSQL identifiers are at most %d bytes and longer ones are silently truncated", len(name), MaxIdentifierLength)
	}
	return nil
}

// ValidateLiteral checks what QuoteLiteral cannot carry: PostgreSQL text
// cannot hold a NUL byte (QuoteLiteral would drop it silently).
func ValidateLiteral(s string) error {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return fmt.Errorf("must not contain a NUL byte (found at byte %d): PostgreSQL text cannot hold one", i)
	}
	return nil
}
