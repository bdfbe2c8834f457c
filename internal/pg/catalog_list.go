package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// NameFilter filters object names with LIKE patterns and a regular
// expression. Every pattern travels as a bind parameter; empty lists and an
// empty regex do not filter.
type NameFilter struct {
	LikeAny    []string
	LikeAll    []string
	NotLikeAll []string
	Regex      string
}

func (f NameFilter) args() []any {
	nilIfEmpty := func(s []string) any {
		if len(s) == 0 {
			return nil
		}
		return s
	}
	var re any
	if f.Regex != "" {
		re = f.Regex
	}
	return []any{nilIfEmpty(f.LikeAny), nilIfEmpty(f.LikeAll), nilIfEmpty(f.NotLikeAll), re}
}

// nameFilterSQL is the WHERE fragment for column col using parameters $1..$4.
func nameFilterSQL(col string) string {
	return fmt.Sprintf(`($1::text[] IS NULL OR %[1]s LIKE ANY ($1::text[]))
  AND ($2::text[] IS NULL OR %[1]s LIKE ALL ($2::text[]))
  AND ($3::text[] IS NULL OR %[1]s NOT LIKE ALL ($3::text[]))
  AND ($4::text IS NULL OR %[1]s ~ $4::text)`, col)
}

// ListSchemas lists the schemas of database db matching f, sorted. System
// schemas (pg_* and information_schema) are left out unless includeSystem.
func (c *Client) ListSchemas(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	var out []string
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		args := append(f.args(), includeSystem)
		rows, err := tx.Query(ctx, `
SELECT nspname::text FROM pg_namespace
WHERE `+nameFilterSQL("nspname::text")+`
  AND ($5::bool OR (nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'))
ORDER BY 1`, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return out, err
}

// TableInfo is one row of the postgresql_tables data source.
type TableInfo struct {
	Schema string
	Name   string
	Type   string // information_schema table_type: BASE TABLE, VIEW, FOREIGN, LOCAL TEMPORARY
}

// ListTables lists the tables of database db (those information_schema.tables
// shows the connected role) matching f, in the given schemas (all but the
// system schemas when empty) and of the given table types (all when empty).
func (c *Client) ListTables(ctx context.Context, db string, f NameFilter, schemas, tableTypes []string) ([]TableInfo, error) {
	var out []TableInfo
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		args := append(f.args(), emptyNil(schemas), emptyNil(tableTypes))
		rows, err := tx.Query(ctx, `
SELECT table_schema::text, table_name::text, table_type::text FROM information_schema.tables
WHERE `+nameFilterSQL("table_name::text")+`
  AND (CASE WHEN $5::text[] IS NULL THEN table_schema NOT IN ('pg_catalog', 'information_schema') ELSE table_schema = ANY ($5::text[]) END)
  AND ($6::text[] IS NULL OR table_type = ANY ($6::text[]))
ORDER BY 1, 2`, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (TableInfo, error) {
			var t TableInfo
			return t, r.Scan(&t.Schema, &t.Name, &t.Type)
		})
		return err
	})
	return out, err
}

// SequenceInfo is one row of the postgresql_sequences data source.
type SequenceInfo struct {
	Schema   string
	Name     string
	DataType string
}

// ListSequences lists the sequences of database db (those
// information_schema.sequences shows the connected role) matching f, in the
// given schemas (all when empty).
func (c *Client) ListSequences(ctx context.Context, db string, f NameFilter, schemas []string) ([]SequenceInfo, error) {
	var out []SequenceInfo
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		args := append(f.args(), emptyNil(schemas))
		rows, err := tx.Query(ctx, `
SELECT sequence_schema::text, sequence_name::text, data_type::text FROM information_schema.sequences
WHERE `+nameFilterSQL("sequence_name::text")+`
  AND ($5::text[] IS NULL OR sequence_schema = ANY ($5::text[]))
ORDER BY 1, 2`, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (SequenceInfo, error) {
			var s SequenceInfo
			return s, r.Scan(&s.Schema, &s.Name, &s.DataType)
		})
		return err
	})
	return out, err
}

func emptyNil(s []string) any {
	if len(s) == 0 {
		return nil
	}
	return s
}

// DatabaseFacts are the attributes of an existing database (data source).
type DatabaseFacts struct {
	OID              uint32
	Name             string
	Owner            string
	Encoding         string
	LCCollate        string
	LCCtype          string
	IsTemplate       bool
	AllowConnections bool
	ConnectionLimit  int64
	Tablespace       string
}

// ReadDatabaseFacts reads database name from pg_database; nil if it does not exist.
func (c *Client) ReadDatabaseFacts(ctx context.Context, name string) (*DatabaseFacts, error) {
	var d DatabaseFacts
	err := c.ReadTx(ctx, "", func(ctx context.Context, tx pgx.Tx) error {
		return tx.QueryRow(ctx, `
SELECT d.oid, d.datname, pg_get_userbyid(d.datdba), pg_encoding_to_char(d.encoding), d.datcollate, d.datctype,
       d.datistemplate, d.datallowconn, d.datconnlimit, t.spcname
FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE d.datname = $1`, name).Scan(
			&d.OID, &d.Name, &d.Owner, &d.Encoding, &d.LCCollate, &d.LCCtype, &d.IsTemplate, &d.AllowConnections, &d.ConnectionLimit, &d.Tablespace)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading database %q: %w", name, err)
	}
	return &d, nil
}

// ListRoleNames lists the roles matching f, sorted. PostgreSQL's predefined
// roles (pg_*) are left out unless includeSystem.
func (c *Client) ListRoleNames(ctx context.Context, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, "", `
SELECT rolname::text FROM pg_roles
WHERE `+nameFilterSQL("rolname::text")+`
  AND ($5::bool OR rolname NOT LIKE 'pg\_%')
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// ListDatabaseNames lists the databases matching f, sorted. template0 and
// template1 are left out unless includeSystem.
func (c *Client) ListDatabaseNames(ctx context.Context, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, "", `
SELECT datname::text FROM pg_database
WHERE `+nameFilterSQL("datname::text")+`
  AND ($5::bool OR datname NOT IN ('template0', 'template1'))
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// ListExtensionNames lists the extensions installed in database db matching
// f, sorted. plpgsql (installed in every database) is left out unless
// includeSystem.
func (c *Client) ListExtensionNames(ctx context.Context, db string, f NameFilter, includeSystem bool) ([]string, error) {
	return c.listNames(ctx, db, `
SELECT extname::text FROM pg_extension
WHERE `+nameFilterSQL("extname::text")+`
  AND ($5::bool OR extname <> 'plpgsql')
ORDER BY 1`, append(f.args(), includeSystem)...)
}

// listNames runs a query of one text column in database db (read-only).
func (c *Client) listNames(ctx context.Context, db, query string, args ...any) ([]string, error) {
	var out []string
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return out, err
}
