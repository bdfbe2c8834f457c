package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// What the import resolver (internal/tfkit/import_id.go) needs from
// PostgreSQL, and the imports that are PostgreSQL's alone.

// importServer is the client as the resolver asks it: with PostgreSQL's name
// rules and its "database does not exist" error. Nil when the provider is not
// configured (the resolver says so).
func importServer(c *pg.Client) tfkit.ImportCatalog {
	if c == nil {
		return nil
	}
	return pgImportCatalog{c}
}

type pgImportCatalog struct{ *pg.Client }

func (pgImportCatalog) ValidateName(name string) error   { return pgconn.ValidateName(name) }
func (pgImportCatalog) IsMissingDatabase(err error) bool { return pg.IsMissingDatabase(err) }

// objectTarget is the object a reading of an object import ID names.
func objectTarget(c *tfkit.ObjectImportCandidate) pg.ObjectTarget {
	return pg.ObjectTarget{ObjectType: c.Type, Schema: c.Schema, Name: c.Name, Column: c.Column}
}

// importByName imports an object of a cluster-wide kind whose import ID is its
// bare name (role, database, physical replication slot): name and id are
// the ID. what names the kind in the error.
func importByName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, what string) {
	if err := pgconn.ValidateName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", "The import ID is the "+what+" name, which "+err.Error()+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
