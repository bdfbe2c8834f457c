package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var _ provider.ProviderWithActions = (*pgProvider)(nil)

// Actions lists the provider's actions (Terraform 1.14+), sorted by type
// name: operations that are not objects, run when a configuration invokes
// them (an action_trigger of a resource, or terraform apply -invoke).
func (p *pgProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewAnalyzeAction,
		NewReassignOwnedAction,
		NewRefreshMaterializedViewAction,
		NewTerminateConnectionsAction,
		NewVacuumAction,
	}
}

// actionClient holds an action's type name and the provider's client.
type actionClient struct {
	typeSuffix string // the type name after the provider's, e.g. "_vacuum"
	client     *pg.Client
}

func (a *actionClient) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + a.typeSuffix
}

func (a *actionClient) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

// configured reads the configuration of an invocation into m (a pointer to
// the action's model) and reports whether the action can run: the
// configuration is readable and the provider was configured (Invoke always
// runs after Configure, so a nil client is a bug).
func (a *actionClient) configured(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse, m any) bool {
	resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return false
	}
	if a.client == nil {
		resp.Diagnostics.AddError("Provider not configured", "The action ran before the provider was configured; this is a bug in the provider.")
		return false
	}
	return true
}

// database is the database an action runs in: the configured one or the
// provider's.
func (a *actionClient) database(v types.String) string {
	if v.IsNull() || v.ValueString() == "" {
		return a.client.DefaultDatabase()
	}
	return v.ValueString()
}

func actionDatabaseAttribute(what string) schema.StringAttribute {
	return optionalActionName("The database " + what + "; defaults to the provider's database.")
}

func actionSchemaAttribute(what string) schema.StringAttribute {
	return optionalActionName("The schema " + what + "; defaults to `public`.")
}

func actionBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, MarkdownDescription: desc + " Unset means false."}
}

// actionValueOr is the value of v, or def when v is null or empty.
func actionValueOr(v types.String, def string) string {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return def
	}
	return v.ValueString()
}

// sendProgress sends one progress message when Terraform listens for them.
func sendProgress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

func requiredActionName(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: desc,
		Validators:          []validator.String{validators.Name()},
	}
}

func optionalActionName(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: desc,
		Validators:          []validator.String{validators.Name()},
	}
}
