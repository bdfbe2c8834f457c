package pg

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

func TestParseACLItem(t *testing.T) {
	cases := []struct {
		in   string
		want ACLItem
	}{
		{"alice=arw/bob", ACLItem{Grantee: "alice", Grantor: "bob", HasGrantor: true,
			Privileges: []string{"INSERT", "SELECT", "UPDATE"}, Grantable: []string{}}},
		{"=r/bob", ACLItem{Grantee: "public", Grantor: "bob", HasGrantor: true,
			Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{`"a b"=r*w/"c""d"`, ACLItem{Grantee: "a b", Grantor: `c"d`, HasGrantor: true,
			Privileges: []string{"SELECT", "UPDATE"}, Grantable: []string{"SELECT"}}},
		{"postgres=arwdDxtm/postgres", ACLItem{Grantee: "postgres", Grantor: "postgres", HasGrantor: true,
			Privileges: []string{"DELETE", "INSERT", "MAINTAIN", "REFERENCES", "SELECT", "TRIGGER", "TRUNCATE", "UPDATE"}, Grantable: []string{}}},
		{"o=UC*Tc*sA*X/o", ACLItem{Grantee: "o", Grantor: "o", HasGrantor: true,
			Privileges: []string{"ALTER SYSTEM", "CONNECT", "CREATE", "EXECUTE", "SET", "TEMPORARY", "USAGE"},
			Grantable:  []string{"ALTER SYSTEM", "CONNECT", "CREATE"}}},
		// Non-ASCII names: PostgreSQL prints them quoted, and reads them bare too.
		{`"ünï"=r/bob`, ACLItem{Grantee: "ünï", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{`ünï=r/bob`, ACLItem{Grantee: "ünï", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		// Mixed case is not quoted by PostgreSQL and kept as is.
		{`Alice=r/Bob`, ACLItem{Grantee: "Alice", Grantor: "Bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		// "public" in quotes is a (forbidden) role name, not PUBLIC; an empty quoted name is PUBLIC.
		{`""=r/b`, ACLItem{Grantee: "public", Grantor: "b", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{" alice =r*r/ bob ", ACLItem{Grantee: "alice", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{"SELECT"}}},
		{"alice=/bob", ACLItem{Grantee: "alice", Grantor: "bob", HasGrantor: true, Privileges: []string{}, Grantable: []string{}}},
		{"alice=r", ACLItem{Grantee: "alice", Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{"group g=r/bob", ACLItem{Grantee: "g", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{`"group"=r/bob`, ACLItem{Grantee: "group", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
		{"16384=r/bob", ACLItem{Grantee: "16384", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{}}},
	}
	for _, c := range cases {
		got, err := ParseACLItem(c.in)
		if err != nil {
			t.Errorf("ParseACLItem(%q): %v", c.in, err)
			continue
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("ParseACLItem(%q) (-want +got):\n%s", c.in, d)
		}
	}
}

func TestParseACLItemErrors(t *testing.T) {
	cases := map[string]string{
		"":                               `an "=" after the grantee`,
		"alice":                          `an "=" after the grantee`,
		"alice=rq/bob":                   `invalid privilege letter 'q'`,
		"alice=*r/bob":                   `must follow a privilege letter`,
		"alice=r/":                       `must follow the "/"`,
		`"alice=r/bob`:                   "unterminated",
		"alice=r/bob x":                  `unexpected`,
		"alice=r/bob,x=r/bob":            `unexpected`,
		"alice=r /bob":                   `unexpected`,
		strings.Repeat("a", 64) + "=r/b": "longer than 63 bytes",
		"\"a\x00\"=r/b":                  "NUL",
		"{alice=r/bob}":                  `an "=" after the grantee`,
	}
	for in, want := range cases {
		_, err := ParseACLItem(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseACLItem(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestFormatACLItem(t *testing.T) {
	cases := []struct {
		in   ACLItem
		want string
	}{
		{ACLItem{Grantee: "alice", Grantor: "bob", HasGrantor: true, Privileges: []string{"UPDATE", "select", "INSERT"}}, "alice=arw/bob"},
		{ACLItem{Grantee: "public", Grantor: "bob", HasGrantor: true, Privileges: []string{"SELECT"}}, "=r/bob"},
		{ACLItem{Grantee: "a b", Grantor: `c"d`, HasGrantor: true, Privileges: []string{"SELECT", "UPDATE"}, Grantable: []string{"SELECT"}}, `"a b"=r*w/"c""d"`},
		{ACLItem{Grantee: "ünï", Grantor: "Bob", HasGrantor: true, Privileges: []string{"TEMP", "CONNECT", "CREATE"}, Grantable: []string{"connect"}}, `"ünï"=CTc*/Bob`},
		{ACLItem{Grantee: "o", Grantor: "o", HasGrantor: true, Privileges: []string{"MAINTAIN", "ALTER SYSTEM", "SET"}}, "o=sAm/o"},
		{ACLItem{Grantee: "alice", Privileges: []string{"SELECT"}}, "alice=r"},
		{ACLItem{Grantee: "alice", Grantor: "bob", HasGrantor: true}, "alice=/bob"},
		{ACLItem{Grantee: "PUBLIC", Grantor: "bob", HasGrantor: true, Privileges: []string{"USAGE"}}, "PUBLIC=U/bob"},
	}
	for _, c := range cases {
		got, err := FormatACLItem(c.in)
		if err != nil {
			t.Errorf("FormatACLItem(%+v): %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("FormatACLItem(%+v) = %s, want %s", c.in, got, c.want)
		}
		// Round trip: parsing the text gives the same item back (names upper-cased, sorted).
		back, err := ParseACLItem(got)
		if err != nil {
			t.Errorf("ParseACLItem(%q): %v", got, err)
			continue
		}
		again, _ := FormatACLItem(back)
		if again != got {
			t.Errorf("round trip of %q gave %q", got, again)
		}
	}
}

func TestFormatACLItemErrors(t *testing.T) {
	cases := []struct {
		in   ACLItem
		want string
	}{
		{ACLItem{Grantee: "", Grantor: "b", HasGrantor: true}, `use "public" for PUBLIC`},
		{ACLItem{Grantee: "a", Grantor: "", HasGrantor: true}, "grantor must not be empty"},
		{ACLItem{Grantee: "a", Grantor: "public", HasGrantor: true}, "grantor cannot be PUBLIC"},
		{ACLItem{Grantee: strings.Repeat("x", 64), Grantor: "b", HasGrantor: true}, "grantee is 64 bytes long"},
		{ACLItem{Grantee: "a\x00", Grantor: "b", HasGrantor: true}, "grantee must not contain a NUL byte"},
		{ACLItem{Grantee: "a", Grantor: "b", HasGrantor: true, Privileges: []string{"ALL"}}, `unknown privilege "ALL" in privileges`},
		{ACLItem{Grantee: "a", Grantor: "b", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{"UPDATE"}}, `grantable privilege "UPDATE" is not in privileges`},
		{ACLItem{Grantee: "a", Grantor: "b", HasGrantor: true, Privileges: []string{"SELECT"}, Grantable: []string{"bogus"}}, `unknown privilege "bogus" in grantable`},
	}
	for _, c := range cases {
		_, err := FormatACLItem(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FormatACLItem(%+v) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestParseACL(t *testing.T) {
	in := `{postgres=arwdDxt/postgres,=r/postgres,"\"a b\"=r*/\"c\"\"d\"",  "\"ünï\"=w/postgres" }`
	got, err := ParseACL(in)
	if err != nil {
		t.Fatal(err)
	}
	var grantees []string
	for _, it := range got {
		grantees = append(grantees, it.Grantee+"/"+it.Grantor)
	}
	if d := cmp.Diff([]string{"postgres/postgres", "public/postgres", `a b/c"d`, "ünï/postgres"}, grantees); d != "" {
		t.Fatalf("grantees (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"SELECT"}, got[2].Grantable); d != "" {
		t.Fatalf("grantable: %s", d)
	}
	out, err := FormatACL(got)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{postgres=arwdDxt/postgres,=r/postgres,"\"a b\"=r*/\"c\"\"d\"","\"ünï\"=w/postgres"}`; out != want {
		t.Fatalf("FormatACL = %s, want %s", out, want)
	}
	for _, empty := range []string{"{}", " { } "} {
		if items, err := ParseACL(empty); err != nil || len(items) != 0 {
			t.Errorf("ParseACL(%q) = %v, %v", empty, items, err)
		}
	}
	if out, _ := FormatACL(nil); out != "{}" {
		t.Errorf("FormatACL(nil) = %s", out)
	}
	for in, want := range map[string]string{
		"":                    `enclosed in "{" and "}"`,
		"alice=r/bob":         `enclosed in "{" and "}"`,
		"{NULL}":              "NULL elements",
		"{a=r/b,}":            "empty array element",
		`{"a=r/b}`:            "unterminated",
		`{"a=r/b" x}`:         `unexpected 'x'`,
		"{{a=r/b}}":           "nested arrays",
		"{a=r/b,c=q/b}":       `element 2 ("c=q/b"): invalid privilege letter 'q'`,
		"[1:1]={a=r/b}":       `enclosed in "{" and "}"`,
		`{"a=r/b","=r/b\\x"}`: `element 2`,
	} {
		_, err := ParseACL(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseACL(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestScramVerifierWithSalt(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v, err := ScramVerifierWithSalt("pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	// StoredKey and ServerKey of the RFC 7677 example (user "user", password "pencil").
	want := "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU="
	if v != want {
		t.Fatalf("verifier = %s, want %s", v, want)
	}
	if again, _ := ScramVerifierWithSalt("pencil", salt, 4096); again != v {
		t.Fatal("not deterministic")
	}
	if !ScramVerifierMatches(v, "pencil") {
		t.Fatal("verifier does not match its password")
	}
	if _, err := ScramVerifierWithSalt("pencil", nil, 4096); err == nil {
		t.Fatal("empty salt accepted")
	}
	if _, err := ScramVerifierWithSalt("pencil", salt, 0); err == nil {
		t.Fatal("zero iterations accepted")
	}
}

func TestValidateLiteral(t *testing.T) {
	if err := pgconn.ValidateLiteral(`it's \ ünï`); err != nil {
		t.Fatal(err)
	}
	if err := pgconn.ValidateLiteral("a\x00b"); err == nil || !strings.Contains(err.Error(), "byte 1") {
		t.Fatalf("NUL: %v", err)
	}
}
