package pg

import "strings"

// SameExpression reports whether two spellings of an SQL expression are the
// same expression by a conservative, purely lexical comparison that needs no
// connection (plan and refresh must not ask the server to parse configuration
// text). Both are reduced to a canonical form and compared:
//
//   - letters outside string constants, quoted identifiers and dollar-quoted
//     strings are lower-cased (ASCII only, as PostgreSQL folds identifiers and
//     keywords); those constants and quoted identifiers are kept byte for byte;
//   - whitespace is collapsed, and dropped next to punctuation and operators,
//     but never between two words (identifiers, keywords, numbers, constants)
//     nor between two operators, whose joining would lex differently;
//   - a pair of parentheses wrapping the whole expression is removed, repeatedly.
//
// So `id>0` and `(id > 0)`, or `owner = current_user` and
// `(owner = CURRENT_USER)`, are the same; `a or b` and `aor b`, `'X'` and
// `'x'`, `"A"` and `a` are not. Text with comments, or with two constants
// separated by whitespace (where a line break concatenates them), or that
// does not lex (an unclosed quote), is the same only when identical. A false
// answer only means "not proven the same".
func SameExpression(a, b string) bool {
	if a == b {
		return true
	}
	ca, ok := canonicalExpression(a)
	if !ok {
		return false
	}
	cb, ok := canonicalExpression(b)
	return ok && ca == cb
}

// Token classes of canonicalExpression.
const (
	tokWord  = iota // identifier, keyword, number, parameter, constant, quoted identifier, dot, anything else
	tokOp           // a run of operator characters
	tokPunct        // ( ) [ ] , ;
)

type sqlToken struct {
	text     string
	class    int
	constant bool // a string constant (or dollar-quoted string)
	spaced   bool // whitespace came before it
}

const sqlOpChars = "+-*/<>=~!@#%^&|`?:"

// canonicalExpression returns the canonical form of SameExpression, or false
// when the text is not compared that way (see SameExpression).
func canonicalExpression(s string) (string, bool) {
	toks, ok := sqlTokens(s)
	if !ok {
		return "", false
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].spaced && toks[i].constant && toks[i-1].constant {
			return "", false // 'a'<newline>'b' is 'ab'; 'a' 'b' is an error
		}
	}
	// remove parentheses wrapping the whole expression (not a row: no top-level comma)
	for len(toks) >= 2 && toks[0].text == "(" && toks[len(toks)-1].text == ")" && wrapsAll(toks) {
		toks = toks[1 : len(toks)-1]
		if len(toks) > 0 {
			toks[0].spaced = false
		}
	}
	// tokens are separated by NUL (which no token contains), so that one token
	// never reads as two (1e-5 against 1e - 5), or by a space where one is kept
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1].class
			if t.spaced && ((prev == tokWord && t.class == tokWord) || (prev == tokOp && t.class == tokOp)) {
				b.WriteByte(' ')
			} else {
				b.WriteByte(0)
			}
		}
		b.WriteString(t.text)
	}
	return b.String(), true
}

// wrapsAll reports whether toks[0] "(" is closed by the last token, with no
// comma between them at the first level.
func wrapsAll(toks []sqlToken) bool {
	depth := 0
	for i, t := range toks {
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 && i != len(toks)-1 {
				return false
			}
		case ",":
			if depth == 1 {
				return false
			}
		}
	}
	return depth == 0
}

// sqlTokens splits s into tokens; false when s has a comment or does not lex.
func sqlTokens(s string) ([]sqlToken, bool) {
	var toks []sqlToken
	spaced := false
	prefix := "" // U&, glued to the quoted token it introduces
	add := func(text string, class int, constant bool) {
		toks = append(toks, sqlToken{text: prefix + text, class: class, constant: constant, spaced: spaced})
		spaced = false
		prefix = ""
	}
	n := len(s)
	for i := 0; i < n; {
		ch := s[i]
		switch {
		case ch == 0:
			return nil, false
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v':
			spaced = true
			i++
		case ch == '-' && i+1 < n && s[i+1] == '-', ch == '/' && i+1 < n && s[i+1] == '*':
			return nil, false
		case ch == '\'':
			// a prefix (E, B, X, U&, N) is the word token before it, unspaced
			escapes := len(toks) > 0 && !spaced && strings.EqualFold(toks[len(toks)-1].text, "e")
			j, ok := endOfString(s, i+1, escapes)
			if !ok {
				return nil, false
			}
			add(s[i:j], tokWord, true)
			i = j
		case ch == '"':
			j, ok := endOfQuotedIdent(s, i+1)
			if !ok {
				return nil, false
			}
			add(s[i:j], tokWord, false)
			i = j
		case ch == '$' && (i == 0 || !isIdentChar(s[i-1])):
			if tag, ok := dollarTag(s[i:]); ok {
				k := strings.Index(s[i+len(tag):], tag)
				if k < 0 {
					return nil, false
				}
				j := i + len(tag) + k + len(tag)
				add(s[i:j], tokWord, true)
				i = j
				continue
			}
			j := i + 1
			for j < n && isIdentChar(s[j]) {
				j++
			}
			add(s[i:j], tokWord, false) // a parameter such as $1
			i = j
		case isDigit(ch) || (ch == '.' && i+1 < n && isDigit(s[i+1])):
			j := endOfNumber(s, i)
			add(asciiLower(s[i:j]), tokWord, false)
			i = j
		case isIdentChar(ch):
			j := i
			for j < n && isIdentChar(s[j]) {
				j++
			}
			if (ch == 'U' || ch == 'u') && j == i+1 && j+1 < n && s[j] == '&' && (s[j+1] == '\'' || s[j+1] == '"') {
				// U&'...' and U&"...": one token with the quoted text
				// (unlike u & '...', an operator between two words)
				prefix = "u&"
				i = j + 1
				continue
			}
			add(asciiLower(s[i:j]), tokWord, false)
			i = j
		case strings.IndexByte(sqlOpChars, ch) >= 0:
			j := i
			for j < n && strings.IndexByte(sqlOpChars, s[j]) >= 0 {
				if (s[j] == '-' && j+1 < n && s[j+1] == '-') || (s[j] == '/' && j+1 < n && s[j+1] == '*') {
					return nil, false
				}
				j++
			}
			add(s[i:j], tokOp, false)
			i = j
		case strings.IndexByte("()[],;", ch) >= 0:
			add(s[i:i+1], tokPunct, false)
			i++
		default:
			// a dot, or anything else: a word, so whitespace around it stays
			add(s[i:i+1], tokWord, false)
			i++
		}
	}
	return toks, true
}

// endOfNumber returns the end of the numeric constant starting at i (digits,
// a fraction, an exponent with its sign, and any identifier characters glued
// to it, kept as they are).
func endOfNumber(s string, i int) int {
	n := len(s)
	j := i
	for j < n && (isDigit(s[j]) || s[j] == '.' || s[j] == '_') {
		j++
	}
	if j < n && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < n && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < n && isDigit(s[k]) {
			j = k
		}
	}
	for j < n && isIdentChar(s[j]) {
		j++
	}
	return j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// asciiLower lower-cases ASCII letters only, as PostgreSQL folds unquoted
// identifiers in a multibyte encoding.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
