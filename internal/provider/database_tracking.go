package provider

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Database-scoped resources (schema, extension) record the OID of their
// database in database_oid, so that a renamed database is recognised as the
// same database and its objects are updated in place instead of replaced.

// planTrackedDatabase plans `database` and `database_oid` of an object that
// follows its database across renames (pick gives the addresses of the
// database name, database OID and object OID in a model): on create the
// configured database, else the provider's; on update the configured or the
// state's database with the state's OID, and a change of database name
// replaces the object (its OIDs then unknown) unless the new name is the same
// database renamed (databaseChangeReplaces). It reports whether it replaces.
func planTrackedDatabase[M any](ctx context.Context, c *pg.Client, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *tfkit.Planned[M],
	pick func(*M) (db *types.String, dbOID, oid *types.Int64),
) bool {
	planDB, planDBOID, planOID := pick(&p.Plan)
	configDB, _, _ := pick(&p.Config)
	if p.Creating() {
		if configDB.IsNull() && c != nil {
			*planDB = types.StringValue(c.DefaultDatabase())
		}
		return false
	}
	stateDB, stateDBOID, _ := pick(p.State)
	*planDBOID = *stateDBOID
	*planDB = defaultedDatabase(*configDB, *stateDB, c)
	if !planDB.IsUnknown() && planDB.ValueString() == stateDB.ValueString() {
		return false
	}
	pos, havePos := readXactPos(ctx, req.Private)
	replace, diags := databaseChangeReplaces(ctx, c, *planDB, *stateDBOID, pos, havePos)
	resp.Diagnostics.Append(diags...)
	if replace {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("database"))
		*planOID, *planDBOID = types.Int64Unknown(), types.Int64Unknown()
	}
	return replace
}

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

// privateXactPos is the private-state key holding the server's transaction
// position at the last refresh (see databaseChangeReplaces).
const privateXactPos = "xact_pos"

// recordXactPos stores the server's transaction position in private state.
func recordXactPos(ctx context.Context, c *pg.Client, p tfkit.PrivateSetter) diag.Diagnostics {
	if p == nil || c == nil {
		return nil
	}
	pos, err := c.XactPosition(ctx)
	if err != nil {
		return nil // only refines plans; never fails a read
	}
	return p.SetKey(ctx, privateXactPos, []byte(strconv.FormatInt(pos, 10)))
}

func readXactPos(ctx context.Context, p tfkit.PrivateGetter) (int64, bool) {
	if p == nil {
		return 0, false
	}
	b, diags := p.GetKey(ctx, privateXactPos)
	if diags.HasError() || len(b) == 0 {
		return 0, false
	}
	pos, err := strconv.ParseInt(string(b), 10, 64)
	return pos, err == nil
}

// databaseChangeReplaces decides at plan time whether changing the database
// of an object from the state's to planned is another database (replace:
// true) or the same database renamed (false; confirmed at apply by
// checkSameDatabase). An unknown planned name is decided at apply.
//
// Terraform plans twice (before apply, and again when the values of the
// resources applied before are known) and both plans must agree. When the
// planned database is created in the same apply, the first plan cannot tell
// it from a rename and plans an update; the second plan then finds a database
// of another OID, which is also what a plain move to another existing
// database looks like. The two are told apart by the transaction position
// recorded at the last refresh (pos): a database written after it was made
// by this apply, and the plan stays an update that the apply refuses (nothing
// changes; the next plan, after a refresh, replaces).
func databaseChangeReplaces(ctx context.Context, c *pg.Client, planned types.String, stateOID types.Int64, pos int64, havePos bool) (bool, diag.Diagnostics) {
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
	if cur == nil || cur.OID == oid {
		return false, diags
	}
	if havePos {
		if newer, err := c.DatabaseWrittenSince(ctx, cur.Name, pos); err == nil && newer {
			return false, diags
		}
	}
	return true, diags
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
