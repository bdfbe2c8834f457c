package provider

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Names created in the same apply, referenced as plain strings (issue 41):
// a resource whose write names roles, databases or schemas says which
// (namesUser); one that creates or renames a role, database or schema says
// which (namesMaker). The skeleton runs every create and update through
// awaitNames (newLifecycle sets tfkit.Hooks.Write): a write waits for the
// names it needs that this provider instance is creating, or is about to,
// and the writes waiting for what a write creates wake when it is done
// (pg.Client.AwaitNames, pg/pending.go).

// namesUser is a resource whose write of m needs the roles, databases and
// schemas namesUsed lists (unknown or empty names left out) to exist.
type namesUser[M any] interface {
	namesUsed(m *M) []pg.Ref
}

// namesUpdateUser is a namesUser whose update needs fewer names than its
// create: namesUsedUpdating(plan, state) replaces namesUsed on update.
type namesUpdateUser[M any] interface {
	namesUsedUpdating(plan, state *M) []pg.Ref
}

// namesMaker is a resource whose write brings roles, databases or schemas
// into being: namesMade lists those plan creates, or renames an object to
// (state: nil on create).
type namesMaker[M any] interface {
	namesMade(plan, state *M) []pg.Ref
}

// writeHooks are the skeleton hooks of obj: skeletonHooks, with a Write
// hook when obj names or makes roles, databases or schemas.
func writeHooks[M any](obj tfkit.Object[M]) *tfkit.Hooks {
	user, uses := obj.(namesUser[M])
	maker, makes := obj.(namesMaker[M])
	if !uses && !makes {
		return skeletonHooks
	}
	h := *skeletonHooks
	h.Write = func(ctx context.Context, o any, _ tfkit.Operation, plan, state any, write func(context.Context) diag.Diagnostics) diag.Diagnostics {
		p, _ := plan.(*M)
		s, _ := state.(*M)
		var used, made []pg.Ref
		if updater, ok := obj.(namesUpdateUser[M]); ok && s != nil {
			used = updater.namesUsedUpdating(p, s)
		} else if uses {
			used = user.namesUsed(p)
		}
		if makes {
			made = maker.namesMade(p, s)
		}
		var c *pg.Client
		if cu, ok := o.(clientUser); ok {
			c = cu.pgClient()
		}
		return awaitNames(ctx, c, used, made, write)
	}
	return &h
}

// awaitNames runs write once the names it needs (used) exist, waiting for
// the creates of this provider instance that bring them into being, while
// telling the other writes that it is creating made.
func awaitNames(ctx context.Context, c *pg.Client, used, made []pg.Ref, write func(context.Context) diag.Diagnostics) diag.Diagnostics {
	if c == nil {
		return write(ctx)
	}
	done := c.BeginCreates(made, used)
	if err := c.AwaitNames(ctx, used, made); err != nil {
		done(false)
		return awaitFailed(err)
	}
	d := write(ctx)
	done(!d.HasError())
	return d
}

// awaitFailed is the diagnostic of a wait that ended with a name still
// missing (attached to the argument that names it), or interrupted.
func awaitFailed(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	var nf *pg.NotFoundError
	if !errors.As(err, &nf) {
		diags.AddError("Interrupted while waiting for a role, database or schema", err.Error())
		return diags
	}
	summary := notFoundSummaries[nf.What]
	detail := nf.Error() + "."
	if nf.Attr != "" {
		diags.AddAttributeError(path.Root(nf.Attr), summary, detail)
	} else {
		diags.AddError(summary, detail)
	}
	return diags
}

// Refs are built from model values: refs collects the known, non-empty
// ones.
type refs []pg.Ref

func (r *refs) role(attr string, v types.String) {
	if isKnown(v) && v.ValueString() != "" && !pseudoRole(v.ValueString()) {
		*r = append(*r, pg.RoleRef(attr, v.ValueString()))
	}
}

func (r *refs) roles(attr string, v types.Set) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	for _, e := range v.Elements() {
		if s, ok := e.(types.String); ok {
			r.role(attr, s)
		}
	}
}

func (r *refs) database(attr string, v types.String) {
	if isKnown(v) && v.ValueString() != "" {
		*r = append(*r, pg.DatabaseRef(attr, v.ValueString()))
	}
}

// schema: v in database db (the provider's database when db is empty).
func (r *refs) schema(c *pg.Client, attr string, db, v types.String) {
	if d := databaseOf(c, db); d != "" && !db.IsUnknown() && isKnown(v) && v.ValueString() != "" {
		*r = append(*r, pg.SchemaRef(attr, d, v.ValueString()))
	}
}

// renamedOrNew reports whether the name of a write is new: a create (state
// nil), or a change from the state's.
func renamedOrNew(name types.String, state *types.String) bool {
	return isKnown(name) && (state == nil || !state.Equal(name))
}

// commentedNames are the names a comment or a security label needs: its
// database, its schema, and the object itself when it is a role, a database
// or a schema (object types in any letter case).
func commentedNames(c *pg.Client, db, objectType, schema, name types.String) []pg.Ref {
	var n refs
	n.database("database", db)
	n.schema(c, "schema", db, schema)
	switch strings.ToLower(objectType.ValueString()) {
	case "role":
		n.role("object_name", name)
	case "database":
		n.database("object_name", name)
	case "schema":
		n.schema(c, "object_name", db, name)
	}
	return n
}

// pseudoRole: PUBLIC and the role keywords (CURRENT_USER, ...), which name
// no role of their own.
func pseudoRole(name string) bool {
	switch strings.ToLower(name) {
	case "public", "current_user", "current_role", "session_user":
		return true
	}
	return false
}

// stateName is the name field (of) of state; nil when state is (a create).
func stateName[M any](state *M, of func(*M) *types.String) *types.String {
	if state == nil {
		return nil
	}
	return of(state)
}
