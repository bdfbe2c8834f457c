package pg

import (
	"strings"
	"testing"
)

func TestCheckExpression(t *testing.T) {
	ok := []string{
		"true",
		"owner = current_user",
		"(a = 1) AND (b IN (1, 2))",
		"name = 'it''s; fine'",
		`"odd;col" = 1`,
		`"a""b" = 'x'`,
		"note = E'a\\'; b'",
		"body = $$ ; ) $$",
		"body = $tag$ ;) $$ $tag$",
		"a = $1",
		"a$b = 1",
		"x = 1 /* ; ) /* nested */ */",
		"x = 1 -- ; )\n",
		"x = U&'d\\0061t;a'",
		"note = E'a\\'); DROP ROLE x; SELECT ('", // one E'' string: the server reads it the same way
	}
	for _, s := range ok {
		if err := CheckExpression(s); err != nil {
			t.Errorf("CheckExpression(%q) = %v, want nil", s, err)
		}
	}
	bad := []string{
		"true); DROP ROLE x; SELECT (1",
		"true; DROP ROLE x",
		"true) WITH CHECK (false",
		"(true",
		"true)",
		"x = 'open",
		`"open = 1`,
		"x = 1 -- swallows the rest",
		"x = 1 /* open",
		"x = $q$ open",
		"note = 'a\\'); DROP ROLE x; SELECT ('", // no backslash escapes in a standard string
	}
	for _, s := range bad {
		if err := CheckExpression(s); err == nil {
			t.Errorf("CheckExpression(%q) = nil, want an error", s)
		}
	}
}

func TestCheckExpressionNamesTheSemicolon(t *testing.T) {
	err := CheckExpression("true); DROP ROLE x; SELECT (1")
	if err == nil || !strings.Contains(err.Error(), "semicolon") {
		t.Errorf("err = %v, want the semicolon named", err)
	}
}
