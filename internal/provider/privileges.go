package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Helpers shared by postgresql_grant and postgresql_default_privileges.

// privilegesEqual reports whether two privilege lists mean the same for an
// object type (case, TEMP, ALL and order do not matter).
func privilegesEqual(expand func([]string) []string, a, b []string) bool {
	return tfkit.SameStrings(expand(a), expand(b))
}

// canonicalID renders an import/resource ID: a JSON object with sorted keys
// and sorted lists, so any character in names survives.
func canonicalID(fields map[string]any) string {
	for k, v := range fields {
		if l, ok := v.([]string); ok {
			c := append([]string{}, l...)
			sort.Strings(c)
			if c == nil {
				c = []string{}
			}
			fields[k] = c
		}
	}
	b, _ := json.Marshal(fields) // map keys are sorted by encoding/json
	return string(b)
}

// planPrivileges plans the privileges (picked from a model by privs) of a
// grant or of default privileges on objectType (planned): it checks them
// against those valid on the server's major version (valid; no check when the
// version is unknown, major 0) and, on an update, keeps the state's spelling
// of the same privileges (expand resolves ALL and aliases to compare them).
func planPrivileges[M any](ctx context.Context, major int, p *tfkit.Planned[M], objectType types.String, privs func(*M) *types.Set,
	valid func(objectType string, major int) []string, expand func(objectType string, major int, privs []string) []string, diags *diag.Diagnostics) {
	plan := privs(&p.Plan)
	ot := objectType.ValueString()
	if v := valid(ot, major); major > 0 && !plan.IsUnknown() && !objectType.IsUnknown() && v != nil {
		validatePrivileges(ctx, *plan, v, fmt.Sprintf("%s (PostgreSQL %d)", ot, major), diags)
	}
	if p.Creating() {
		return
	}
	if state := *privs(p.State); !plan.IsUnknown() && !plan.Equal(state) &&
		privilegesEqual(func(l []string) []string { return expand(ot, major, l) }, tfkit.SetStrings(ctx, *plan), tfkit.SetStrings(ctx, state)) {
		*plan = state
	}
}

// notFoundSummaries title the diagnostics of pg.NotFoundErrors.
var notFoundSummaries = map[pg.Missing]string{
	pg.MissingDatabase: "Database not found",
	pg.MissingSchema:   "Schema not found",
	pg.MissingGrantee:  "Role not found",
	pg.MissingOwner:    "Role not found",
	pg.MissingObjects:  "Objects not found",
	pg.MissingColumns:  "Columns not found",
}

// changeFailed is the error diagnostic for err of a change (none when err is
// nil); each pg.NotFoundError in it is attached to the argument that named
// what is missing (attrs: the argument by what is missing).
func changeFailed(summary string, err error, attrs map[pg.Missing]string) diag.Diagnostics {
	nf := pg.NotFound(err)
	if len(nf) == 0 {
		return tfkit.Failed(summary, err)
	}
	var diags diag.Diagnostics
	for _, e := range nf {
		detail := summary + ": " + e.Error() + "."
		if attr, ok := attrs[e.What]; ok {
			diags.AddAttributeError(path.Root(attr), notFoundSummaries[e.What], detail)
		} else {
			diags.AddError(notFoundSummaries[e.What], detail)
		}
	}
	return diags
}

// warnMissing warns, at plan time, of the database, schema and roles that
// n names (attrs: the argument naming each) when they exist neither in the
// catalog nor in the plans of the resources of this provider planned before
// (a role, database or schema created or renamed to that name). Other
// resources (a script, a cloud provider's database or user resource, or one
// of this provider planned after this one) may still create them before this
// one applies, so it is a warning; the apply waits for what this provider is
// creating (awaitNames) and refuses, before any statement, what is still
// missing then.
func warnMissing(ctx context.Context, c *pg.Client, n pg.Names, attrs map[pg.Missing]string, diags *diag.Diagnostics) {
	if c == nil || c.Ready() != nil {
		return
	}
	if n.Database != "" && c.IsPlanned(pg.KindDatabase, "", n.Database) {
		n.Database, n.Schema = "", "" // a new database: its schemas are new too (or public)
	}
	if n.Schema != "" && c.IsPlanned(pg.KindSchema, n.Database, n.Schema) {
		n.Schema = ""
	}
	roles := map[pg.Missing]string{}
	for what, name := range n.Roles {
		if !c.IsPlanned(pg.KindRole, "", name) {
			roles[what] = name
		}
	}
	n.Roles = roles
	missing, err := c.FindMissing(ctx, n)
	if err != nil {
		return // only warns: the apply checks again
	}
	for _, e := range missing {
		diags.AddAttributeWarning(path.Root(attrs[e.What]), notFoundSummaries[e.What],
			e.Error()+", and no resource of this configuration planned before this one creates it. "+
				"If a resource of this provider creates it in the same apply (named here by a string rather than a reference), the apply "+
				"waits for that create; otherwise it fails, changing nothing, unless something applied before this resource creates it.")
	}
}

// notePlanned records in the client that this plan creates (or renames to)
// a role, database or schema named name (see pg.Client.NotePlanned), when
// the name is known and is new: a create, or a change from the state's.
func notePlanned(c *pg.Client, kind, db string, name types.String, state *types.String) {
	if c == nil || !isKnown(name) || (state != nil && state.Equal(name)) {
		return
	}
	c.NotePlanned(kind, db, name.ValueString())
}
