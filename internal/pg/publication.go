package pg

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// QualifiedName is a schema-qualified relation name.
type QualifiedName struct {
	Schema string
	Name   string
}

// String renders schema.name the way cyrilgdn stores table names (unquoted),
// quoting only a part that contains a dot or a double quote, so that
// ParseQualifiedName reads it back unambiguously.
func (q QualifiedName) String() string {
	return quoteIfAmbiguous(q.Schema) + "." + quoteIfAmbiguous(q.Name)
}

func quoteIfAmbiguous(s string) string {
	if strings.ContainsAny(s, `."`) {
		return pgconn.QuoteIdent(s)
	}
	return s
}

// Quoted renders "schema"."name".
func (q QualifiedName) Quoted() string { return pgconn.QuoteQualified(q.Schema, q.Name) }

// ParseQualifiedName splits "schema.table" (each part optionally double-quoted,
// with "" for a quote inside); an unqualified name is in schema public.
func ParseQualifiedName(s string) (QualifiedName, error) {
	parts, err := splitIdentifiers(s)
	if err != nil {
		return QualifiedName{}, err
	}
	switch len(parts) {
	case 1:
		return QualifiedName{Schema: "public", Name: parts[0]}, nil
	case 2:
		return QualifiedName{Schema: parts[0], Name: parts[1]}, nil
	}
	if !strings.Contains(s, `"`) {
		// unquoted with several dots: the schema is up to the first dot (cyrilgdn's rule)
		i := strings.Index(s, ".")
		return QualifiedName{Schema: s[:i], Name: s[i+1:]}, nil
	}
	return QualifiedName{}, fmt.Errorf("%q is not a table name of the form schema.table", s)
}

func splitIdentifiers(s string) ([]string, error) {
	var parts []string
	for i := 0; i <= len(s); {
		if i == len(s) {
			return nil, fmt.Errorf("%q: empty name part", s)
		}
		var part string
		if s[i] == '"' {
			j := i + 1
			var b strings.Builder
			for {
				if j >= len(s) {
					return nil, fmt.Errorf("%q: unterminated quoted identifier", s)
				}
				if s[j] == '"' {
					if j+1 < len(s) && s[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					j++
					break
				}
				b.WriteByte(s[j])
				j++
			}
			part, i = b.String(), j
			if i < len(s) && s[i] != '.' {
				return nil, fmt.Errorf("%q: unexpected text after a quoted identifier", s)
			}
		} else {
			j := strings.IndexByte(s[i:], '.')
			if j < 0 {
				j = len(s) - i
			}
			part, i = s[i:i+j], i+j
		}
		if part == "" {
			return nil, fmt.Errorf("%q: empty name part", s)
		}
		parts = append(parts, part)
		if i == len(s) {
			return parts, nil
		}
		i++ // the dot
	}
	return parts, nil
}

// Publication is a publication as the catalog describes it.
type Publication struct {
	OID              uint32
	Name             string
	Owner            string
	AllTables        bool
	Publish          []string // in the order insert, update, delete, truncate
	ViaPartitionRoot bool
	// GeneratedColumns is publish_generated_columns ("none" or "stored";
	// PostgreSQL 18+), "" on older servers.
	GeneratedColumns string
	// Tables are the explicitly added tables, or for FOR ALL TABLES every table published.
	Tables  []QualifiedName
	Schemas []string // FOR TABLES IN SCHEMA (PostgreSQL 15+)
}

// PublicationSpec is what a publication should look like.
type PublicationSpec struct {
	Name             string
	Owner            string // "" = leave as is (the creator)
	AllTables        bool
	Publish          []string
	ViaPartitionRoot bool
	// GeneratedColumns is publish_generated_columns ("none" or "stored",
	// PostgreSQL 18+); "" leaves it out of the statements (the server's
	// default on create, unchanged on update).
	GeneratedColumns string
	Tables           []QualifiedName
	Schemas          []string
}

// ReadPublication reads publication name (or, when oid != 0, the one with that OID) in database db; nil if none.
func (c *Client) ReadPublication(ctx context.Context, db string, oid uint32, name string) (*Publication, error) {
	var p *Publication
	err := c.ReadTx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		var err error
		p, err = readPublication(ctx, tx, oid, name)
		return err
	})
	return p, err
}

