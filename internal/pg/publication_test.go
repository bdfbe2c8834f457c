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

// One TABLE keyword for all tables: PostgreSQL 13 and 14 reject one per table
// ("FOR TABLE a, TABLE b" is 15+ grammar).
func TestPublicationObjects(t *testing.T) {
	tables := []QualifiedName{{"public", "a"}, {"app", "B c"}}
	for _, c := range []struct {
		tables  []QualifiedName
		schemas []string
		want    string
	}{
		{tables, nil, `TABLE "public"."a", "app"."B c"`},
		{nil, []string{"s1", "S 2"}, `TABLES IN SCHEMA "s1", "S 2"`},
		{tables[:1], []string{"s1"}, `TABLE "public"."a", TABLES IN SCHEMA "s1"`},
		{nil, nil, ""},
	} {
		if got := publicationObjects(c.tables, c.schemas); got != c.want {
			t.Errorf("publicationObjects(%v, %v) = %s; want %s", c.tables, c.schemas, got, c.want)
		}
	}
}
