package pgconn

import (
	"strings"
	"testing"
)

func TestQuoting(t *testing.T) {
	cases := map[string]string{
		`plain`:      `"plain"`,
		`Mixed Case`: `"Mixed Case"`,
		`a"b`:        `"a""b"`,
		`x;DROP`:     `"x;DROP"`,
	}
	for in, want := range cases {
		if got := QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	if got := QuoteQualified("s", "t"); got != `"s"."t"` {
		t.Errorf("QuoteQualified = %s", got)
	}
	if got := QuoteLiteral(`it's \ fine`); got != `'it''s \ fine'` {
		t.Errorf("QuoteLiteral = %s", got)
	}
}

func TestValidateName(t *testing.T) {
	ok := []string{"a", "Fx-Mixed Case", `q"uote;`, "ünïcødé", strings.Repeat("a", 63), strings.Repeat("é", 31)}
	for _, n := range ok {
		if err := ValidateName(n); err != nil {
			t.Errorf("ValidateName(%q) = %v", n, err)
		}
	}
	bad := []string{"", strings.Repeat("a", 64), strings.Repeat("é", 32), "a\x00b", "\xff"}
	for _, n := range bad {
		if err := ValidateName(n); err == nil {
			t.Errorf("ValidateName(%q) accepted", n)
		}
	}
}
