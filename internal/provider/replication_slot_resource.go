package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ resource.Resource                 = (*replicationSlotResource)(nil)
	_ resource.ResourceWithConfigure    = (*replicationSlotResource)(nil)
	_ resource.ResourceWithImportState  = (*replicationSlotResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*replicationSlotResource)(nil)
	_ resource.ResourceWithUpgradeState = (*replicationSlotResource)(nil)
)

// NewReplicationSlotResource is the constructor of postgresql_replication_slot.
func NewReplicationSlotResource() resource.Resource { return &replicationSlotResource{} }

type replicationSlotResource struct {
	client *pg.Client
}

func (r *replicationSlotResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_replication_slot"
}

func (r *replicationSlotResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = replicationSlotSchemaV1()
}

func replicationSlotSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A logical replication slot (`pg_create_logical_replication_slot`). A slot keeps the WAL its consumer has not yet received, " +
			"so an unused slot makes WAL pile up on the server. Slots cannot be altered: any change replaces the slot, and its position is lost. " +
			"Creating a slot needs superuser or the `REPLICATION` attribute; an active slot (a consumer is connected) cannot be dropped.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<database>.<name>`.",
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The slot name, unique in the cluster. PostgreSQL allows only lower-case letters, digits and underscores. Changing it replaces the slot.",
				Validators:          []validator.String{validators.Name(), slotNameValidator()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"plugin": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The output plugin that decodes the WAL for the consumer, e.g. `pgoutput` (logical replication) or `test_decoding`. Changing it replaces the slot.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"database": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The database whose changes the slot decodes; the provider's `database` when not set. Changing it replaces the slot.",
				Validators:          []validator.String{validators.Name()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured()},
			},
		},
	}
}

func (r *replicationSlotResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *replicationSlotResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan replicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !isKnown(plan.Database) {
		plan.Database = types.StringValue(r.client.DefaultDatabase())
	}
	if err := r.client.CreateLogicalReplicationSlot(ctx, plan.Database.ValueString(), plan.Name.ValueString(), plan.Plugin.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not create replication slot", err.Error())
		return
	}
	plan.ID = types.StringValue(plan.Database.ValueString() + "." + plan.Name.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *replicationSlotResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state replicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, err := r.client.ReadReplicationSlot(ctx, state.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read replication slot", err.Error())
		return
	}
	if s == nil || s.Type != "logical" {
		resp.State.RemoveResource(ctx)
		return
	}
	state.Name = types.StringValue(s.Name)
	state.Plugin = types.StringValue(s.Plugin)
	state.Database = types.StringValue(s.Database)
	state.ID = types.StringValue(s.Database + "." + s.Name)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update is never called: every attribute replaces the slot.
func (r *replicationSlotResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan replicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *replicationSlotResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state replicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.client.DropReplicationSlot(ctx, state.Name.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not drop replication slot", err.Error())
	}
}

// ImportState takes `<database>.<name>`. Slot names cannot contain dots, so
// the name is what follows the last dot.
func (r *replicationSlotResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	i := strings.LastIndex(req.ID, ".")
	if i <= 0 || i == len(req.ID)-1 {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("The import ID is <database>.<slot name>, e.g. postgres.my_slot; got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("database"), req.ID[:i])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID[i+1:])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func (r *replicationSlotResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		warnActiveSlot(ctx, r.client, req, resp)
		return
	}
	var plan, config replicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	stateDB := types.StringNull()
	if !req.State.Raw.IsNull() {
		var state replicationSlotModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		stateDB = state.Database
	}
	plan.Database = defaultedDatabase(config.Database, stateDB, r.client)
	if isKnown(plan.Database) && isKnown(plan.Name) {
		plan.ID = types.StringValue(plan.Database.ValueString() + "." + plan.Name.ValueString())
	} else {
		plan.ID = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// warnActiveSlot warns on a destroy plan when a consumer is connected to the
// slot: PostgreSQL refuses to drop an active slot.
func warnActiveSlot(ctx context.Context, client *pg.Client, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || client == nil || client.Ready() != nil {
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	if !isKnown(name) {
		return
	}
	s, err := client.ReadReplicationSlot(ctx, name.ValueString())
	if err != nil || s == nil || !s.Active {
		return
	}
	resp.Diagnostics.AddWarning("Replication slot is in use",
		fmt.Sprintf("A consumer is connected to replication slot %q; PostgreSQL refuses to drop an active slot, so the destroy will fail until the consumer disconnects.", s.Name))
}

func (r *replicationSlotResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {PriorSchema: replicationSlotSchemaV0(), StateUpgrader: upgradeReplicationSlotStateV0},
	}
}

type replicationSlotModel struct {
	ID       types.String `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	Plugin   types.String `tfsdk:"plugin"`
	Database types.String `tfsdk:"database"`
}
