package tfkit

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitImportID(t *testing.T) {
	for _, tc := range []struct {
		id     string
		names  []string
		quoted bool
		bad    bool

		noRoundTrip bool // ImportID writes it unquoted
	}{
		{id: "main.app", names: []string{"main", "app"}},
		{id: "app", names: []string{"app"}},
		{id: `main."my.schema"`, names: []string{"main", "my.schema"}, quoted: true},
		{id: `"""a".c`, names: []string{`"a`, "c"}, quoted: true},
		{id: `"a""b".c`, names: []string{`a"b`, "c"}, quoted: true, noRoundTrip: true},
		{id: `"".x`, names: []string{"", "x"}, quoted: true},
		{id: `main."unterminated`, bad: true},
		{id: `main."x"y`, bad: true},
		{id: `ma"in.x "ü`, names: []string{`ma"in`, `x "ü`}},
		{id: `main..x`, bad: true},
		{id: `main.`, bad: true},
		{id: ``, bad: true},
	} {
		names, quoted, err := SplitImportID(tc.id)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error, got %q", tc.id, names)
			}
			continue
		}
		if err != nil || quoted != tc.quoted || !reflect.DeepEqual(names, tc.names) {
			t.Errorf("%q: got %q quoted=%v err=%v, want %q quoted=%v", tc.id, names, quoted, err, tc.names, tc.quoted)
		}
		if got := ImportID(names...); tc.quoted && !tc.noRoundTrip && got != tc.id {
			t.Errorf("ImportID(%q) = %q, want %q", names, got, tc.id)
		}
	}
}

func TestImportSplits(t *testing.T) {
	got, _ := ImportSplits("a.b.c", 2)
	if want := [][]string{{"a", "b.c"}, {"a.b", "c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("unquoted: got %q, want %q", got, want)
	}
	got, _ = ImportSplits(`a."b.c"`, 2)
	if want := [][]string{{"a", "b.c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("quoted: got %q, want %q", got, want)
	}
	if got, _ = ImportSplits(`a."b.c"`, 3); got != nil {
		t.Errorf("quoted, other count: got %q, want none", got)
	}
}

// roleSettingImportID has the shape of postgresql_role_setting's import ID.
type roleSettingImportID struct {
	Role      string `json:"role"`
	Database  string `json:"database"`
	Parameter string `json:"parameter"`
}

func TestParseIDRequiredKeys(t *testing.T) {
	var id roleSettingImportID
	if err := ParseID(`{"role":"app","parameter":"work_mem"}`, &id, "role", "parameter"); err != nil || id.Role != "app" || id.Parameter != "work_mem" {
		t.Fatalf("valid ID: %v %+v", err, id)
	}
	for in, want := range map[string]string{
		`{"role":"app"}`:                       "role and parameter are required",
		`{"role":"app","parameter":"x","z":1}`: "must be a JSON object",
		`app.work_mem`:                         "must be a JSON object",
	} {
		var id roleSettingImportID
		if err := ParseID(in, &id, "role", "parameter"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
	if got := JoinAnd([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Errorf("JoinAnd: %q", got)
	}
}
