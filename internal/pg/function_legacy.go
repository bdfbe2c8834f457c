package pg

import (
	"strings"
)

// LegacyFunctionBody is what a body in the form cyrilgdn/postgresql used
// before 1.19.0 says: there `body` held "everything after the return type" of
// CREATE FUNCTION (`AS $$ ... $$ LANGUAGE plpgsql STABLE`), and the resource
// had no language, volatility, strictness, parallel safety nor security.
type LegacyFunctionBody struct {
	Body            string // the AS string's content, as prosrc holds it
	Language        string
	Volatility      string // VOLATILE (the default), STABLE, IMMUTABLE
	Parallel        string // UNSAFE (the default), RESTRICTED, SAFE
	Strict          bool
	SecurityDefiner bool
}

// ParseLegacyFunctionBody reads a body in the form of cyrilgdn before 1.19.0.
// It reports false when text is not in that form (a body as later releases
// and this provider write it: the function's source only) or holds a clause
// the resource cannot describe (COST, ROWS, SET, LEAKPROOF, WINDOW, SUPPORT,
// TRANSFORM, an object file and link symbol, an SQL-standard body): then it
// tells nothing, and the next refresh reads the function as it is.
func ParseLegacyFunctionBody(text string) (LegacyFunctionBody, bool) {
	toks, ok := legacyTokens(text)
	if !ok || len(toks) == 0 || !strings.EqualFold(toks[0].s, "AS") && !strings.EqualFold(toks[0].s, "LANGUAGE") {
		return LegacyFunctionBody{}, false
	}
	out := LegacyFunctionBody{Volatility: "VOLATILE", Parallel: "UNSAFE"}
	haveBody := false
	word := func(i int, w ...string) bool {
		if i+len(w) > len(toks) {
			return false
		}
		for k, x := range w {
			if toks[i+k].kind != ltWord || !strings.EqualFold(toks[i+k].s, x) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == ltSemicolon && i == len(toks)-1:
			i++
		case word(i, "AS") && i+1 < len(toks) && toks[i+1].kind == ltString && !haveBody:
			if i+2 < len(toks) && toks[i+2].kind == ltComma {
				return LegacyFunctionBody{}, false // obj_file, link_symbol
			}
			out.Body, haveBody = toks[i+1].s, true
			i += 2
		case word(i, "LANGUAGE") && i+1 < len(toks) && out.Language == "":
			switch toks[i+1].kind {
			case ltWord:
				out.Language = strings.ToLower(toks[i+1].s)
			case ltString, ltQuotedIdent:
				out.Language = toks[i+1].s
			default:
				return LegacyFunctionBody{}, false
			}
			i += 2
		case word(i, "IMMUTABLE"), word(i, "STABLE"), word(i, "VOLATILE"):
			out.Volatility = strings.ToUpper(t.s)
			i++
		case word(i, "STRICT"):
			out.Strict = true
			i++
		case word(i, "RETURNS", "NULL", "ON", "NULL", "INPUT"):
			out.Strict = true
			i += 5
		case word(i, "CALLED", "ON", "NULL", "INPUT"):
			out.Strict = false
			i += 4
		case word(i, "EXTERNAL", "SECURITY", "DEFINER"), word(i, "EXTERNAL", "SECURITY", "INVOKER"):
			out.SecurityDefiner = strings.EqualFold(toks[i+2].s, "DEFINER")
			i += 3
		case word(i, "SECURITY", "DEFINER"), word(i, "SECURITY", "INVOKER"):
			out.SecurityDefiner = strings.EqualFold(toks[i+1].s, "DEFINER")
			i += 2
		case word(i, "PARALLEL", "SAFE"), word(i, "PARALLEL", "UNSAFE"), word(i, "PARALLEL", "RESTRICTED"):
			out.Parallel = strings.ToUpper(toks[i+1].s)
			i += 2
		default:
			return LegacyFunctionBody{}, false
		}
	}
	if !haveBody || out.Language == "" {
		return LegacyFunctionBody{}, false
	}
	return out, true
}

type legacyTokKind int

const (
	ltWord legacyTokKind = iota
	ltString
	ltQuotedIdent
	ltComma
	ltSemicolon
)

type legacyToken struct {
	kind legacyTokKind
	s    string // a word as written; a string's or quoted identifier's content
}

// legacyTokens splits the clauses of CREATE FUNCTION after the return type
// into words, string constants ('...' and dollar-quoted; not E'...'), quoted
// identifiers, commas and semicolons, dropping comments.
func legacyTokens(s string) ([]legacyToken, bool) {
	var out []legacyToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(s[i:], "--"):
			k := strings.IndexByte(s[i:], '\n')
			if k < 0 {
				return out, true
			}
			i += k + 1
		case strings.HasPrefix(s[i:], "/*"):
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				return nil, false
			}
			i += k + 4
		case c == '\'':
			end, ok := endOfString(s, i+1, false)
			if !ok {
				return nil, false
			}
			out = append(out, legacyToken{ltString, strings.ReplaceAll(s[i+1:end-1], "''", "'")})
			i = end
		case c == '"':
			end, ok := endOfQuotedIdent(s, i+1)
			if !ok {
				return nil, false
			}
			out = append(out, legacyToken{ltQuotedIdent, strings.ReplaceAll(s[i+1:end-1], `""`, `"`)})
			i = end
		case c == '$':
			tag, ok := dollarTag(s[i:])
			if !ok {
				return nil, false
			}
			k := strings.Index(s[i+len(tag):], tag)
			if k < 0 {
				return nil, false
			}
			out = append(out, legacyToken{ltString, s[i+len(tag) : i+len(tag)+k]})
			i += len(tag) + k + len(tag)
		case c == ',':
			out = append(out, legacyToken{kind: ltComma, s: ","})
			i++
		case c == ';':
			out = append(out, legacyToken{kind: ltSemicolon, s: ";"})
			i++
		case isIdentChar(c) && c != '$':
			j := i
			for j < len(s) && isIdentChar(s[j]) && s[j] != '$' {
				j++
			}
			if j < len(s) && s[j] == '\'' {
				return nil, false // E'...', U&'...', B'...': not what cyrilgdn's users wrote here
			}
			out = append(out, legacyToken{ltWord, s[i:j]})
			i = j
		default:
			return nil, false
		}
	}
	return out, true
}
