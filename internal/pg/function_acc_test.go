package pg

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Statements that carry configuration text go over the extended protocol,
// where PostgreSQL refuses a second statement; pgx's Exec without arguments
// would use the simple protocol and run both.
func TestAccExecOneStatement_refusesSecondStatement(t *testing.T) {
	c := testClient(t, 2, acctest.RandName("one"))
	role := acctest.RandName("smuggled")
	ctx := context.Background()
	err := c.Tx(ctx, "postgres", func(ctx context.Context, tx pgx.Tx) error {
		return pgconn.ExecOneErr(ctx, tx, "SELECT 1; CREATE ROLE "+pgconn.QuoteIdent(role))
	})
	if err == nil {
		t.Fatal("two statements were accepted")
	}
	if acctest.QueryBool(t, "postgres", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", role) {
		acctest.Exec(t, "postgres", "DROP ROLE "+pgconn.QuoteIdent(role))
		t.Fatal("the second statement ran")
	}
	if err := c.Tx(ctx, "postgres", func(ctx context.Context, tx pgx.Tx) error {
		return pgconn.ExecOneErr(ctx, tx, "SELECT 1")
	}); err != nil {
		t.Fatalf("one statement: %v", err)
	}
}

// CreateFunction refuses smuggled text before sending anything.
func TestAccCreateFunction_refusesFragments(t *testing.T) {
	c := testClient(t, 2, acctest.RandName("frag"))
	role := acctest.RandName("victim")
	acctest.Exec(t, "postgres", "CREATE ROLE "+pgconn.QuoteIdent(role))
	t.Cleanup(func() { acctest.Exec(t, "postgres", "DROP ROLE IF EXISTS "+pgconn.QuoteIdent(role)) })
	drop := "DROP ROLE " + pgconn.QuoteIdent(role)
	for _, s := range []FunctionSpec{
		{Args: []FunctionArg{{Type: "int); " + drop + "; --", Mode: "IN"}}},
		{Args: []FunctionArg{{Type: "int", Mode: "IN", Default: "1); " + drop + "; --"}}},
		{Returns: "int AS $$ SELECT 1 $$; " + drop + "; --"},
	} {
		s.Schema, s.Name, s.Language, s.Body, s.Volatility, s.Parallel = "public", acctest.RandName("fn"), "sql", "SELECT 1", "VOLATILE", "UNSAFE"
		if _, err := c.CreateFunction(context.Background(), "postgres", s); err == nil {
			t.Errorf("accepted %+v", s)
		}
		if !acctest.QueryBool(t, "postgres", "SELECT exists(SELECT 1 FROM pg_roles WHERE rolname = $1)", role) {
			t.Fatalf("role %s was dropped by %+v", role, s)
		}
	}
}
