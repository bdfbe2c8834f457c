package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                            = (*replicationSlotResource)(nil)
	_ tfkit.ChangePlanner[replicationSlotModel]  = (*replicationSlotResource)(nil)
	_ tfkit.DestroyPlanner[replicationSlotModel] = (*replicationSlotResource)(nil)
	_ tfkit.IDImporter                           = (*replicationSlotResource)(nil)
	_ tfkit.ImportIDAttributes                   = (*replicationSlotResource)(nil)
)

// NewReplicationSlotResource is the constructor of postgresql_replication_slot.
func NewReplicationSlotResource() resource.Resource {
	r := &replicationSlotResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[replicationSlotModel](r, "replication_slot", replicationSlotSchemaV1, "database", "name")
	return r
}

type replicationSlotResource struct {
	tfkit.Lifecycle[replicationSlotModel]
	withClient
	replaceOnly[replicationSlotModel] // every attribute replaces the slot
}

func replicationSlotSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A logical replication slot (`pg_create_logical_replication_slot`). A slot keeps the WAL its consumer has not yet received, " +
			"so an unused slot makes WAL pile up on the server. Slots cannot be altered: any change replaces the slot, and its position is lost. " +
			"Creating a slot needs superuser or the `REPLICATION` attribute; an active slot (a consumer is connected) cannot be dropped.",
		Attributes: map[string]schema.Attribute{
			"id":   tfkit.IDAttr("`<database>.<name>`."),
			"name": slotNameAttribute(),
			"plugin": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The output plugin that decodes the WAL for the consumer, e.g. `pgoutput` (logical replication) or `test_decoding`. Changing it replaces the slot.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"database": optionalDatabaseAttribute("The database whose changes the slot decodes; the provider's `database` when not set. Changing it replaces the slot."),
		},
	}
}

// replicationSlotImport is the import ID of a logical slot (see internal/tfkit/import_id.go).
var replicationSlotImport = tfkit.ImportForm{What: "replication slot", Names: []string{"slot"}, Database: true}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *replicationSlotResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *replicationSlotResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(replicationSlotImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		s, err := readSlot(ctx, r.client, names[0], "logical")
		if err != nil || s == nil || s.Database != db {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", s.Name)...)
		return true, nil
	})...)
}

func (r *replicationSlotResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[replicationSlotModel]) {
	stateDB := types.StringNull()
	if !p.Creating() {
		stateDB = p.State.Database
	}
	p.Plan.Database = defaultedDatabase(p.Config.Database, stateDB, r.client)
	p.Plan.ID = joinedID(p.Plan.Database, p.Plan.Name)
}

func (r *replicationSlotResource) PlanDestroy(ctx context.Context, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *replicationSlotModel) {
	warnActiveSlot(ctx, r.client, state.Name, resp)
}

// warnActiveSlot warns on a destroy plan when a consumer is connected to the
// slot called name: PostgreSQL refuses to drop an active slot.
func warnActiveSlot(ctx context.Context, client *pg.Client, name types.String, resp *resource.ModifyPlanResponse) {
	if client == nil || client.Ready() != nil || !isKnown(name) {
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
		0: tfkit.UpgradeFromV0(upgradeReplicationSlotV0),
	}
}

func (r *replicationSlotResource) Describe(m *replicationSlotModel) string {
	return fmt.Sprintf("replication slot %q in database %q", m.Name.ValueString(), m.Database.ValueString())
}

// namesUsed: the database (awaitNames).
func (r *replicationSlotResource) namesUsed(m *replicationSlotModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	return n
}

func (r *replicationSlotResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *replicationSlotModel) diag.Diagnostics {
	return tfkit.Failed("Could not create replication slot",
		r.client.CreateLogicalReplicationSlot(ctx, databaseOf(r.client, plan.Database), plan.Name.ValueString(), plan.Plugin.ValueString()))
}

func (r *replicationSlotResource) DropObject(ctx context.Context, _ *tfkit.Call, state *replicationSlotModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop replication slot", r.client.DropReplicationSlot(ctx, state.Name.ValueString()))
}

func (r *replicationSlotResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *replicationSlotModel) (bool, diag.Diagnostics) {
	s, err := readSlot(ctx, r.client, m.Name.ValueString(), "logical")
	if err != nil || s == nil {
		return notFound("Could not read replication slot", err)
	}
	m.Name = types.StringValue(s.Name)
	m.Plugin = types.StringValue(s.Plugin)
	m.Database = types.StringValue(s.Database)
	m.ID = types.StringValue(s.Database + "." + s.Name)
	return true, nil
}

// slotNameAttribute is the name of a replication slot, logical or physical.
func slotNameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "The slot name, unique in the cluster. PostgreSQL allows only lower-case letters, digits and underscores. Changing it replaces the slot.",
		Validators:          []validator.String{validators.Name(), slotNameValidator()},
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
}

// replaceOnly is the update of an object whose every attribute replaces it:
// Terraform never calls it.
type replaceOnly[M any] struct{}

func (replaceOnly[M]) UpdateObject(context.Context, *tfkit.Call, *M, *M) diag.Diagnostics { return nil }

// readSlot reads the replication slot called name when it is of kind typ
// ("logical" or "physical"); nil when there is none of that kind.
func readSlot(ctx context.Context, c *pg.Client, name, typ string) (*pg.ReplicationSlot, error) {
	s, err := c.ReadReplicationSlot(ctx, name)
	if err != nil || s == nil || s.Type != typ {
		return nil, err
	}
	return s, nil
}

type replicationSlotModel struct {
	ID       types.String `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	Plugin   types.String `tfsdk:"plugin"`
	Database types.String `tfsdk:"database"`
}
