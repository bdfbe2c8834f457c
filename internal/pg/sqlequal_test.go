package pg

import (
	"strings"
	"testing"
)

func TestSameExpression(t *testing.T) {
	same := [][2]string{
		{"id>0", "(id > 0)"},
		{"id > 0", "((id > 0))"},
		{"owner = current_user", "(owner = CURRENT_USER)"},
		{"  id\t>\n0  ", "(id > 0)"},
		{"a OR b", "(a or b)"},
		{"lower(name) = 'x'", "(lower(name) = 'x')"},
		{"lower ( name )='x'", "(lower(name) = 'x')"},
		{"a::text", "a :: TEXT"},
		{"arr[1 : 2]", "arr[1:2]"},
		{`"Owner" = current_user`, `("Owner" = CURRENT_USER)`},
		{"E'a\\'b' = c", "(e'a\\'b' = c)"},
		{"$$X$$ = c", "($$X$$ = c)"},
		{"1E5 > x", "(1e5 > x)"},
		{"1.5e-3 > x", "(1.5e-3 > x)"},
		{"f(a, b)", "(f(a,b))"},
		{"(a) = (b)", "((a) = (b))"},
		{"U&'d\\0061t' = c", "(u&'d\\0061t' = c)"},
	}
	for _, c := range same {
		if !SameExpression(c[0], c[1]) || !SameExpression(c[1], c[0]) {
			t.Errorf("SameExpression(%q, %q) = false, want true", c[0], c[1])
		}
	}
	differ := [][2]string{
		{"a or b", "aor b"},
		{"a or b", "a orb"},
		{"'X'", "'x'"},
		{`"A"`, "a"},
		{`"A"`, `"a"`},
		{"a = 'x y'", "a = 'x  y'"},
		{"a = 'ab'", "a = 'a' 'b'"},
		{"a = 'a'\n'b'", "a = 'a' 'b'"},
		{"a = $$X$$", "a = $$x$$"},
		{"E'x'", "E 'x'"},
		{"U&'x'", "u & 'x'"},
		{"x = 1", "x = 2"},
		{"a < = b", "a <= b"},
		{"a = -1", "a =-1"},
		{"a - -1", "a --1"},
		{"a -- c\n", "a"},
		{"a /* c */", "a"},
		{"t.col", "t . col"},
		{"1.5", "1 .5"},
		{"1e-5", "1e - 5"},
		{"(a, b)", "a, b"},
		{"(a).b", "a.b"},
		{"(a) = (b)", "a) = (b"},
		{"(x)::int > 1", "x::int > 1"},
		{"a = 'x", "a = 'x'"},
		{"'unclosed", "unclosed"},
		{"ä = 1", "Ä = 1"},
		{"a and b", "(a) and (b)"},
		{"$1 = a", "$2 = a"},
		{"a", ""},
		{"a\x00b", "a b"},
	}
	for _, c := range differ {
		if SameExpression(c[0], c[1]) || SameExpression(c[1], c[0]) {
			t.Errorf("SameExpression(%q, %q) = true, want false", c[0], c[1])
		}
	}
	// identical text is the same even where the comparison gives up
	for _, s := range []string{"a -- c\n", "'a'\n'b'", "'unclosed"} {
		if !SameExpression(s, s) {
			t.Errorf("SameExpression(%q, itself) = false", s)
		}
	}
}

func TestCanonicalExpression(t *testing.T) {
	for in, want := range map[string]string{
		"(id > 0)":                 "id>0",
		"((owner = CURRENT_USER))": "owner=current_user",
		"NOT  a  AND b":            "not a and b",
		`"X Y" || 'Z  z'`:          `"X Y"||'Z  z'`,
		"f( a , b )":               "f(a,b)",
		"(a, b)":                   "(a,b)",
		"a = - 1":                  "a= -1",
	} {
		got, ok := canonicalExpression(in)
		got = strings.ReplaceAll(got, "\x00", "")
		if !ok || got != want {
			t.Errorf("canonicalExpression(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
