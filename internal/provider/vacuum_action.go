package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

var _ action.ActionWithConfigure = (*vacuumAction)(nil)

// NewVacuumAction is the constructor of the postgresql_vacuum action.
func NewVacuumAction() action.Action { return &vacuumAction{actionClient{typeSuffix: "_vacuum"}} }

type vacuumAction struct{ actionClient }

func (a *vacuumAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Vacuums (`VACUUM`) one table, or every table of a schema that the provider's role may vacuum, one statement per table " +
			"(outside any transaction, as PostgreSQL requires), with a progress message for each. A role may vacuum a table it owns (or whose owner's " +
			"privileges it has), every table of a database it owns, and, on PostgreSQL 17+, a table it holds `MAINTAIN` on; a superuser may vacuum any.",
		Attributes: maintainAttributes("vacuum", map[string]schema.Attribute{
			"full": actionBool("`VACUUM FULL`: rewrite each table into a new file, giving space back to the operating system. " +
				"It holds an `ACCESS EXCLUSIVE` lock on the table while it runs and needs room for a second copy."),
			"analyze": actionBool("`VACUUM ANALYZE`: also collect planner statistics."),
			"freeze":  actionBool("`VACUUM FREEZE`: freeze every row version (as a vacuum with `vacuum_freeze_min_age` and `vacuum_freeze_table_age` zero)."),
		}),
	}
}

func (a *vacuumAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m vacuumModel
	if !a.configured(ctx, req, resp, &m) {
		return
	}
	opts := pg.VacuumOptions{Full: m.Full.ValueBool(), Analyze: m.Analyze.ValueBool(), Freeze: m.Freeze.ValueBool()}
	a.maintainTables(ctx, resp, m.Database, m.Schema, m.Table, "vacuum", func(db, schemaName, table string) error {
		return a.client.Vacuum(ctx, db, schemaName, table, opts)
	})
}

type vacuumModel struct {
	Database types.String `tfsdk:"database"`
	Schema   types.String `tfsdk:"schema"`
	Table    types.String `tfsdk:"table"`
	Full     types.Bool   `tfsdk:"full"`
	Analyze  types.Bool   `tfsdk:"analyze"`
	Freeze   types.Bool   `tfsdk:"freeze"`
}
