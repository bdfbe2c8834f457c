package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// FunctionArg is one parameter of a function.
type FunctionArg struct {
	Name    string // "" = unnamed
	Type    string // as written (spec) or format_type (read)
	Mode    string // IN, OUT, INOUT, VARIADIC (TABLE columns are reported as OUT)
	Default string // SQL expression, "" = none
}

// IsInput reports whether the argument is part of the function's identity.
func (a FunctionArg) IsInput() bool { return a.Mode != "OUT" && a.Mode != "TABLE" }

// Function is a function as the catalog describes it.
type Function struct {
	OID             uint32
	Schema          string
	Name            string
	Args            []FunctionArg
	Returns         string // pg_get_function_result
	Language        string
	Body            string
	Volatility      string // VOLATILE, STABLE, IMMUTABLE
	Parallel        string // UNSAFE, RESTRICTED, SAFE
	Strict          bool
	SecurityDefiner bool
	Kind            string // f (function), p (procedure), a (aggregate), w (window)
}

// FunctionSpec is what a function should look like.
type FunctionSpec struct {
	Schema          string
	Name            string
	Args            []FunctionArg
	Returns         string // "" = derived from OUT arguments, or void
	Language        string
	Body            string
	Volatility      string
	Parallel        string
	Strict          bool
	SecurityDefiner bool
}

// FunctionSignature renders schema.name(type, ...) with the input argument
// types, in the form regprocedure accepts.
func FunctionSignature(schema, name string, inputTypes []string) string {
	return pgconn.QuoteQualified(schema, name) + "(" + strings.Join(inputTypes, ", ") + ")"
}

// InputTypes lists the types of the arguments that identify the function.
func InputTypes(args []FunctionArg) []string {
	var out []string
	for _, a := range args {
		if a.IsInput() {
			out = append(out, a.Type)
		}
	}
	return out
}

func hasOutputArgs(args []FunctionArg) bool {
	for _, a := range args {
		if a.Mode == "OUT" || a.Mode == "INOUT" || a.Mode == "TABLE" {
			return true
		}
	}
	return false
}

