package provider

import (
	"context"

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
	_ resource.Resource                 = (*physicalReplicationSlotResource)(nil)
	_ resource.ResourceWithConfigure    = (*physicalReplicationSlotResource)(nil)
	_ resource.ResourceWithImportState  = (*physicalReplicationSlotResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*physicalReplicationSlotResource)(nil)
	_ resource.ResourceWithUpgradeState = (*physicalReplicationSlotResource)(nil)
)

// NewPhysicalReplicationSlotResource is the constructor of postgresql_physical_replication_slot.
func NewPhysicalReplicationSlotResource() resource.Resource {
	return &physicalReplicationSlotResource{}
}

type physicalReplicationSlotResource struct {
	client *pg.Client
}

func (r *physicalReplicationSlotResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_physical_replication_slot"
}

func (r *physicalReplicationSlotResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = physicalReplicationSlotSchemaV1()
}

func physicalReplicationSlotSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A physical replication slot (`pg_create_physical_replication_slot`), for a streaming standby or `pg_basebackup`. " +
			"Once a client has used it, the server keeps the WAL the client has not received, so an abandoned slot makes WAL pile up. " +
			"Slots cannot be altered: a new name replaces the slot. Creating a slot needs superuser or the `REPLICATION` attribute.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The slot name.",
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The slot name, unique in the cluster. PostgreSQL allows only lower-case letters, digits and underscores. Changing it replaces the slot.",
				Validators:          []validator.String{validators.Name(), slotNameValidator()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
		},
	}
}

func (r *physicalReplicationSlotResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *physicalReplicationSlotResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan physicalReplicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.client.CreatePhysicalReplicationSlot(ctx, plan.Name.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not create physical replication slot", err.Error())
		return
	}
	plan.ID = plan.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *physicalReplicationSlotResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state physicalReplicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, err := r.client.ReadReplicationSlot(ctx, state.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read physical replication slot", err.Error())
		return
	}
	if s == nil || s.Type != "physical" {
		resp.State.RemoveResource(ctx)
		return
	}
	state.Name = types.StringValue(s.Name)
	state.ID = state.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update is never called: the only attribute replaces the slot.
func (r *physicalReplicationSlotResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan physicalReplicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *physicalReplicationSlotResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state physicalReplicationSlotModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.client.DropReplicationSlot(ctx, state.Name.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not drop physical replication slot", err.Error())
	}
}

// ImportState takes the slot name.
func (r *physicalReplicationSlotResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if err := pg.ValidateName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", "The import ID is the slot name, which "+err.Error()+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func (r *physicalReplicationSlotResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		warnActiveSlot(ctx, r.client, req, resp)
		return
	}
	var plan physicalReplicationSlotModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = plan.Name
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *physicalReplicationSlotResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {PriorSchema: physicalReplicationSlotSchemaV0(), StateUpgrader: upgradePhysicalReplicationSlotStateV0},
	}
}

type physicalReplicationSlotModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}
