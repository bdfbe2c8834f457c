package provider

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// testClient is a client like the provider's, from the acceptance environment.
func testClient(t *testing.T) *pg.Client {
	t.Helper()
	port, err := strconv.Atoi(os.Getenv("PGPORT"))
	if err != nil {
		t.Fatal(err)
	}
	c := pg.NewClient(pgconn.Config{
		Host: os.Getenv("PGHOST"), Port: port, Database: "postgres", Username: os.Getenv("PGUSER"), Password: os.Getenv("PGPASSWORD"),
		SSLMode: "disable", Superuser: os.Getenv("PGSUPERUSER") == "true",
	})
	t.Cleanup(c.Close)
	return c
}

// deleteWithState runs res's Read (which must remove the resource from the
// state) and Delete (as Terraform does on destroy without a refresh, which must
// succeed) over a state holding model.
func deleteWithState(t *testing.T, c *pg.Client, res resource.Resource, model any) {
	t.Helper()
	ctx := context.Background()
	var cr resource.ConfigureResponse
	res.(resource.ResourceWithConfigure).Configure(ctx, resource.ConfigureRequest{ProviderData: &providerData{client: c, opts: &options{}}}, &cr)
	if cr.Diagnostics.HasError() {
		t.Fatalf("%T Configure: %v", res, cr.Diagnostics)
	}
	var sresp resource.SchemaResponse
	res.Schema(ctx, resource.SchemaRequest{}, &sresp)
	state := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}
	if d := state.Set(ctx, model); d.HasError() {
		t.Fatalf("building state: %v", d)
	}
	rresp := resource.ReadResponse{State: tfsdk.State{Schema: state.Schema, Raw: state.Raw.Copy()}}
	res.Read(ctx, resource.ReadRequest{State: state}, &rresp)
	if rresp.Diagnostics.HasError() {
		t.Errorf("%T Read of a missing object failed: %v", res, rresp.Diagnostics)
	} else if !rresp.State.Raw.IsNull() {
		t.Errorf("%T Read of a missing object kept it in the state", res)
	}
	resp := resource.DeleteResponse{State: state}
	res.Delete(ctx, resource.DeleteRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("%T Delete of a missing object failed: %v", res, resp.Diagnostics)
	}
}

// TestAccForeign_deleteWhenGone: refreshing any resource of the foreign-data
// area removes it from the state, and destroying it succeeds, when its object
// (or the object's database) is already gone.
func TestAccForeign_deleteWhenGone(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	acctest.PreCheck(t)
	t.Parallel()
	db := acctest.RandName("gonedb")
	srv := acctest.RandName("gonesrv")
	acctest.TempDatabase(t, db, append(acctest.FDWSetup, "CREATE TABLE t (id int)")...)
	c := testClient(t)
	// a server that exists, owned by the provider's role, without the mapping being deleted
	if _, err := c.CreateForeignServer(context.Background(), db, pg.ForeignServerSpec{Name: srv, FDW: "postgres_fdw"}); err != nil {
		t.Fatal(err)
	}
	s := types.StringValue
	null := types.StringNull()
	for _, database := range []string{db, acctest.RandName("nosuchdb")} {
		t.Run(database, func(t *testing.T) {
			dbv := s(database)
			deleteWithState(t, c, NewServerResource(), &serverModel{ID: s("gone"), OID: types.Int64Value(99999), Database: dbv, ServerName: s("gone"),
				FDWName: s("postgres_fdw"), ServerType: s(""), ServerVersion: s(""), ServerOwner: s("x"), Options: types.MapNull(types.StringType), OptionsWO: types.MapNull(types.StringType), OptionsWOVersion: null, OptionsWONames: types.SetNull(types.StringType), DropCascade: types.BoolValue(false)})
			for _, server := range []string{srv, "gone"} {
				deleteWithState(t, c, NewUserMappingResource(), &userMappingModel{ID: s("public." + server), OID: types.Int64Null(), Database: dbv,
					ServerName: s(server), UserName: s("public"), Options: types.MapNull(types.StringType), OptionsWO: types.MapNull(types.StringType), OptionsWOVersion: null, OptionsWONames: types.SetNull(types.StringType)})
			}
			for _, table := range []string{"t", "gone"} {
				deleteWithState(t, c, NewPolicyResource(), &policyModel{ID: s("x"), OID: types.Int64Null(), Name: s("gone"), Database: dbv, Schema: s("public"),
					Table: s(table), Command: s("ALL"), Permissive: types.BoolValue(true), Roles: strSet("public"), Using: sqlExpression{StringValue: null}, WithCheck: sqlExpression{StringValue: null}})
			}
			deleteWithState(t, c, NewTableRLSResource(), &tableRLSModel{ID: s("x"), OID: types.Int64Null(), Database: dbv, Schema: s("public"),
				Table: s("gone"), Enabled: types.BoolValue(true), Force: types.BoolValue(false)})
			if !acctest.Managed() {
				deleteWithState(t, c, NewEventTriggerResource(), &eventTriggerModel{ID: s("x"), OID: types.Int64Null(), Name: s("gone"), Database: dbv,
					Event: s("sql_drop"), Tags: types.SetNull(commandTagType{}), Function: s("f"), FunctionSchema: s("public"), Enabled: s("ORIGIN"), Owner: s("x")})
			}
			for _, typ := range []string{"table", "role", "schema", "function"} {
				deleteWithState(t, c, NewSecurityLabelResource(), &securityLabelModel{ID: s("x"), Database: dbv, LabelProvider: s("dummy"),
					ObjectType: s(typ), ObjectName: s("gone"), Schema: null, Label: s("classified")})
			}
		})
	}
}
