package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ managedResource                     = (*tableRLSResource)(nil)
	_ tfkit.ChangePlanner[tableRLSModel]  = (*tableRLSResource)(nil)
	_ tfkit.DestroyPlanner[tableRLSModel] = (*tableRLSResource)(nil)
	_ tfkit.IDImporter                    = (*tableRLSResource)(nil)
	_ tfkit.ImportIDAttributes            = (*tableRLSResource)(nil)
)

// NewTableRLSResource is the constructor of postgresql_table_rls.
func NewTableRLSResource() resource.Resource {
	r := &tableRLSResource{}
	// The object's identity (Terraform 1.12+) is `database`, `schema`, `table`.
	r.Lifecycle = newLifecycle[tableRLSModel](r, "table_rls", tableRLSSchemaV1, "database", "schema", "table")
	return r
}

type tableRLSResource struct {
	tfkit.Lifecycle[tableRLSModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_table_rls
}

func tableRLSSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "Row-level security of an existing table (`ALTER TABLE ... ENABLE|DISABLE ROW LEVEL SECURITY`, `[NO] FORCE ROW LEVEL SECURITY`). " +
			"It is a resource of its own, not an argument of `postgresql_policy`, because it belongs to the table: several policies share it, and enabling it " +
			"without any policy denies every row to everyone but the owner. Destroying the resource disables row-level security (and forcing) on the table. " +
			"Needs ownership of the table.",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<schema>.<table>`."),
			"oid":      tfkit.OIDAttr("The table's OID."),
			"database": databaseAttribute("table"),
			"schema":   publicSchemaAttribute("The schema of the table (default `public`). Changing it means another table (replacement).", stringplanmodifier.RequiresReplace()),
			"table":    nameAttribute("The table (ordinary or partitioned). Changing it means another table (replacement).", stringplanmodifier.RequiresReplace()),
			"enabled": tfkit.DefaultedBoolAttr(true, "Whether row-level security is enabled (default `true`): rows are then visible and changeable only as the table's policies allow, "+
				"except to the table's owner, superusers and roles with `BYPASSRLS`."),
			"force": tfkit.DefaultedBoolAttr(false, "Whether the policies also apply to the table's owner (`FORCE ROW LEVEL SECURITY`; default `false`)."),
		},
	}
}

func (r *tableRLSResource) Describe(m *tableRLSModel) string {
	return fmt.Sprintf("row-level security of table %s.%s in database %q", m.Schema.ValueString(), m.Table.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database and the schema (awaitNames).
func (r *tableRLSResource) namesUsed(m *tableRLSModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "schema", m.Database, m.Schema)
	return n
}

func (r *tableRLSResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *tableRLSModel) diag.Diagnostics {
	return r.set(ctx, plan, 0)
}

func (r *tableRLSResource) UpdateObject(ctx context.Context, _ *tfkit.Call, plan, state *tableRLSModel) diag.Diagnostics {
	return r.set(ctx, plan, uint32(state.OID.ValueInt64()))
}

// set enables or disables (and forces or not) row-level security as m says.
func (r *tableRLSResource) set(ctx context.Context, m *tableRLSModel, oid uint32) diag.Diagnostics {
	defer r.client.Claim(r.factKey(m))()
	_, err := r.client.SetTableRLS(ctx, databaseOf(r.client, m.Database), oid, m.Schema.ValueString(), m.Table.ValueString(),
		m.Enabled.ValueBool(), m.Force.ValueBool(), false)
	return tfkit.Failed("Could not change row-level security", err)
}

// factKey is the fact of the table's row-level security (pg/claims.go).
func (r *tableRLSResource) factKey(m *tableRLSModel) string {
	return pg.FactKey("table_rls", databaseOf(r.client, m.Database), m.Schema.ValueString(), m.Table.ValueString())
}

// DropObject disables row-level security, unless another resource of this
// apply states it for the same table (it moved to another address:
// pg/claims.go).
func (r *tableRLSResource) DropObject(ctx context.Context, _ *tfkit.Call, state *tableRLSModel) diag.Diagnostics {
	claimed, release := r.client.Retract(r.factKey(state))
	defer release()
	if len(claimed) > 0 {
		return nil
	}
	_, err := r.client.SetTableRLS(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()),
		state.Schema.ValueString(), state.Table.ValueString(), false, false, true)
	return tfkit.Failed("Could not disable row-level security", err)
}

func (r *tableRLSResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *tableRLSModel) (bool, diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	// OID 0 (unknown in Create) reads by name
	t, err := r.client.ReadTableRLS(ctx, db, uint32(m.OID.ValueInt64()), m.Schema.ValueString(), m.Table.ValueString())
	if err != nil || t == nil {
		return notFound("Could not read table", err)
	}
	m.Database = types.StringValue(db)
	m.OID = types.Int64Value(int64(t.OID))
	m.Schema = types.StringValue(t.Schema)
	m.Table = types.StringValue(t.Table)
	m.ID = types.StringValue(strings.Join([]string{db, t.Schema, t.Table}, "."))
	m.Enabled = types.BoolValue(t.Enabled)
	m.Force = types.BoolValue(t.Force)
	return true, nil
}

// tableRLSImportForm is the import ID of a table's row-level security (see internal/tfkit/import_id.go).
var tableRLSImportForm = tfkit.ImportForm{What: "table", Names: []string{"schema", "table"}}

// ImportIDAttributes: the import ID is made of `database`, `schema` and `table` (see alreadyExists).
func (r *tableRLSResource) ImportIDAttributes() []string {
	return []string{"database", "schema", "table"}
}

func (r *tableRLSResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(tableRLSImportForm.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		t, err := r.client.ReadTableRLS(ctx, db, 0, names[0], names[1])
		if err != nil || t == nil {
			return false, err
		}
		resp.Diagnostics.Append(setImportedTableObject(ctx, &resp.State, db, t.Schema, t.Table, t.OID)...)
		return true, nil
	})...)
}

// setImportedTableObject sets the import state of an object of a table (its
// row-level security, a policy): its database, schema, table and OID.
func setImportedTableObject(ctx context.Context, st *tfsdk.State, db, schema, table string, oid uint32) diag.Diagnostics {
	return tfkit.SetAttributes(ctx, st, "database", db, "schema", schema, "table", table, "oid", int64(oid))
}

func (r *tableRLSResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[tableRLSModel]) {
	planDatabase(p, r.client, func(m *tableRLSModel) *types.String { return &m.Database })
	p.Plan.ID = joinedID(p.Plan.Database, p.Plan.Schema, p.Plan.Table)
}

// PlanDestroy warns that the table's remaining policies stop filtering rows.
func (r *tableRLSResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *tableRLSModel) {
	if r.client == nil || r.client.Ready() != nil || !state.Enabled.ValueBool() || state.OID.IsNull() || state.OID.IsUnknown() {
		return
	}
	n, err := r.client.CountPolicies(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()))
	if err != nil || n == 0 {
		return
	}
	resp.Diagnostics.AddWarning("Row-level security will be disabled",
		fmt.Sprintf("Destroying this resource disables row-level security on table %s.%s, which has %d %s now: "+
			"those left in place stop filtering rows, and every role with table privileges sees all rows.",
			state.Schema.ValueString(), state.Table.ValueString(), n, map[bool]string{true: "policy", false: "policies"}[n == 1]))
}

type tableRLSModel struct {
	ID       types.String `tfsdk:"id"`
	OID      types.Int64  `tfsdk:"oid"`
	Database types.String `tfsdk:"database"`
	Schema   types.String `tfsdk:"schema"`
	Table    types.String `tfsdk:"table"`
	Enabled  types.Bool   `tfsdk:"enabled"`
	Force    types.Bool   `tfsdk:"force"`
}
