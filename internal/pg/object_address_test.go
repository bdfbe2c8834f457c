package pg

import "testing"

func TestObjectTargetSQL(t *testing.T) {
	for _, c := range []struct {
		t    ObjectTarget
		want string
	}{
		{ObjectTarget{ObjectType: "table", Schema: "s", Name: "t.1"}, `TABLE "s"."t.1"`},
		{ObjectTarget{ObjectType: "Materialized View", Name: "mv"}, `MATERIALIZED VIEW "mv"`},
		{ObjectTarget{ObjectType: "column", Schema: `a"b`, Name: "t", Column: "c.1"}, `COLUMN "a""b"."t"."c.1"`},
		{ObjectTarget{ObjectType: "column", Name: "t", Column: "c"}, `COLUMN "t"."c"`},
	} {
		if got := c.t.SQL(); got != c.want {
			t.Errorf("%+v: SQL() = %s, want %s", c.t, got, c.want)
		}
	}
}
