package pg

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	pgxconn "github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The postgresql_query data source runs one statement of the user's, which
// must read and nothing else. Four layers hold it to that:
//
//   - CheckQuery (at validate time, no connection): the text must be one
//     statement that starts with SELECT, WITH, VALUES or TABLE, so utility
//     statements that PostgreSQL allows in a read-only transaction but that
//     outlive it (DEALLOCATE, PREPARE, LOAD, SET of a session, LISTEN) never run.
//   - the extended protocol parses exactly one statement: a second one is
//     refused by the server ("cannot insert multiple commands into a prepared
//     statement");
//   - a READ ONLY transaction on a session whose default is read-only:
//     PostgreSQL refuses every write, DDL and DCL in it, those of functions
//     the query calls included (a volatile function that inserts fails);
//   - the transaction is rolled back, never committed, with a statement
//     timeout of its own, and session advisory locks taken by the query are
//     released before the connection goes back to the pool.

// QueryColumn is a column of a query's result: its name and its type as
// format_type spells it (e.g. `integer`, `character varying(20)`).
type QueryColumn struct {
	Name string
	Type string
}

// QueryResult is what a query returned: its columns, and its rows as the
// server's text output of each value (nil for NULL).
type QueryResult struct {
	Columns []QueryColumn
	Rows    [][]*string
}

// ErrTooManyRows is returned (wrapped) by RunReadOnlyQuery when the query
// returns more rows than allowed.
var ErrTooManyRows = errors.New("too many rows")

// queryKeywords are the statements CheckQuery accepts, by their first keyword.
var queryKeywords = []string{"select", "with", "values", "table"}

// CheckQuery checks, without a connection, that s is one query statement:
// its first keyword (after comments and opening parentheses) is SELECT, WITH,
// VALUES or TABLE, quotes and comments are closed, parentheses balance, and
// no semicolon outside quotes ends it early (one trailing semicolon is
// allowed). The server still parses it; this turns the wrong kind of
// statement into a clear error at validate time.
func CheckQuery(s string) error {
	body := strings.TrimRight(s, " \t\r\n")
	body = strings.TrimRight(strings.TrimSuffix(body, ";"), " \t\r\n")
	if err := checkSQLText(body, true); err != nil {
		if strings.Contains(err.Error(), "semicolon") {
			return errors.New("contains more than one statement (a semicolon outside quotes): the query must be one statement")
		}
		return err
	}
	kw := firstKeyword(body)
	if kw == "" {
		return errors.New("is empty: the query must be one SELECT, WITH, VALUES or TABLE statement")
	}
	for _, k := range queryKeywords {
		if strings.EqualFold(kw, k) {
			return nil
		}
	}
	return fmt.Errorf("starts with %s: the query must be one SELECT, WITH, VALUES or TABLE statement (a read, run in a read-only transaction)", strings.ToUpper(kw))
}

// firstKeyword returns the first word of s after white space, comments and
// opening parentheses ("" when there is none).
func firstKeyword(s string) string {
	i := 0
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == '(':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexAny(s[i:], "\r\n")
			if j < 0 {
				return ""
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			level, j := 1, i+2
			for j < len(s) && level > 0 {
				switch {
				case strings.HasPrefix(s[j:], "/*"):
					level++
					j += 2
				case strings.HasPrefix(s[j:], "*/"):
					level--
					j += 2
				default:
					j++
				}
			}
			i = j
		default:
			j := i
			for j < len(s) && isIdentChar(s[j]) && s[j] != '$' {
				j++
			}
			if j == i {
				return s[i : i+1]
			}
			return s[i:j]
		}
	}
	return ""
}

// RunReadOnlyQuery runs query (checked with CheckQuery) with args (nil for
// NULL; each passed as a text parameter whose type the server infers) in
// database db, in a READ ONLY transaction on a read-only session, with
// statement_timeout set to timeout for the transaction, and rolls the
// transaction back. It fails when the result has more than maxRows rows. The
// values come in the server's text output (as psql shows them). A failed
// attempt is retried like any read: nothing it did survived its rollback.
func (c *Client) RunReadOnlyQuery(ctx context.Context, db, query string, args []*string, timeout time.Duration, maxRows int) (*QueryResult, error) {
	if err := CheckQuery(query); err != nil {
		return nil, fmt.Errorf("the query %w", err)
	}
	var out *QueryResult
	err := c.ReadPool(ctx, db, func(ctx context.Context, p *pgxpool.Pool) error {
		conn, err := p.Acquire(ctx)
		if err != nil {
			return err
		}
		defer conn.Release()
		res, qerr := runReadOnly(ctx, conn.Conn(), query, args, timeout, maxRows)
		// session advisory locks survive the rollback: release any the
		// query took before the session goes back to the pool (a session
		// that cannot do so is closed instead)
		if _, err := conn.Exec(ctx, "SELECT pg_catalog.pg_advisory_unlock_all()"); err != nil && !conn.Conn().IsClosed() {
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
		out = res
		return qerr
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func runReadOnly(ctx context.Context, conn *pgx.Conn, query string, args []*string, timeout time.Duration, maxRows int) (*QueryResult, error) {
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	// never committed: whatever the query did in the transaction is undone
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, "SELECT pg_catalog.set_config('statement_timeout', $1, true)", strconv.FormatInt(timeout.Milliseconds(), 10)); err != nil {
		return nil, err
	}
	params := make([]any, len(args))
	for i, a := range args {
		if a != nil {
			params[i] = *a
		} else {
			params[i] = nil
		}
	}
	// described then executed over the extended protocol (one statement,
	// no cached prepared statement), parameters and results in text
	queryArgs := append([]any{pgx.QueryExecModeDescribeExec, pgx.QueryResultFormats{pgx.TextFormatCode}}, params...)
	rows, err := tx.Query(ctx, query, queryArgs...)
	if err != nil {
		return nil, err
	}
	res := &QueryResult{Rows: [][]*string{}}
	// a copy: the connection reuses the descriptions' memory for its next query
	fields := append([]pgxconn.FieldDescription(nil), rows.FieldDescriptions()...)
	for rows.Next() {
		if len(res.Rows) >= maxRows {
			rows.Close()
			return nil, fmt.Errorf("%w: the query returned more than %d rows (max_rows)", ErrTooManyRows, maxRows)
		}
		raw := rows.RawValues()
		row := make([]*string, len(raw))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		res.Rows = append(res.Rows, row)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	oids := make([]uint32, len(fields))
	mods := make([]int32, len(fields))
	for i, f := range fields {
		oids[i], mods[i] = f.DataTypeOID, f.TypeModifier
	}
	names, err := tx.Query(ctx, `SELECT pg_catalog.format_type(t.oid, nullif(t.mod, -1))
FROM unnest($1::oid[], $2::int4[]) WITH ORDINALITY AS t(oid, mod, n) ORDER BY t.n`, oids, mods)
	if err != nil {
		return nil, fmt.Errorf("naming the column types: %w", err)
	}
	typeNames, err := pgx.CollectRows(names, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("naming the column types: %w", err)
	}
	res.Columns = make([]QueryColumn, len(fields))
	for i, f := range fields {
		res.Columns[i] = QueryColumn{Name: f.Name, Type: typeNames[i]}
	}
	return res, nil
}
