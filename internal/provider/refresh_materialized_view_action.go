package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

var _ action.ActionWithConfigure = (*refreshMaterializedViewAction)(nil)

// NewRefreshMaterializedViewAction is the constructor of the postgresql_refresh_materialized_view action.
func NewRefreshMaterializedViewAction() action.Action {
	return &refreshMaterializedViewAction{actionClient{typeSuffix: "_refresh_materialized_view"}}
}

type refreshMaterializedViewAction struct{ actionClient }

func (a *refreshMaterializedViewAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Refreshes a materialized view (`REFRESH MATERIALIZED VIEW`), optionally without locking out readers (`CONCURRENTLY`). " +
			"The provider's role must own the view (or have its owner's privileges; on PostgreSQL 17+ the `MAINTAIN` privilege is enough).",
		Attributes: map[string]schema.Attribute{
			"database": actionDatabaseAttribute("holding the materialized view"),
			"schema":   actionSchemaAttribute("of the materialized view"),
			"name":     requiredActionName("The materialized view's name."),
			"concurrently": actionBool("Refresh with `CONCURRENTLY`: readers keep seeing the old rows while the view is refreshed. " +
				"PostgreSQL needs a unique index on the view (on plain columns, without `WHERE`) and a view already populated."),
		},
	}
}

func (a *refreshMaterializedViewAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m refreshMaterializedViewModel
	if !a.configured(ctx, req, resp, &m) {
		return
	}
	db, schemaName, name := a.database(m.Database), actionValueOr(m.Schema, "public"), m.Name.ValueString()
	how := ""
	if m.Concurrently.ValueBool() {
		how = " concurrently"
	}
	sendProgress(resp, fmt.Sprintf("refreshing materialized view %s in database %s%s", pgconn.QuoteQualified(schemaName, name), pgconn.QuoteIdent(db), how))
	if err := a.client.RefreshMaterializedView(ctx, db, schemaName, name, m.Concurrently.ValueBool()); err != nil {
		resp.Diagnostics.AddError("Could not refresh the materialized view", err.Error())
		return
	}
	sendProgress(resp, fmt.Sprintf("refreshed materialized view %s", pgconn.QuoteQualified(schemaName, name)))
}

type refreshMaterializedViewModel struct {
	Database     types.String `tfsdk:"database"`
	Schema       types.String `tfsdk:"schema"`
	Name         types.String `tfsdk:"name"`
	Concurrently types.Bool   `tfsdk:"concurrently"`
}
