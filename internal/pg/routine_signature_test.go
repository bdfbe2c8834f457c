package pg

import (
	"reflect"
	"testing"
)

func TestRoutineSignature(t *testing.T) {
	for _, c := range []struct {
		in   string
		name string
		args []string
		ok   bool
	}{
		{"f", "", nil, false},
		{"f()", "f", []string{}, true},
		{"f(text, char)", "f", []string{"text", "char"}, true},
		{"f(numeric(10,2), int[] , \"my,type\")", "f", []string{"numeric(10,2)", "int[]", `"my,type"`}, true},
		{"f(int", "", nil, false},
		{"(int)", "", nil, false},
	} {
		name, args, ok := routineSignature(c.in)
		if name != c.name || !reflect.DeepEqual(args, c.args) || ok != c.ok {
			t.Errorf("routineSignature(%q) = %q, %q, %v; want %q, %q, %v", c.in, name, args, ok, c.name, c.args, c.ok)
		}
	}
}

func TestArgumentTypes(t *testing.T) {
	for _, c := range []struct {
		in    string
		cands []string
		out   bool
	}{
		{"int", []string{"int"}, false},
		{"double precision", []string{"double precision", "precision"}, false},
		{"IN a integer", []string{"a integer", "integer"}, false},
		{"variadic int[]", []string{"int[]"}, false},
		{"OUT b text", nil, true},
		{`"my arg" text`, []string{`"my arg" text`, "text"}, false},
		{`"my type"`, []string{`"my type"`}, false},
	} {
		cands, out := argumentTypes(c.in)
		if !reflect.DeepEqual(cands, c.cands) || out != c.out {
			t.Errorf("argumentTypes(%q) = %q, %v; want %q, %v", c.in, cands, out, c.cands, c.out)
		}
	}
}
