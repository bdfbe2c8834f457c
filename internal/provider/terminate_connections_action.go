package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

var (
	_ action.ActionWithConfigure      = (*terminateConnectionsAction)(nil)
	_ action.ActionWithValidateConfig = (*terminateConnectionsAction)(nil)
)

// NewTerminateConnectionsAction is the constructor of the postgresql_terminate_connections action.
func NewTerminateConnectionsAction() action.Action {
	return &terminateConnectionsAction{actionClient{typeSuffix: "_terminate_connections"}}
}

type terminateConnectionsAction struct{ actionClient }

func (a *terminateConnectionsAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Terminates sessions (`pg_terminate_backend`): those connected to a database, those of a role, or, with both, those of the role " +
			"in the database. At least one of `database` and `role` must be set. The provider's own sessions are never terminated (the session asking, " +
			"and the sessions of the provider's role with its `application_name`, `terraform-provider-postgresql` unless `PGAPPNAME` sets another). " +
			"A progress message names each session terminated and the last one gives the count. A superuser may terminate any session; another role needs " +
			"the privileges of the session's role or of `pg_signal_backend` (which never reaches a superuser's sessions).",
		Attributes: map[string]schema.Attribute{
			"database": optionalActionName("Terminate the sessions connected to this database."),
			"role":     optionalActionName("Terminate the sessions of this role (its login name, as `pg_stat_activity.usename`)."),
		},
	}
}

func (a *terminateConnectionsAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m terminateConnectionsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Database.IsNull() && m.Role.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("database"), "Missing database or role",
			"Set database, role or both: postgresql_terminate_connections terminates the sessions connected to a database, those of a role, "+
				"or those of the role in the database; it never terminates every session of the server.")
	}
}

func (a *terminateConnectionsAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m terminateConnectionsModel
	if !a.configured(ctx, req, resp, &m) {
		return
	}
	db, role := m.Database.ValueString(), m.Role.ValueString()
	what := describeSessions(db, role)
	sessions, err := a.client.SessionsToTerminate(ctx, db, role)
	if err != nil {
		resp.Diagnostics.AddError("Could not list the sessions to terminate", err.Error())
		return
	}
	sendProgress(resp, fmt.Sprintf("%d %s to terminate", len(sessions), what))
	terminated := 0
	for _, s := range sessions {
		ok, err := a.client.TerminateBackend(ctx, s.PID)
		if err != nil {
			resp.Diagnostics.AddError("Could not terminate a session",
				fmt.Sprintf("Session %d (role %s, database %s, application %q): %s. %d of %d %s terminated before it.",
					s.PID, pgconn.QuoteIdent(s.User), pgconn.QuoteIdent(s.Database), s.ApplicationName, err, terminated, len(sessions), what))
			return
		}
		if ok {
			terminated++
			sendProgress(resp, fmt.Sprintf("terminated session %d (role %s, database %s, application %q)", s.PID, pgconn.QuoteIdent(s.User), pgconn.QuoteIdent(s.Database), s.ApplicationName))
		} else {
			sendProgress(resp, fmt.Sprintf("session %d had already ended (or did not exit within 5 seconds)", s.PID))
		}
	}
	sendProgress(resp, fmt.Sprintf("terminated %d of %d %s", terminated, len(sessions), what))
}

func describeSessions(db, role string) string {
	switch {
	case db != "" && role != "":
		return fmt.Sprintf("sessions of role %s in database %s", pgconn.QuoteIdent(role), pgconn.QuoteIdent(db))
	case db != "":
		return fmt.Sprintf("sessions in database %s", pgconn.QuoteIdent(db))
	default:
		return fmt.Sprintf("sessions of role %s", pgconn.QuoteIdent(role))
	}
}

type terminateConnectionsModel struct {
	Database types.String `tfsdk:"database"`
	Role     types.String `tfsdk:"role"`
}
