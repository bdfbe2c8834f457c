package pg

import "testing"

func TestParseQualifiedName(t *testing.T) {
	for in, want := range map[string]QualifiedName{
		"t1":                {"public", "t1"},
		"app.t2":            {"app", "t2"},
		`app."Odd.Tbl ü"`:   {"app", "Odd.Tbl ü"},
		`"My ""S"".x".T`:    {`My "S".x`, "T"},
		"a.b.c":             {"a", "b.c"},
		`"Mixed Case"."T1"`: {"Mixed Case", "T1"},
	} {
		got, err := ParseQualifiedName(in)
		if err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", in, got, err, want)
		}
		if back, err := ParseQualifiedName(got.String()); err != nil || back != got {
			t.Errorf("%s: String() %q does not parse back: %+v, %v", in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", ".t", "s.", `"unterminated`, `"a"b.c`, `a."b".c"`} {
		if _, err := ParseQualifiedName(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
