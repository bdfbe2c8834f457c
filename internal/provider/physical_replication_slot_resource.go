package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

var (
	_ managedResource                                    = (*physicalReplicationSlotResource)(nil)
	_ tfkit.ChangePlanner[physicalReplicationSlotModel]  = (*physicalReplicationSlotResource)(nil)
	_ tfkit.DestroyPlanner[physicalReplicationSlotModel] = (*physicalReplicationSlotResource)(nil)
	_ tfkit.IDImporter                                   = (*physicalReplicationSlotResource)(nil)
	_ tfkit.ImportIDAttributes                           = (*physicalReplicationSlotResource)(nil)
)

// NewPhysicalReplicationSlotResource is the constructor of postgresql_physical_replication_slot.
func NewPhysicalReplicationSlotResource() resource.Resource {
	r := &physicalReplicationSlotResource{}
	// The object's identity (Terraform 1.12+) is `name`.
	r.Lifecycle = newLifecycle[physicalReplicationSlotModel](r, "physical_replication_slot", physicalReplicationSlotSchemaV1, "name")
	return r
}

type physicalReplicationSlotResource struct {
	tfkit.Lifecycle[physicalReplicationSlotModel]
	withClient
	replaceOnly[physicalReplicationSlotModel] // the only attribute replaces the slot
}

func physicalReplicationSlotSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A physical replication slot (`pg_create_physical_replication_slot`), for a streaming standby or `pg_basebackup`. " +
			"Once a client has used it, the server keeps the WAL the client has not received, so an abandoned slot makes WAL pile up. " +
			"Slots cannot be altered: a new name replaces the slot. Creating a slot needs superuser or the `REPLICATION` attribute.",
		Attributes: map[string]schema.Attribute{
			"id":   tfkit.IDAttr("The slot name."),
			"name": slotNameAttribute(),
		},
	}
}

// ImportIDAttributes: the import ID is its name (see alreadyExists).
func (r *physicalReplicationSlotResource) ImportIDAttributes() []string { return []string{"name"} }

// ImportByID takes the slot name.
func (r *physicalReplicationSlotResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByName(ctx, req, resp, "slot")
}

func (r *physicalReplicationSlotResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[physicalReplicationSlotModel]) {
	p.Plan.ID = p.Plan.Name
}

func (r *physicalReplicationSlotResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *physicalReplicationSlotModel) {
	warnActiveSlot(ctx, r.client, state.Name, resp)
}

func (r *physicalReplicationSlotResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradePhysicalReplicationSlotV0),
	}
}

func (r *physicalReplicationSlotResource) Describe(m *physicalReplicationSlotModel) string {
	return fmt.Sprintf("physical replication slot %q", m.Name.ValueString())
}

func (r *physicalReplicationSlotResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *physicalReplicationSlotModel) diag.Diagnostics {
	return tfkit.Failed("Could not create physical replication slot", r.client.CreatePhysicalReplicationSlot(ctx, plan.Name.ValueString()))
}

func (r *physicalReplicationSlotResource) DropObject(ctx context.Context, _ *tfkit.Call, state *physicalReplicationSlotModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop physical replication slot", r.client.DropReplicationSlot(ctx, state.Name.ValueString()))
}

func (r *physicalReplicationSlotResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *physicalReplicationSlotModel) (bool, diag.Diagnostics) {
	s, err := readSlot(ctx, r.client, m.Name.ValueString(), "physical")
	if err != nil || s == nil {
		return notFound("Could not read physical replication slot", err)
	}
	m.Name = types.StringValue(s.Name)
	m.ID = m.Name
	return true, nil
}

type physicalReplicationSlotModel struct {
	ID   types.String `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
}
