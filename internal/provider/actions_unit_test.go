package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// actionTestConfig is the configuration of action a holding model.
func actionTestConfig(t *testing.T, a action.Action, model any) tfsdk.Config {
	t.Helper()
	ctx := context.Background()
	var sresp action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &sresp)
	if d := sresp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatalf("schema: %v", d)
	}
	state := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}
	if d := state.Set(ctx, model); d.HasError() {
		t.Fatalf("building config: %v", d)
	}
	return tfsdk.Config{Schema: sresp.Schema, Raw: state.Raw}
}

func validateAction(t *testing.T, a action.Action, model any) []string {
	t.Helper()
	var resp action.ValidateConfigResponse
	a.(action.ActionWithValidateConfig).ValidateConfig(context.Background(), action.ValidateConfigRequest{Config: actionTestConfig(t, a, model)}, &resp)
	var out []string
	for _, d := range resp.Diagnostics.Errors() {
		out = append(out, d.Summary())
	}
	return out
}

func TestActionValidateConfig_terminateConnections(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    terminateConnectionsModel
		want string
	}{
		{"neither", terminateConnectionsModel{Database: types.StringNull(), Role: types.StringNull()}, "Missing database or role"},
		{"database", terminateConnectionsModel{Database: types.StringValue("app"), Role: types.StringNull()}, ""},
		{"role", terminateConnectionsModel{Database: types.StringNull(), Role: types.StringValue("app")}, ""},
		{"both", terminateConnectionsModel{Database: types.StringValue("app"), Role: types.StringValue("app")}, ""},
		{"unknown database", terminateConnectionsModel{Database: types.StringUnknown(), Role: types.StringNull()}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(validateAction(t, NewTerminateConnectionsAction(), &tc.m), "; ")
			if got != tc.want {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}

func TestActionValidateConfig_reassignOwned(t *testing.T) {
	roles := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a")})
	dbs := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("d1"), types.StringValue("d2")})
	for _, tc := range []struct {
		name string
		m    reassignOwnedModel
		want string
	}{
		{"database", reassignOwnedModel{OldRoles: roles, NewRole: types.StringValue("b"), Database: types.StringValue("d"), Databases: types.ListNull(types.StringType)}, ""},
		{"databases", reassignOwnedModel{OldRoles: roles, NewRole: types.StringValue("b"), Database: types.StringNull(), Databases: dbs}, ""},
		{"neither", reassignOwnedModel{OldRoles: roles, NewRole: types.StringValue("b"), Database: types.StringNull(), Databases: types.ListNull(types.StringType)}, ""},
		{"both", reassignOwnedModel{OldRoles: roles, NewRole: types.StringValue("b"), Database: types.StringValue("d"), Databases: dbs}, "Conflicting database and databases"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(validateAction(t, NewReassignOwnedAction(), &tc.m), "; ")
			if got != tc.want {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}

func TestActionVacuumStatement(t *testing.T) {
	for _, tc := range []struct {
		opts pg.VacuumOptions
		want string
	}{
		{pg.VacuumOptions{}, `VACUUM "s"."T ""x"""`},
		{pg.VacuumOptions{Analyze: true}, `VACUUM (ANALYZE) "s"."T ""x"""`},
		{pg.VacuumOptions{Full: true, Freeze: true, Analyze: true}, `VACUUM (FULL, FREEZE, ANALYZE) "s"."T ""x"""`},
	} {
		if got := pg.VacuumStatement("s", `T "x"`, tc.opts); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.opts, got, tc.want)
		}
	}
}

// Invoking the actions directly (as Terraform would) sends one progress
// message per table and per session, and terminating the sessions of a
// database spares the provider's own session there.
func TestAccAction_invokeProgress(t *testing.T) {
	acctest.PreCheck(t)
	ctx := context.Background()
	c := testClient(t)
	invoke := func(a action.Action, model any) ([]string, []string) {
		var cr action.ConfigureResponse
		a.(action.ActionWithConfigure).Configure(ctx, action.ConfigureRequest{ProviderData: &providerData{client: c, opts: &options{}}}, &cr)
		if cr.Diagnostics.HasError() {
			t.Fatalf("%T Configure: %v", a, cr.Diagnostics)
		}
		var msgs []string
		resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { msgs = append(msgs, e.Message) }}
		a.Invoke(ctx, action.InvokeRequest{Config: actionTestConfig(t, a, model)}, &resp)
		var errs []string
		for _, d := range resp.Diagnostics.Errors() {
			errs = append(errs, d.Summary()+": "+d.Detail())
		}
		return msgs, errs
	}

	maintDB, schema, _ := maintenanceSchema(t)
	msgs, errs := invoke(NewVacuumAction(), &vacuumModel{
		Database: types.StringValue(maintDB), Schema: types.StringValue(schema), Table: types.StringNull(),
		Full: types.BoolNull(), Analyze: types.BoolValue(true), Freeze: types.BoolNull(),
	})
	if len(errs) > 0 {
		t.Fatalf("vacuum: %v", errs)
	}
	n, skipped := 3, 0
	if acctest.Managed() {
		n, skipped = 2, 1
	}
	want := []string{fmt.Sprintf(`vacuum: %d tables in schema %s of database %s (%d skipped: the provider's role may not vacuum them)`, n, pgconn.QuoteIdent(schema), pgconn.QuoteIdent(maintDB), skipped)}
	if !acctest.Managed() {
		want = append(want, fmt.Sprintf("vacuum %s: done (1/3)", pgconn.QuoteQualified(schema, "T 2")), fmt.Sprintf("vacuum %s: done (2/3)", pgconn.QuoteQualified(schema, "other")), fmt.Sprintf("vacuum %s: done (3/3)", pgconn.QuoteQualified(schema, "t1")))
	} else {
		want = append(want, fmt.Sprintf("vacuum %s: done (1/2)", pgconn.QuoteQualified(schema, "T 2")), fmt.Sprintf("vacuum %s: done (2/2)", pgconn.QuoteQualified(schema, "t1")))
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("vacuum progress:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}

	db := acctest.RandName("invoke_db")
	acctest.Database(t, db, acctest.AdminUser())
	// the provider's own session in db (idle in its pool), and a stranger's
	if err := c.Read(ctx, db, func(ctx context.Context, q pg.Querier) error { return q.QueryRow(ctx, "SELECT 1").Scan(new(int)) }); err != nil {
		t.Fatal(err)
	}
	victim := acctest.HoldSessionAs(t, db, acctest.AdminUser(), os.Getenv("PGPASSWORD"))
	msgs, errs = invoke(NewTerminateConnectionsAction(), &terminateConnectionsModel{Database: types.StringValue(db), Role: types.StringNull()})
	if len(errs) > 0 {
		t.Fatalf("terminate: %v", errs)
	}
	want = []string{
		fmt.Sprintf("1 sessions in database %s to terminate", pgconn.QuoteIdent(db)),
		fmt.Sprintf("terminated session %d (role %s, database %s, application \"pgtf-acctest\")", victim, pgconn.QuoteIdent(acctest.AdminUser()), pgconn.QuoteIdent(db)),
		fmt.Sprintf("terminated 1 of 1 sessions in database %s", pgconn.QuoteIdent(db)),
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("terminate progress:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if !acctest.QueryBool(t, "", "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = 'terraform-provider-postgresql')", db) {
		t.Error("the provider's own session in the database was terminated")
	}
}