func readPublication(ctx context.Context, q Querier, oid uint32, name string) (*Publication, error) {
	var p Publication
	var ins, upd, del, trunc bool
	var version int
	err := q.QueryRow(ctx, `
SELECT p.oid, p.pubname, pg_get_userbyid(p.pubowner), p.puballtables, p.pubinsert, p.pubupdate, p.pubdelete, p.pubtruncate, p.pubviaroot,
  current_setting('server_version_num')::int
FROM pg_publication p WHERE ($1::oid <> 0 AND p.oid = $1) OR ($1::oid = 0 AND p.pubname = $2)`, oid, name).Scan(
		&p.OID, &p.Name, &p.Owner, &p.AllTables, &ins, &upd, &del, &trunc, &p.ViaPartitionRoot, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading publication %q: %w", name, err)
	}
	if version >= 180000 {
		// pubgencols: 'n' none, 's' stored (PostgreSQL 18+)
		if err := q.QueryRow(ctx, `SELECT CASE p.pubgencols WHEN 'n' THEN 'none' WHEN 's' THEN 'stored' ELSE p.pubgencols::text END FROM pg_publication p WHERE p.oid = $1`,
			p.OID).Scan(&p.GeneratedColumns); err != nil {
			return nil, fmt.Errorf("reading publish_generated_columns of publication %q: %w", p.Name, err)
		}
	}
	p.Publish = []string{}
	for _, x := range []struct {
		on   bool
		name string
	}{{ins, "insert"}, {upd, "update"}, {del, "delete"}, {trunc, "truncate"}} {
		if x.on {
			p.Publish = append(p.Publish, x.name)
		}
	}
	tablesQuery := `SELECT n.nspname, c.relname FROM pg_publication_rel r JOIN pg_class c ON c.oid = r.prrelid
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE r.prpubid = $1 ORDER BY 1, 2`
	if p.AllTables {
		tablesQuery = `SELECT schemaname::text, tablename::text FROM pg_publication_tables WHERE pubname = (SELECT pubname FROM pg_publication WHERE oid = $1) ORDER BY 1, 2`
	}
	rows, err := q.Query(ctx, tablesQuery, p.OID)
	if err != nil {
		return nil, fmt.Errorf("reading tables of publication %q: %w", p.Name, err)
	}
	p.Tables, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (QualifiedName, error) {
		var t QualifiedName
		return t, r.Scan(&t.Schema, &t.Name)
	})
	if err != nil {
		return nil, err
	}
	p.Schemas = []string{}
	var hasNamespaces bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('pg_catalog.pg_publication_namespace') IS NOT NULL`).Scan(&hasNamespaces); err != nil {
		return nil, err
	}
	if hasNamespaces {
		rows, err := q.Query(ctx, `SELECT n.nspname FROM pg_publication_namespace pn JOIN pg_namespace n ON n.oid = pn.pnnspid WHERE pn.pnpubid = $1 ORDER BY 1`, p.OID)
		if err != nil {
			return nil, err
		}
		if p.Schemas, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

func publicationWith(s PublicationSpec) string {
	with := fmt.Sprintf("publish = %s, publish_via_partition_root = %t", pgconn.QuoteLiteral(strings.Join(s.Publish, ", ")), s.ViaPartitionRoot)
	if s.GeneratedColumns != "" { // only when set: older servers reject the option
		with += ", publish_generated_columns = " + pgconn.QuoteLiteral(s.GeneratedColumns)
	}
	return with
}

// publicationObjects is the object list of CREATE/ALTER PUBLICATION: one
// TABLE keyword for all tables (PostgreSQL 13 and 14 accept no keyword per
// table), then TABLES IN SCHEMA (15+) for the schemas.
func publicationObjects(tables []QualifiedName, schemas []string) string {
	var parts []string
	if len(tables) > 0 {
		names := make([]string, len(tables))
		for i, t := range tables {
			names[i] = t.Quoted()
		}
		parts = append(parts, "TABLE "+strings.Join(names, ", "))
	}
	if len(schemas) > 0 {
		names := make([]string, len(schemas))
		for i, s := range schemas {
			names[i] = pgconn.QuoteIdent(s)
		}
		parts = append(parts, "TABLES IN SCHEMA "+strings.Join(names, ", "))
	}
	return strings.Join(parts, ", ")
}

// CreatePublication creates the publication (and sets its owner) in one transaction; it returns the OID.
func (c *Client) CreatePublication(ctx context.Context, db string, s PublicationSpec) (uint32, error) {
	var oid uint32
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		stmt := "CREATE PUBLICATION " + pgconn.QuoteIdent(s.Name)
		switch {
		case s.AllTables:
			stmt += " FOR ALL TABLES"
		case len(s.Tables)+len(s.Schemas) > 0:
			stmt += " FOR " + publicationObjects(s.Tables, s.Schemas)
		}
		stmt += " WITH (" + publicationWith(s) + ")"
		owners, err := publishedTableOwners(ctx, tx, s.Tables)
		if err != nil {
			return err
		}
		if err := withRoles(ctx, tx, owners, func() error {
			_, err := tx.Exec(ctx, stmt)
			return err
		}); err != nil {
			return fmt.Errorf("creating publication %q: %w", s.Name, err)
		}
		if err := setPublicationOwner(ctx, tx, s.Name, s.Owner); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT oid FROM pg_publication WHERE pubname = $1`, s.Name).Scan(&oid)
	})
	return oid, err
}

