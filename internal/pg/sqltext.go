package pg

import (
	"errors"
	"fmt"
	"strings"
)

// CheckExpression checks text that the provider splices into a statement as
// one SQL expression (a policy's USING or WITH CHECK): outside string
// constants, quoted identifiers and comments it must not contain a semicolon,
// and its parentheses must balance, so that it can neither end the statement
// nor close the parenthesis the provider puts around it. It is a lexical
// check only (the server parses the expression); it runs without a
// connection, at validation time. Statements that carry such text also go
// over the extended protocol (ExecOne), where the server refuses a second
// statement, so this check is what turns an attempt into a clear error early.
// It assumes standard_conforming_strings = on, which every connection of this
// package sets.
func CheckExpression(s string) error {
	return checkSQLText(s, true)
}

// checkSQLText is the lexical scan behind CheckExpression and CheckFragment;
// comments are refused unless allowed.
func checkSQLText(s string, comments bool) error {
	depth := 0
	var parenErr error // reported after a semicolon, the clearer sign of a second statement
	i := 0
	n := len(s)
	for i < n {
		ch := s[i]
		switch {
		case !comments && (ch == '-' && i+1 < n && s[i+1] == '-' || ch == '/' && i+1 < n && s[i+1] == '*'):
			return errors.New("must not contain an SQL comment (-- or /*)")
		case ch == '-' && i+1 < n && s[i+1] == '-':
			j := strings.IndexAny(s[i:], "\r\n")
			if j < 0 {
				// a line comment reaching the end would swallow what the
				// provider writes after the expression
				return errors.New("ends inside a -- comment; end the comment with a line break or use /* */")
			}
			i += j
		case ch == '/' && i+1 < n && s[i+1] == '*':
			level := 1
			j := i + 2
			for j < n && level > 0 {
				switch {
				case s[j] == '/' && j+1 < n && s[j+1] == '*':
					level++
					j += 2
				case s[j] == '*' && j+1 < n && s[j+1] == '/':
					level--
					j += 2
				default:
					j++
				}
			}
			if level > 0 {
				return errors.New("has a /* comment that is not closed")
			}
			i = j
		case ch == '\'':
			escapes := i > 0 && (s[i-1] == 'E' || s[i-1] == 'e') && (i < 2 || !isIdentChar(s[i-2]))
			j, ok := endOfString(s, i+1, escapes)
			if !ok {
				return errors.New("has a string constant ('...') that is not closed")
			}
			i = j
		case ch == '"':
			j, ok := endOfQuotedIdent(s, i+1)
			if !ok {
				return errors.New(`has a quoted identifier ("...") that is not closed`)
			}
			i = j
		case ch == '$' && (i == 0 || !isIdentChar(s[i-1])):
			tag, ok := dollarTag(s[i:])
			if !ok {
				i++ // a parameter such as $1
				continue
			}
			k := strings.Index(s[i+len(tag):], tag)
			if k < 0 {
				return fmt.Errorf("has a dollar-quoted string (%s...%s) that is not closed", tag, tag)
			}
			i += len(tag) + k + len(tag)
		case ch == ';':
			return errors.New("contains a semicolon outside quotes: it must be one SQL expression, not statements")
		case ch == '(':
			depth++
			i++
		case ch == ')':
			depth--
			if depth < 0 && parenErr == nil {
				parenErr = errors.New("closes a parenthesis it did not open")
			}
			i++
		default:
			i++
		}
	}
	if parenErr != nil {
		return parenErr
	}
	if depth != 0 {
		return errors.New("opens a parenthesis it does not close")
	}
	return nil
}

// endOfString returns the index after the quote closing a string constant whose
// body starts at i (” is a quote; with escapes, a backslash escapes the next byte).
func endOfString(s string, i int, escapes bool) (int, bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			if escapes {
				i += 2
				continue
			}
		case '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				i += 2
				continue
			}
			return i + 1, true
		}
		i++
	}
	return 0, false
}

// endOfQuotedIdent returns the index after the quote closing a quoted
// identifier whose body starts at i ("" is a quote).
func endOfQuotedIdent(s string, i int) (int, bool) {
	for {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			return 0, false
		}
		i += k + 1
		if i < len(s) && s[i] == '"' {
			i++
			continue
		}
		return i, true
	}
}

// dollarTag returns the opening tag ($$ or $name$) at the start of s.
func dollarTag(s string) (string, bool) {
	for j := 1; j < len(s); j++ {
		c := s[j]
		if c == '$' {
			return s[:j+1], true
		}
		if !isIdentChar(c) || (j == 1 && c >= '0' && c <= '9') {
			return "", false
		}
	}
	return "", false
}

func isIdentChar(c byte) bool {
	return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$'
}
