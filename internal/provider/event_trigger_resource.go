package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ resource.Resource                 = (*eventTriggerResource)(nil)
	_ resource.ResourceWithConfigure    = (*eventTriggerResource)(nil)
	_ resource.ResourceWithImportState  = (*eventTriggerResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*eventTriggerResource)(nil)
	_ resource.ResourceWithUpgradeState = (*eventTriggerResource)(nil)
)

// NewEventTriggerResource is the constructor of postgresql_event_trigger.
func NewEventTriggerResource() resource.Resource { return &eventTriggerResource{} }

type eventTriggerResource struct {
	client *pg.Client
}

func (r *eventTriggerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_event_trigger"
}

func (r *eventTriggerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = eventTriggerSchemaV1()
}

func eventTriggerSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "An event trigger (`CREATE EVENT TRIGGER`): a function run on DDL events of one database. " +
			"PostgreSQL allows only superusers to create event triggers, and their owner must be a superuser. " +
			"Renaming, firing mode and owner change in place; event, tags and function replace the trigger.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<database>.<name>`.",
			},
			"oid": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The event trigger's OID; it never changes for the life of the trigger, renames included.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The event trigger name, unique in its database. Changing it renames the trigger in place.",
				Validators:          []validator.String{validators.Name()},
			},
			"database": databaseAttribute("event trigger"),
			"event": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The event that fires the trigger: `ddl_command_start`, `ddl_command_end`, `table_rewrite`, `sql_drop` " +
					"(or `login` on PostgreSQL 17 and later). Changing it replaces the trigger.",
				Validators:    []validator.String{stringvalidator.OneOf("ddl_command_start", "ddl_command_end", "table_rewrite", "sql_drop", "login")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"tags": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Command tags that fire the trigger (`WHEN TAG IN (...)`), e.g. `CREATE TABLE`; unset means every command. " +
					"PostgreSQL stores them in upper case and reads them in any letter case: the configured or imported letter case is kept, and a change of letter case alone plans nothing. Changing them replaces the trigger.",
				Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
				// the state's spelling first, so that a difference of letter case is no change
				PlanModifiers: []planmodifier.Set{tagsKeepStateSpelling{}, setplanmodifier.RequiresReplace()},
			},
			"function": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The function the trigger executes: it takes no arguments and returns `event_trigger`. Changing it replaces the trigger.",
				Validators:          []validator.String{validators.Name()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"function_schema": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("public"),
				MarkdownDescription: "The schema of `function` (default `public`). Changing it replaces the trigger.",
				Validators:          []validator.String{validators.Name()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"enabled": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("ORIGIN"),
				MarkdownDescription: "When the trigger fires, depending on `session_replication_role`: `ORIGIN` (the default; in origin and local sessions), " +
					"`REPLICA` (only in replica sessions), `ALWAYS`, or `DISABLED`. Changes in place (`ALTER EVENT TRIGGER ... ENABLE|DISABLE`).",
				Validators: []validator.String{stringvalidator.OneOf("ORIGIN", "REPLICA", "ALWAYS", "DISABLED")},
			},
			"owner": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The owner, which must be a superuser. Defaults to the provider's role. Changes in place.",
				Validators:          []validator.String{validators.Name()},
			},
		},
	}
}

func (r *eventTriggerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *eventTriggerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan eventTriggerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	spec := plan.spec(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	db := databaseOf(r.client, plan.Database)
	e, err := r.client.CreateEventTrigger(ctx, db, spec)
	if err != nil {
		resp.Diagnostics.AddError("Could not create event trigger", err.Error())
		return
	}
	plan.fill(ctx, db, e, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *eventTriggerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state eventTriggerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	db := databaseOf(r.client, state.Database)
	e, err := r.client.ReadEventTrigger(ctx, db, uint32(state.OID.ValueInt64()), state.Name.ValueString())
	if err != nil {
		if pg.SQLState(err) == pg.CodeInvalidCatalogName {
			resp.State.RemoveResource(ctx)
			return
		}
		resp.Diagnostics.AddError("Could not read event trigger", err.Error())
		return
	}
	if e == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	state.fill(ctx, db, e, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *eventTriggerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state eventTriggerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	spec := plan.spec(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	db := databaseOf(r.client, plan.Database)
	oid := uint32(state.OID.ValueInt64())
	if oid == 0 {
		cur, err := r.client.ReadEventTrigger(ctx, db, 0, state.Name.ValueString())
		if err != nil || cur == nil {
			resp.Diagnostics.AddError("Could not update event trigger", fmt.Sprintf("event trigger %q not found: %v", state.Name.ValueString(), err))
			return
		}
		oid = cur.OID
	}
	e, err := r.client.UpdateEventTrigger(ctx, db, oid, spec)
	if err != nil {
		resp.Diagnostics.AddError("Could not update event trigger", err.Error())
		return
	}
	plan.fill(ctx, db, e, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *eventTriggerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state eventTriggerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.client.DropEventTrigger(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), state.Name.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not drop event trigger", err.Error())
	}
}

// ImportState takes `<name>` (in the provider's database) or `<database>.<name>`.
func (r *eventTriggerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.client == nil {
		resp.Diagnostics.AddError("Provider not configured", "the provider must be configured to import")
		return
	}
	found := resolveImport(ctx, r.client, req.ID, 1, func(db string, names []string) bool {
		e, err := r.client.ReadEventTrigger(ctx, db, 0, names[0])
		if err != nil || e == nil {
			return false
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("database"), db)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), e.Name)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("oid"), int64(e.OID))...)
		return true
	})
	if found {
		return
	}
	resp.Diagnostics.AddError("Event trigger not found",
		fmt.Sprintf("No event trigger matches the import ID %q. Use `<name>` for a trigger in the provider's database %q, or `<database>.<name>`.",
			req.ID, r.client.DefaultDatabase()))
}

