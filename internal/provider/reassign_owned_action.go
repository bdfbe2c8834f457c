package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ action.ActionWithConfigure      = (*reassignOwnedAction)(nil)
	_ action.ActionWithValidateConfig = (*reassignOwnedAction)(nil)
)

// NewReassignOwnedAction is the constructor of the postgresql_reassign_owned action.
func NewReassignOwnedAction() action.Action {
	return &reassignOwnedAction{actionClient{typeSuffix: "_reassign_owned"}}
}

type reassignOwnedAction struct{ actionClient }

func (a *reassignOwnedAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	names := []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(validators.Name())}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Gives everything some roles own to another role (`REASSIGN OWNED BY ... TO ...`). PostgreSQL does it one database at a time " +
			"(plus the databases and tablespaces the roles own, which are shared): set `databases` to run it in several, with a progress message for each. " +
			"It needs the privileges of the old roles and of the new one. A superuser has them; a non-superuser admin (`superuser = false`, as on AWS RDS, " +
			"Cloud SQL or Azure) grants itself membership in each role it is not a member of for the transaction and revokes it before committing, " +
			"which PostgreSQL 16+ allows only for the roles the admin created (it holds `ADMIN OPTION` on them); when it cannot, the error names the role and the grant that fixes it.",
		Attributes: map[string]schema.Attribute{
			"old_roles": schema.ListAttribute{
				ElementType:         types.StringType,
				Required:            true,
				MarkdownDescription: "The roles whose objects change owner (at least one).",
				Validators:          names,
			},
			"new_role": requiredActionName("The role receiving the objects."),
			"database": optionalActionName("The database to reassign the objects in; defaults to the provider's database. Conflicts with `databases`."),
			"databases": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Run `REASSIGN OWNED` in each of these databases, in this order (one transaction each: a failure stops there, the databases before it keep their change). Conflicts with `database`.",
				Validators:          names,
			},
		},
	}
}

func (a *reassignOwnedAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m reassignOwnedModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Database.IsNull() && !m.Databases.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("databases"), "Conflicting database and databases",
			"Set database (one database) or databases (several), not both.")
	}
}

func (a *reassignOwnedAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m reassignOwnedModel
	if !a.configured(ctx, req, resp, &m) {
		return
	}
	var oldRoles, dbs []string
	resp.Diagnostics.Append(m.OldRoles.ElementsAs(ctx, &oldRoles, false)...)
	if !m.Databases.IsNull() {
		resp.Diagnostics.Append(m.Databases.ElementsAs(ctx, &dbs, false)...)
	} else {
		dbs = []string{a.database(m.Database)}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	newRole := m.NewRole.ValueString()
	for i, db := range dbs {
		sendProgress(resp, fmt.Sprintf("reassigning the objects of %s to %s in database %s (%d/%d)", pgconn.QuoteIdents(oldRoles), pgconn.QuoteIdent(newRole), pgconn.QuoteIdent(db), i+1, len(dbs)))
		if err := a.client.ReassignOwned(ctx, db, oldRoles, newRole); err != nil {
			detail := err.Error()
			if i > 0 {
				detail += fmt.Sprintf(". The objects in the %d databases before it were reassigned.", i)
			}
			resp.Diagnostics.AddError("Could not reassign owned objects", detail)
			return
		}
	}
	sendProgress(resp, fmt.Sprintf("reassigned the objects of %s to %s in %d database(s)", pgconn.QuoteIdents(oldRoles), pgconn.QuoteIdent(newRole), len(dbs)))
}

type reassignOwnedModel struct {
	OldRoles  types.List   `tfsdk:"old_roles"`
	NewRole   types.String `tfsdk:"new_role"`
	Database  types.String `tfsdk:"database"`
	Databases types.List   `tfsdk:"databases"`
}
