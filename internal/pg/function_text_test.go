package pg

import "testing"

func TestCheckFragment(t *testing.T) {
	ok := []string{
		"integer", "varchar(10)", "numeric(10, 2)", "text[]", "TABLE(a int, b text)", "SETOF \"My Type\"",
		"'x'", "'it''s; fine'", "E'a\\'; b'", "$$a; b$$", "$t$ -- not a comment $t$", "now()", "$1", "a$b", "\"semi;colon\"", "",
		"'--'", "'/*'",
	}
	for _, s := range ok {
		if err := CheckFragment(s); err != nil {
			t.Errorf("CheckFragment(%q) = %v, want nil", s, err)
		}
	}
	bad := []string{
		"int); DROP ROLE x; --", "1; DROP ROLE x", "int -- comment", "int /* c */", "int)", "numeric(10", "'open",
		"\"open", "$$open", "$t$open$$", "E'a\\'", "int\x00", "int AS $$ SELECT 1 $$; DROP ROLE x",
	}
	for _, s := range bad {
		if err := CheckFragment(s); err == nil {
			t.Errorf("CheckFragment(%q) = nil, want an error", s)
		}
	}
}

func TestCanonicalType(t *testing.T) {
	same := [][2]string{
		{"int", "integer"}, {"INT4", "integer"}, {"varchar(10)", "character varying"}, {"timestamptz", "timestamp with time zone"},
		{"timestamp(3)", "timestamp without time zone"}, {"int[]", "integer[]"}, {"int4[3][]", "integer[]"}, {"bool", "boolean"},
		{"pg_catalog.int8", "bigint"}, {"double  precision", "double precision"}, {"float8", "double precision"},
		{"SETOF int", "SETOF integer"}, {"setof text", "SETOF text"}, {"table(a int, b varchar(3))", "TABLE(a integer, b character varying)"},
		{"numeric(10,2)", "numeric"}, {"Text", "text"}, {"char(2)", "character"},
	}
	for _, p := range same {
		if !SameType(p[0], p[1]) {
			t.Errorf("SameType(%q, %q) = false (%q vs %q)", p[0], p[1], CanonicalType(p[0]), CanonicalType(p[1]))
		}
	}
	differ := [][2]string{{"int", "bigint"}, {"int[]", "integer"}, {"\"Int\"", "integer"}, {"text", "varchar"}, {"SETOF int", "int"}}
	for _, p := range differ {
		if SameType(p[0], p[1]) {
			t.Errorf("SameType(%q, %q) = true", p[0], p[1])
		}
	}
}

func TestSameFunctionArgs(t *testing.T) {
	cfg := []FunctionArg{{Name: "a", Type: "int", Mode: "in"}, {Name: "b", Type: "varchar(10)", Mode: "IN", Default: "'x'"}}
	srv := []FunctionArg{{Name: "a", Type: "integer", Mode: "IN"}, {Name: "b", Type: "character varying", Mode: "IN", Default: "'x'::character varying"}}
	if !SameFunctionArgs(cfg, srv) {
		t.Error("int/varchar(10)/'x' should mean integer/character varying/'x'::character varying")
	}
	srv[1].Default = "'y'::character varying"
	if SameFunctionArgs(cfg, srv) {
		t.Error("'x' should differ from 'y'")
	}
	srv[1].Default = "'x'::character varying"
	srv[0].Name = "z"
	if SameFunctionArgs(cfg, srv) {
		t.Error("names differ")
	}
}