func (r *eventTriggerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, config eventTriggerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	state := eventTriggerModel{Database: types.StringNull()}
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if config.Owner.IsNull() {
			plan.Owner = state.Owner // not managed: ownership does not change
		}
	}
	plan.Database = defaultedDatabase(config.Database, state.Database, r.client)
	plan.ID = joinedID(plan.Database, plan.Name)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// UpgradeState: postgresql_event_trigger is new (cyrilgdn/postgresql has no
// such type), so there is no prior layout to upgrade from.
func (r *eventTriggerResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

func (m *eventTriggerModel) spec(ctx context.Context, diags *diag.Diagnostics) pg.EventTriggerSpec {
	s := pg.EventTriggerSpec{
		Name: m.Name.ValueString(), Event: m.Event.ValueString(), Function: m.Function.ValueString(),
		FunctionSchema: m.FunctionSchema.ValueString(), Enabled: m.Enabled.ValueString(),
	}
	if !m.Owner.IsUnknown() {
		s.Owner = m.Owner.ValueString()
	}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &s.Tags, false)...)
	}
	return s
}

// fill copies the server's trigger into m, keeping m's letter case of the tags.
func (m *eventTriggerModel) fill(ctx context.Context, db string, e *pg.EventTrigger, diags *diag.Diagnostics) {
	m.Database = types.StringValue(db)
	m.OID = types.Int64Value(int64(e.OID))
	m.Name = types.StringValue(e.Name)
	m.ID = types.StringValue(db + "." + e.Name)
	m.Event = types.StringValue(e.Event)
	m.Function = types.StringValue(e.Function)
	m.FunctionSchema = types.StringValue(e.FunctionSchema)
	m.Enabled = types.StringValue(e.Enabled)
	m.Owner = types.StringValue(e.Owner)
	if len(e.Tags) == 0 {
		m.Tags = types.SetNull(types.StringType)
		return
	}
	var prior []string
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &prior, false)...)
	}
	tags := make([]string, len(e.Tags))
	for i, t := range e.Tags {
		tags[i] = t
		for _, p := range prior {
			if sameTag(p, t) {
				tags[i] = p
			}
		}
	}
	s, d := types.SetValueFrom(ctx, types.StringType, tags)
	diags.Append(d...)
	m.Tags = s
}

// sameTag reports whether two command tags are the same: PostgreSQL reads
// them case-insensitively (and stores them in upper case).
func sameTag(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// sameTags reports whether two sets of command tags name the same commands.
func sameTags(ctx context.Context, a, b types.Set) bool {
	if a.IsNull() || a.IsUnknown() || b.IsNull() || b.IsUnknown() {
		return false
	}
	var as, bs []string
	if a.ElementsAs(ctx, &as, false).HasError() || b.ElementsAs(ctx, &bs, false).HasError() {
		return false
	}
	norm := func(tags []string) []string {
		out := make([]string, 0, len(tags))
		for _, t := range tags {
			n := strings.ToUpper(strings.Join(strings.Fields(t), " "))
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(norm(as), norm(bs))
}

// tagsKeepStateSpelling plans the state's tags when the configuration names
// the same commands in another letter case (after an import, the state has
// PostgreSQL's upper case): no update, and no replacement, for a spelling.
// Terraform accepts the prior value as the plan of a non-computed attribute
// when both it and the configuration are non-null.
type tagsKeepStateSpelling struct{}

func (tagsKeepStateSpelling) Description(context.Context) string {
	return "Tags that differ from the state's only in letter case (or spacing) are no change: the state's spelling is kept."
}

func (m tagsKeepStateSpelling) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (tagsKeepStateSpelling) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if !req.StateValue.Equal(req.ConfigValue) && sameTags(ctx, req.ConfigValue, req.StateValue) {
		resp.PlanValue = req.StateValue
	}
}

type eventTriggerModel struct {
	ID             types.String `tfsdk:"id"`
	OID            types.Int64  `tfsdk:"oid"`
	Name           types.String `tfsdk:"name"`
	Database       types.String `tfsdk:"database"`
	Event          types.String `tfsdk:"event"`
	Tags           types.Set    `tfsdk:"tags"`
	Function       types.String `tfsdk:"function"`
	FunctionSchema types.String `tfsdk:"function_schema"`
	Enabled        types.String `tfsdk:"enabled"`
	Owner          types.String `tfsdk:"owner"`
}
