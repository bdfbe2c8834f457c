package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

var _ action.ActionWithConfigure = (*analyzeAction)(nil)

// NewAnalyzeAction is the constructor of the postgresql_analyze action.
func NewAnalyzeAction() action.Action { return &analyzeAction{actionClient{typeSuffix: "_analyze"}} }

type analyzeAction struct{ actionClient }

func (a *analyzeAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Collects planner statistics (`ANALYZE`) for one table, or for every table of a schema that the provider's role may analyze, " +
			"one statement per table, with a progress message for each. A role may analyze a table it owns (or whose owner's privileges it has), " +
			"every table of a database it owns, and, on PostgreSQL 17+, a table it holds `MAINTAIN` on; a superuser may analyze any.",
		Attributes: maintainAttributes("analyze", nil),
	}
}

// maintainAttributes are the attributes of a maintenance action (verb, e.g.
// "vacuum"): the tables it processes (database, schema, table), and extra.
func maintainAttributes(verb string, extra map[string]schema.Attribute) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"database": actionDatabaseAttribute("holding the tables"),
		"schema":   actionSchemaAttribute("holding the tables"),
		"table": optionalActionName("The table (or materialized view, or partitioned table with its partitions) to " + verb + ". " +
			"Unset: every table, partitioned table and materialized view of the schema that the provider's role may " + verb + ", in name order " +
			"(the others are counted and reported as skipped). Naming a table the role may not " + verb + " is an error, where PostgreSQL would only warn."),
	}
	maps.Copy(attrs, extra)
	return attrs
}

func (a *analyzeAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m analyzeModel
	if !a.configured(ctx, req, resp, &m) {
		return
	}
	a.maintainTables(ctx, resp, m.Database, m.Schema, m.Table, "analyze", func(db, schemaName, table string) error {
		return a.client.Analyze(ctx, db, schemaName, table)
	})
}

// maintainTables runs op on one table, or on every table of the schema the
// role may process, sending a progress message per table: the configured
// database, schema and table of a maintenance action (verb).
func (a *actionClient) maintainTables(ctx context.Context, resp *action.InvokeResponse, database, inSchema, table types.String, verb string, op func(db, schemaName, table string) error) {
	db, schemaName := a.database(database), actionValueOr(inSchema, "public")
	summary := "Could not " + verb
	if !table.IsNull() {
		sendProgress(resp, fmt.Sprintf("%s %s in database %s", verb, pgconn.QuoteQualified(schemaName, table.ValueString()), pgconn.QuoteIdent(db)))
		if err := op(db, schemaName, table.ValueString()); err != nil {
			resp.Diagnostics.AddError(summary, err.Error())
			return
		}
		sendProgress(resp, fmt.Sprintf("%s %s: done", verb, pgconn.QuoteQualified(schemaName, table.ValueString())))
		return
	}
	tables, err := a.client.MaintainedTables(ctx, db, schemaName)
	if err != nil {
		resp.Diagnostics.AddError(summary, fmt.Sprintf("listing the tables of schema %s in database %s: %s", pgconn.QuoteIdent(schemaName), pgconn.QuoteIdent(db), err))
		return
	}
	var allowed []string
	for _, t := range tables {
		if t.Allowed {
			allowed = append(allowed, t.Name)
		}
	}
	sendProgress(resp, fmt.Sprintf("%s: %d tables in schema %s of database %s (%d skipped: the provider's role may not %s them)",
		verb, len(allowed), pgconn.QuoteIdent(schemaName), pgconn.QuoteIdent(db), len(tables)-len(allowed), verb))
	for i, t := range allowed {
		if err := op(db, schemaName, t); err != nil {
			resp.Diagnostics.AddError(summary, fmt.Sprintf("%s (after %d of %d tables)", err, i, len(allowed)))
			return
		}
		sendProgress(resp, fmt.Sprintf("%s %s: done (%d/%d)", verb, pgconn.QuoteQualified(schemaName, t), i+1, len(allowed)))
	}
}

type analyzeModel struct {
	Database types.String `tfsdk:"database"`
	Schema   types.String `tfsdk:"schema"`
	Table    types.String `tfsdk:"table"`
}
