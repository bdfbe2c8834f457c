package pg

import (
	"errors"
	"fmt"
	"testing"

	pgxconn "github.com/jackc/pgx/v5/pgconn"
)

func TestNotFoundMessages(t *testing.T) {
	target := func(objectType string, objects, columns []string) GrantTarget {
		return GrantTarget{Database: "shop", Schema: "App", ObjectType: objectType, Objects: objects, Columns: columns, Grantee: "app"}
	}
	for _, c := range []struct {
		t    GrantTarget
		objs []objectRow
		want string
		what Missing
	}{
		{target(ObjSchema, nil, nil), nil, `schema "App" does not exist in database "shop"`, MissingSchema},
		{target(ObjDatabase, nil, nil), nil, `database "shop" does not exist`, MissingDatabase},
		{target(ObjTable, []string{"t", `o"dd`}, nil), []objectRow{{grantObject: grantObject{name: "t"}}},
			`table "App"."o""dd" does not exist in database "shop"`, MissingObjects},
		{target(ObjSequence, []string{"a", "b"}, nil), nil, `sequence "App"."a", sequence "App"."b" do not exist in database "shop"`, MissingObjects},
		{target(ObjFunction, []string{"f(integer, text)", "g"}, nil), nil,
			`function "App"."f"(integer, text), function "App"."g" do not exist in database "shop"`, MissingObjects},
		{target(ObjColumn, []string{"t"}, []string{"a", "b"}), []objectRow{{grantObject: grantObject{name: "t", column: "a"}}},
			`column "b" of table "App"."t" does not exist in database "shop"`, MissingColumns},
		{target(ObjColumn, []string{"t"}, []string{"a"}), nil, `table "App"."t" does not exist in database "shop"`, MissingObjects},
		{target(ObjServer, []string{"s"}, nil), nil, `server "s" does not exist in database "shop"`, MissingObjects},
	} {
		err := missingError(c.t, c.objs, nil)
		nf := NotFound(fmt.Errorf("wrapped: %w", errors.Join(errors.New("other"), err)))
		if err == nil || err.Error() != c.want || len(nf) != 1 || nf[0].What != c.what {
			t.Errorf("%s %v %v: got %v (%v), want %q (%d)", c.t.ObjectType, c.t.Objects, c.t.Columns, err, nf, c.want, c.what)
		}
	}
	if err := missingError(target(ObjTable, nil, nil), nil, nil); err != nil {
		t.Errorf("every table of a schema: no object is named, none is missing: %v", err)
	}
}

// TestUndefinedName_regressionCacheLookupFailed: a routine dropped by
// another session while a revoke resolved it ("cache lookup failed for
// aggregate", XX000, walk pair grant_grantor_is_owner) counts as a name
// that no longer resolves, so the revoke checks what is gone and retries;
// another internal error does not.
func TestUndefinedName_regressionCacheLookupFailed(t *testing.T) {
	for _, c := range []struct {
		code, msg string
		want      bool
	}{
		{"XX000", "cache lookup failed for aggregate 20504", true},
		{"XX000", "cache lookup failed for function 16999", true},
		{"XX000", "could not open file", false},
		{"42883", "function f() does not exist", true},
		{"42501", "permission denied", false},
	} {
		err := fmt.Errorf("revoking: %w", &pgxconn.PgError{Code: c.code, Message: c.msg})
		if got := undefinedName(err); got != c.want {
			t.Errorf("undefinedName(%s %q) = %v, want %v", c.code, c.msg, got, c.want)
		}
	}
}
