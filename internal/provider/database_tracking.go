package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Database-scoped resources (schema, extension) record the OID of their
// database in database_oid, so that a renamed database is recognised as the
// same database and its objects are updated in place instead of replaced.

// currentDatabase returns the database recorded as (name, oid), following a
// rename through the OID, or nil when it is gone.
func currentDatabase(ctx context.Context, c *pg.Client, name types.String, oid types.Int64) (*pg.Database, error) {
	n := name.ValueString()
	if n == "" {
		n = c.DefaultDatabase()
	}
	known := !oid.IsNull() && !oid.IsUnknown()
	if known {
		d, err := c.ReadDatabaseByOID(ctx, uint32(oid.ValueInt64()))
		if err != nil || d != nil {
			return d, err
		}
	}
	d, err := c.ReadDatabase(ctx, n)
	if err != nil || d == nil {
		return nil, err
	}
	if known && int64(d.OID) != oid.ValueInt64() {
		return nil, nil // another database now has the old name: ours is gone
	}
	return d, nil
}

// databaseChangeReplaces decides at plan time whether changing the database
// of an object from the state's to planned is another database (replace:
// true) or the same database renamed (false; confirmed at apply by
// checkSameDatabase). An unknown planned name is decided at apply.
func databaseChangeReplaces(ctx context.Context, c *pg.Client, planned types.String, stateOID types.Int64) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	if stateOID.IsNull() || stateOID.IsUnknown() || c == nil || c.Ready() != nil {
		return true, diags
	}
	oid := uint32(stateOID.ValueInt64())
	old, err := c.ReadDatabaseByOID(ctx, oid)
	if err != nil {
		diags.AddError("Could not read database", err.Error())
		return false, diags
	}
	if old == nil {
		return true, diags // the object's database is gone
	}
	if planned.IsUnknown() {
		return false, diags
	}
	cur, err := c.ReadDatabase(ctx, planned.ValueString())
	if err != nil {
		diags.AddError("Could not read database", err.Error())
		return false, diags
	}
	// cur == nil: the new name does not exist yet while the object's database
	// still does: a rename of that database in this apply (checked at apply).
	return cur != nil && cur.OID != oid, diags
}

// checkSameDatabase verifies at apply time that database planned is the
// database with the state's OID (renamed), and refuses the change otherwise.
func checkSameDatabase(ctx context.Context, c *pg.Client, planned, stateDB string, stateOID types.Int64) diag.Diagnostics {
	var diags diag.Diagnostics
	if planned == stateDB {
		return diags
	}
	d, err := c.ReadDatabase(ctx, planned)
	if err != nil {
		diags.AddError("Could not read database", err.Error())
		return diags
	}
	if d == nil || stateOID.IsNull() || stateOID.IsUnknown() || int64(d.OID) != stateOID.ValueInt64() {
		diags.AddAttributeError(path.Root("database"), "Moved to another database",
			fmt.Sprintf("database changed from %q to %q, which is not the same database renamed (OID %s). Moving to another database means replacing the resource: "+
				"nothing was changed; run plan again (it now shows the replacement), or apply with -replace.", stateDB, planned, stateOID.String()))
	}
	return diags
}