// FindFunction returns the OID of the function with that signature, or 0.
// The signature travels as a bind parameter and is parsed by regprocedure.
func (c *Client) FindFunction(ctx context.Context, db, schema, name string, inputTypes []string) (uint32, error) {
	var oid *uint32
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT to_regprocedure($1)::oid`, FunctionSignature(schema, name, inputTypes)).Scan(&oid)
	})
	if err != nil {
		switch pgconn.SQLState(err) {
		case pgconn.CodeInvalidSchemaName, pgconn.CodeUndefinedObject, "42601", "22P02":
			return 0, nil // unknown schema/type or unparsable type: no such function
		}
		return 0, err
	}
	if oid == nil {
		return 0, nil
	}
	return *oid, nil
}

// ReadFunction reads the function with OID oid in database db; nil if it does not exist.
func (c *Client) ReadFunction(ctx context.Context, db string, oid uint32) (*Function, error) {
	var f *Function
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var err error
		f, err = readFunction(ctx, tx, oid)
		return err
	})
	return f, err
}

func readFunction(ctx context.Context, q Querier, oid uint32) (*Function, error) {
	var f Function
	var vol, par, kind string
	err := q.QueryRow(ctx, `
SELECT p.oid, n.nspname, p.proname, coalesce(pg_get_function_result(p.oid), ''), l.lanname,
       coalesce(p.prosrc, ''), p.provolatile::text, p.proparallel::text, p.proisstrict, p.prosecdef, p.prokind::text
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid = $1`, oid).Scan(&f.OID, &f.Schema, &f.Name, &f.Returns, &f.Language, &f.Body, &vol, &par, &f.Strict, &f.SecurityDefiner, &kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading function %d: %w", oid, err)
	}
	f.Volatility = map[string]string{"i": "IMMUTABLE", "s": "STABLE", "v": "VOLATILE"}[vol]
	f.Parallel = map[string]string{"s": "SAFE", "r": "RESTRICTED", "u": "UNSAFE"}[par]
	f.Kind = kind
	rows, err := q.Query(ctx, `
SELECT coalesce(p.proargnames[a.ord], ''), coalesce(p.proargmodes[a.ord]::text, 'i'), format_type(a.t, NULL),
       coalesce(pg_get_function_arg_default(p.oid, a.ord::int), '')
FROM pg_proc p, unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS a(t, ord)
WHERE p.oid = $1 ORDER BY a.ord`, oid)
	if err != nil {
		return nil, fmt.Errorf("reading arguments of function %d: %w", oid, err)
	}
	defer rows.Close()
	for rows.Next() {
		var a FunctionArg
		var mode string
		if err := rows.Scan(&a.Name, &mode, &a.Type, &a.Default); err != nil {
			return nil, err
		}
		if mode == "t" {
			continue // a column of RETURNS TABLE (...): part of Returns, not an argument
		}
		a.Mode = map[string]string{"i": "IN", "o": "OUT", "b": "INOUT", "v": "VARIADIC"}[mode]
		f.Args = append(f.Args, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return &f, nil
}

// check refuses configuration text that is not a single fragment (see CheckFragment).
func (s FunctionSpec) check() error {
	for i, a := range s.Args {
		if err := CheckFragment(a.Type); err != nil {
			return fragmentError(fmt.Sprintf("the type of argument %d", i+1), err)
		}
		if err := CheckFragment(a.Default); err != nil {
			return fragmentError(fmt.Sprintf("the default of argument %d", i+1), err)
		}
	}
	if err := CheckFragment(s.Returns); err != nil {
		return fragmentError("the result type", err)
	}
	return nil
}

func functionDefinition(replace bool, s FunctionSpec) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if replace {
		b.WriteString("OR REPLACE ")
	}
	b.WriteString("FUNCTION ")
	b.WriteString(pgconn.QuoteQualified(s.Schema, s.Name))
	b.WriteString("(")
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Mode != "" && a.Mode != "IN" {
			b.WriteString(a.Mode + " ")
		}
		if a.Name != "" {
			b.WriteString(pgconn.QuoteIdent(a.Name) + " ")
		}
		// Types and default expressions are SQL fragments by nature: PostgreSQL
		// has no parameter form for them in DDL. They are checked by
		// CheckFragment and the statement goes over the extended protocol.
		b.WriteString(a.Type)
		if a.Default != "" {
			b.WriteString(" DEFAULT " + a.Default)
		}
	}
	b.WriteString(")")
	switch {
	case s.Returns != "":
		b.WriteString(" RETURNS " + s.Returns)
	case !hasOutputArgs(s.Args):
		b.WriteString(" RETURNS void")
	}
	b.WriteString(" LANGUAGE " + pgconn.QuoteIdent(strings.ToLower(s.Language)))
	b.WriteString(" " + s.Volatility)
	if s.Strict {
		b.WriteString(" STRICT")
	} else {
		b.WriteString(" CALLED ON NULL INPUT")
	}
	if s.SecurityDefiner {
		b.WriteString(" SECURITY DEFINER")
	} else {
		b.WriteString(" SECURITY INVOKER")
	}
	b.WriteString(" PARALLEL " + s.Parallel)
	// The body cannot be a bind parameter in a utility statement.
	b.WriteString(" AS " + pgconn.QuoteLiteral(s.Body))
	return b.String()
}

// CreateFunction creates the function and returns its OID.
func (c *Client) CreateFunction(ctx context.Context, db string, s FunctionSpec) (uint32, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	var oid uint32
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		lenders, err := schemaCreateLenders(ctx, tx, s.Schema)
		if err != nil {
			return err
		}
		if err := withRoles(ctx, tx, lenders, func() error { return pgconn.ExecOneErr(ctx, tx, functionDefinition(false, s)) }); err != nil {
			return fmt.Errorf("creating function %s: %w", pgconn.QuoteQualified(s.Schema, s.Name), err)
		}
		return tx.QueryRow(ctx, `SELECT to_regprocedure($1)::oid`, FunctionSignature(s.Schema, s.Name, InputTypes(s.Args))).Scan(&oid)
	})
	return oid, err
}

// UpdateFunction renames and moves the function with OID oid when needed, then
// replaces its definition (same signature) in place, all in one transaction.
func (c *Client) UpdateFunction(ctx context.Context, db string, oid uint32, s FunctionSpec) error {
	if err := s.check(); err != nil {
		return err
	}
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		if err := pgconn.LockObjects(ctx, tx, []pgconn.AdvisoryLockKey{{ClassID: ClassProc, ObjID: oid}}); err != nil {
			return err
		}
		cur, err := readFunction(ctx, tx, oid)
		if err != nil {
			return err
		}
		if cur == nil {
			return fmt.Errorf("function %s (OID %d) no longer exists", pgconn.QuoteQualified(s.Schema, s.Name), oid)
		}
		// renaming, moving and replacing a function all need CREATE on its
		// schema (the old one and the new one)
		lenders, err := schemaCreateLenders(ctx, tx, cur.Schema, s.Schema)
		if err != nil {
			return err
		}
		return withRoles(ctx, tx, lenders, func() error {
			if cur.Name != s.Name {
				if _, err := tx.Exec(ctx, "ALTER FUNCTION "+regprocedureText(ctx, tx, oid)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
					return fmt.Errorf("renaming function: %w", err)
				}
			}
			if cur.Schema != s.Schema {
				if _, err := tx.Exec(ctx, "ALTER FUNCTION "+regprocedureText(ctx, tx, oid)+" SET SCHEMA "+pgconn.QuoteIdent(s.Schema)); err != nil {
					return fmt.Errorf("moving function to schema %q: %w", s.Schema, err)
				}
			}
			if err := pgconn.ExecOneErr(ctx, tx, functionDefinition(true, s)); err != nil {
				return fmt.Errorf("replacing function %s: %w", pgconn.QuoteQualified(s.Schema, s.Name), err)
			}
			return nil
		})
	})
}

// schemaCreateLenders lists the owners of those of schemas the connected role
// has no CREATE on, whose privileges a managed admin borrows (withRoles) to
// create, rename, move or replace a function there: a function in a schema
// another role owns failed with "permission denied for schema" (found by the
// random walk of internal/walk; TestAccFunction_regressionSchemaOwnedByAnotherRole).
// The owner pg_database_owner (of public since PostgreSQL 15) stands for the
// database's owner; a superuser borrows nothing, nor does a missing schema
// (the statement says it is missing).
func schemaCreateLenders(ctx context.Context, q Querier, schemas ...string) ([]string, error) {
	rows, err := q.Query(ctx, `
SELECT DISTINCT CASE WHEN pg_get_userbyid(n.nspowner) = 'pg_database_owner'
                     THEN (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database())
                     ELSE pg_get_userbyid(n.nspowner) END
FROM pg_namespace n
WHERE n.nspname = ANY($1) AND NOT has_schema_privilege(n.oid, 'CREATE')
  AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)`, schemas)
	if err != nil {
		return nil, fmt.Errorf("reading the owners of schemas %v: %w", schemas, err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// regprocedureText is the server's quoted rendering of the function's signature.
func regprocedureText(ctx context.Context, q Querier, oid uint32) string {
	var s string
	if err := q.QueryRow(ctx, `SELECT $1::oid::regprocedure::text`, oid).Scan(&s); err != nil {
		return "pg_catalog.invalid_function_oid()" // fails with a clear error right after
	}
	return s
}

// DropFunction drops the function with OID oid (or, when oid is 0 or gone, the
// one with that signature); a missing function is not an error.
func (c *Client) DropFunction(ctx context.Context, db string, oid uint32, schema, name string, inputTypes []string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var sig *string
		if err := tx.QueryRow(ctx, `SELECT (SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.oid = $1)`, oid).Scan(&sig); err != nil {
			return err
		}
		if sig == nil {
			if err := tx.QueryRow(ctx, `SELECT to_regprocedure($1)::text`, FunctionSignature(schema, name, inputTypes)).Scan(&sig); err != nil {
				return err
			}
		}
		if sig == nil {
			return nil
		}
		stmt := "DROP FUNCTION IF EXISTS " + *sig
		if cascade {
			stmt += " CASCADE"
		}
		_, err := tx.Exec(ctx, stmt)
		return err
	})
	switch pgconn.SQLState(err) {
	case pgconn.CodeInvalidCatalogName, pgconn.CodeInvalidSchemaName:
		return nil // the database or schema is gone, and the function with it
	}
	return err
}

// FunctionDependents counts the objects that depend on the function with OID
// oid (triggers, views, defaults...), which DROP FUNCTION without CASCADE refuses to drop.
func (c *Client) FunctionDependents(ctx context.Context, db string, oid uint32) (int, error) {
	var n int
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT count(DISTINCT (classid, objid)) FROM pg_depend
WHERE refclassid = 'pg_proc'::regclass AND refobjid = $1 AND deptype = 'n'`, oid).Scan(&n)
	})
	return n, err
}
