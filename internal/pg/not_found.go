package pg

import (
	"context"
	"errors"
	"strings"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Missing names which argument of a resource named an object found missing,
// so that the resource can attach the error to it.
type Missing int

// What a NotFoundError is about.
const (
	MissingDatabase Missing = iota + 1 // the database (of the objects, or granted on)
	MissingSchema                      // the schema (of the objects, or granted on)
	MissingGrantee                     // the role receiving privileges
	MissingOwner                       // the owner of default privileges
	MissingObjects                     // named objects (tables, sequences, routines, ...)
	MissingColumns                     // named columns
)

// NotFoundError reports objects that a change names and that do not exist,
// each named in full as PostgreSQL prints it: `schema "app"`, `table
// "app"."orders"`, `column "id" of table "app"."orders"`.
type NotFoundError struct {
	What    Missing
	Objects []string
	// Database is the database they were looked for in; "" for roles and
	// databases.
	Database string
	// Note says what was done before giving up (a wait for the create of
	// this apply that was to bring them into being: AwaitNames); "" for none.
	Note string
	// Attr is the argument that named them, when the error does not come
	// from a resource that maps What to its arguments; "" for none.
	Attr string
}

func (e *NotFoundError) Error() string {
	verb := "does not exist"
	if len(e.Objects) > 1 {
		verb = "do not exist"
	}
	s := strings.Join(e.Objects, ", ") + " " + verb
	if e.Database != "" {
		s += " in database " + pgconn.QuoteIdent(e.Database)
	}
	if e.Note != "" {
		s += "; " + e.Note
	}
	return s
}

// NotFound lists the NotFoundErrors err holds (itself, wrapped or joined).
func NotFound(err error) []*NotFoundError {
	var out []*NotFoundError
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		// a walk of the whole tree: errors.As finds the first only
		if nf, ok := err.(*NotFoundError); ok { //nolint:errorlint // see above
			out = append(out, nf)
			return
		}
		switch u := err.(type) { //nolint:errorlint // see above
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

func roleNotFound(what Missing, name string) *NotFoundError {
	return &NotFoundError{What: what, Objects: []string{"role " + pgconn.QuoteIdent(name)}}
}

func databaseNotFound(name string) *NotFoundError {
	return &NotFoundError{What: MissingDatabase, Objects: []string{"database " + pgconn.QuoteIdent(name)}}
}

func schemaNotFound(db, name string) *NotFoundError {
	return &NotFoundError{What: MissingSchema, Objects: []string{"schema " + pgconn.QuoteIdent(name)}, Database: db}
}

// checkDatabase returns a NotFoundError when database db does not exist (a
// change names it; checked before any statement).
func (c *Client) checkDatabase(ctx context.Context, db string) error {
	var ok bool
	err := c.Read(ctx, "", func(ctx context.Context, q Querier) error {
		return q.QueryRow(ctx, "SELECT exists(SELECT 1 FROM pg_database WHERE datname = $1)", db).Scan(&ok)
	})
	if err != nil {
		return err
	}
	if !ok {
		return databaseNotFound(db)
	}
	return nil
}

// Names is what a resource names besides its own object, for FindMissing.
type Names struct {
	Database string             // "" = none
	Schema   string             // in Database; "" = none
	Roles    map[Missing]string // role names by what they are (grantee, owner); "public" is PUBLIC
}

// FindMissing reports (read-only, from the catalog snapshots where there
// are) which of the database, the schema in it and the roles n names do not
// exist; no error for what exists. Plans use it to say early what an apply
// would refuse.
func (c *Client) FindMissing(ctx context.Context, n Names) ([]*NotFoundError, error) {
	var out []*NotFoundError
	dbOK := true
	if n.Database != "" {
		d, err := c.ReadDatabase(ctx, n.Database)
		if err != nil {
			return nil, err
		}
		if d == nil {
			dbOK = false
			out = append(out, databaseNotFound(n.Database))
		}
	}
	if dbOK && n.Schema != "" {
		s, err := c.ReadSchema(ctx, n.Database, 0, n.Schema)
		if err != nil && !IsMissingDatabase(err) {
			return nil, err
		}
		if s == nil {
			out = append(out, schemaNotFound(n.Database, n.Schema))
		}
	}
	for _, what := range []Missing{MissingGrantee, MissingOwner} {
		name, ok := n.Roles[what]
		if !ok || IsPublic(name) {
			continue
		}
		r, err := c.ReadRole(ctx, name)
		if err != nil {
			return nil, err
		}
		if r == nil {
			out = append(out, roleNotFound(what, name))
		}
	}
	return out, nil
}

// errorsOf joins the NotFoundErrors (nil when there are none).
func errorsOf(nf []*NotFoundError) error {
	errs := make([]error, len(nf))
	for i, e := range nf {
		errs[i] = e
	}
	return errors.Join(errs...)
}