// publishedTableOwners are the owners of tables, sorted (those that exist:
// for a missing table the statement says so in its own words). PostgreSQL
// adds a table to a publication (CREATE PUBLICATION ... FOR TABLE, ALTER
// PUBLICATION ... ADD TABLE) only for the table's owner: a role that is not
// the owner (a managed admin) borrows the owners' privileges (withRoles,
// which does nothing for a superuser or for the connected role itself).
// Found by the long walk (seeds 20001, 20002 and 20006 as the managed admin
// on PostgreSQL 15: "must be owner of table orders" for a table that a
// postgresql_object_owner gave to another role).
func publishedTableOwners(ctx context.Context, q Querier, tables []QualifiedName) ([]string, error) {
	if len(tables) == 0 {
		return nil, nil
	}
	schemas, names := make([]string, len(tables)), make([]string, len(tables))
	for i, t := range tables {
		schemas[i], names[i] = t.Schema, t.Name
	}
	rows, err := q.Query(ctx, `SELECT DISTINCT pg_get_userbyid(c.relowner)::text
FROM unnest($1::text[], $2::text[]) AS t(sch, rel)
JOIN pg_namespace n ON n.nspname = t.sch JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = t.rel
ORDER BY 1`, schemas, names)
	if err != nil {
		return nil, fmt.Errorf("reading the owners of the published tables: %w", err)
	}
	owners, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("reading the owners of the published tables: %w", err)
	}
	return owners, nil
}

func setPublicationOwner(ctx context.Context, tx pgx.Tx, pub, owner string) error {
	if owner == "" {
		return nil
	}
	var cur string
	if err := tx.QueryRow(ctx, `SELECT pg_get_userbyid(pubowner) FROM pg_publication WHERE pubname = $1`, pub).Scan(&cur); err != nil {
		return err
	}
	if cur == owner {
		return nil
	}
	return withRoles(ctx, tx, []string{owner}, func() error {
		if _, err := tx.Exec(ctx, "ALTER PUBLICATION "+pgconn.QuoteIdent(pub)+" OWNER TO "+pgconn.QuoteIdent(owner)); err != nil {
			return fmt.Errorf("changing the owner of publication %q to %q: %w", pub, owner, err)
		}
		return nil
	})
}

// UpdatePublication renames the publication with OID oid and brings its
// tables, schemas, options and owner to s, in one transaction.
func (c *Client) UpdatePublication(ctx context.Context, db string, oid uint32, s PublicationSpec) error {
	return c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readPublication(ctx, tx, oid, "")
		if err != nil {
			return err
		}
		if cur == nil {
			return fmt.Errorf("publication %q (OID %d) no longer exists", s.Name, oid)
		}
		// Altering needs ownership: a non-superuser admin borrows the owner's role.
		return withRoles(ctx, tx, []string{cur.Owner}, func() error { return alterPublication(ctx, tx, cur, s) })
	})
}

