package pg

// Plans of one provider instance note the roles, databases and schemas they
// create or rename objects to, so that the plans of resources naming them
// (grants, default privileges) know they will exist by the time those
// resources apply, rather than warn that they do not exist.

// Kinds of objects plans note.
const (
	KindRole     = "role"
	KindDatabase = "database"
	KindSchema   = "schema"
)

// plannedName is the key of a noted object among the client's values
// (pgconn.Client.Values: shared by every view of the client, so by every
// provider instance sharing it).
type plannedName struct{ kind, db, name string }

// NotePlanned records that a plan of this provider instance creates an
// object of kind (KindRole, KindDatabase, KindSchema) named name, or renames
// one to it; db is the database of a schema ("" otherwise).
func (c *Client) NotePlanned(kind, db, name string) {
	if c == nil {
		return
	}
	c.Values().Store(plannedName{kind, db, name}, true)
	c.pend.announce(plannedName{kind, db, name})
}

// IsPlanned reports whether a plan of this provider instance noted (NotePlanned) that it creates that object.
func (c *Client) IsPlanned(kind, db, name string) bool {
	if c == nil {
		return false
	}
	_, ok := c.Values().Load(plannedName{kind, db, name})
	return ok
}