func alterPublication(ctx context.Context, tx pgx.Tx, cur *Publication, s PublicationSpec) error {
	{
		if cur.Name != s.Name {
			if _, err := tx.Exec(ctx, "ALTER PUBLICATION "+pgconn.QuoteIdent(cur.Name)+" RENAME TO "+pgconn.QuoteIdent(s.Name)); err != nil {
				return fmt.Errorf("renaming publication %q: %w", cur.Name, err)
			}
		}
		name := pgconn.QuoteIdent(s.Name)
		if !cur.AllTables {
			have := map[QualifiedName]bool{}
			for _, t := range cur.Tables {
				have[t] = true
			}
			want := map[QualifiedName]bool{}
			for _, t := range s.Tables {
				want[t] = true
			}
			var add, drop []QualifiedName
			for t := range want {
				if !have[t] {
					add = append(add, t)
				}
			}
			for t := range have {
				if !want[t] {
					drop = append(drop, t)
				}
			}
			addS, dropS := diffStrings(cur.Schemas, s.Schemas)
			sortNames(add)
			sortNames(drop)
			if len(drop)+len(dropS) > 0 {
				if _, err := tx.Exec(ctx, "ALTER PUBLICATION "+name+" DROP "+publicationObjects(drop, dropS)); err != nil {
					return fmt.Errorf("removing tables from publication %q: %w", s.Name, err)
				}
			}
			if len(add)+len(addS) > 0 {
				owners, err := publishedTableOwners(ctx, tx, add)
				if err != nil {
					return err
				}
				if err := withRoles(ctx, tx, owners, func() error {
					_, err := tx.Exec(ctx, "ALTER PUBLICATION "+name+" ADD "+publicationObjects(add, addS))
					return err
				}); err != nil {
					return fmt.Errorf("adding tables to publication %q: %w", s.Name, err)
				}
			}
		}
		if strings.Join(cur.Publish, ",") != strings.Join(s.Publish, ",") || cur.ViaPartitionRoot != s.ViaPartitionRoot ||
			(s.GeneratedColumns != "" && s.GeneratedColumns != cur.GeneratedColumns) {
			if _, err := tx.Exec(ctx, "ALTER PUBLICATION "+name+" SET ("+publicationWith(s)+")"); err != nil {
				return fmt.Errorf("setting options of publication %q: %w", s.Name, err)
			}
		}
		return setPublicationOwner(ctx, tx, s.Name, s.Owner)
	}
}

func sortNames(n []QualifiedName) {
	sort.Slice(n, func(i, j int) bool { return n[i].String() < n[j].String() })
}

func diffStrings(have, want []string) (add, drop []string) {
	h := map[string]bool{}
	for _, x := range have {
		h[x] = true
	}
	w := map[string]bool{}
	for _, x := range want {
		w[x] = true
		if !h[x] {
			add = append(add, x)
		}
	}
	for _, x := range have {
		if !w[x] {
			drop = append(drop, x)
		}
	}
	sort.Strings(add)
	sort.Strings(drop)
	return add, drop
}

// DropPublication drops the publication with OID oid (or called name when the
// OID is unknown); a missing publication or database is not an error.
func (c *Client) DropPublication(ctx context.Context, db string, oid uint32, name string, cascade bool) error {
	err := c.Tx(ctx, db, func(ctx context.Context, tx pgx.Tx) error {
		cur, err := readPublication(ctx, tx, oid, name)
		if err != nil || cur == nil {
			return err
		}
		stmt := "DROP PUBLICATION IF EXISTS " + pgconn.QuoteIdent(cur.Name)
		if cascade {
			stmt += " CASCADE"
		}
		return withRoles(ctx, tx, []string{cur.Owner}, func() error {
			_, err := tx.Exec(ctx, stmt)
			return err
		})
	})
	if pgconn.SQLState(err) == pgconn.CodeInvalidCatalogName {
		return nil
	}
	return err
}
