package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                        = (*eventTriggerResource)(nil)
	_ tfkit.ChangePlanner[eventTriggerModel] = (*eventTriggerResource)(nil)
	_ tfkit.IDImporter                       = (*eventTriggerResource)(nil)
	_ tfkit.ImportIDAttributes               = (*eventTriggerResource)(nil)
)

// NewEventTriggerResource is the constructor of postgresql_event_trigger.
func NewEventTriggerResource() resource.Resource {
	r := &eventTriggerResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[eventTriggerModel](r, "event_trigger", eventTriggerSchemaV1, "database", "name")
	return r
}

type eventTriggerResource struct {
	tfkit.Lifecycle[eventTriggerModel]
	withClient
	tfkit.NoPriorLayout // cyrilgdn/postgresql has no postgresql_event_trigger
}

func eventTriggerSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "An event trigger (`CREATE EVENT TRIGGER`): a function run on DDL events of one database. " +
			"PostgreSQL allows only superusers to create event triggers, and their owner must be a superuser. " +
			"Renaming, firing mode and owner change in place; event, tags and function replace the trigger.",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<name>`."),
			"oid":      tfkit.OIDAttr("The event trigger's OID; it never changes for the life of the trigger, renames included."),
			"name":     nameAttribute("The event trigger name, unique in its database. Changing it renames the trigger in place."),
			"database": databaseAttribute("event trigger"),
			"event": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The event that fires the trigger: `ddl_command_start`, `ddl_command_end`, `table_rewrite`, `sql_drop` " +
					"(or `login` on PostgreSQL 17 and later). Changing it replaces the trigger.",
				Validators:    []validator.String{stringvalidator.OneOf("ddl_command_start", "ddl_command_end", "table_rewrite", "sql_drop", "login")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"tags": schema.SetAttribute{
				ElementType: commandTagType{},
				Optional:    true,
				MarkdownDescription: "Command tags that fire the trigger (`WHEN TAG IN (...)`), e.g. `CREATE TABLE`; unset means every command. " +
					"PostgreSQL stores them in upper case and reads them in any letter case: the configured or imported letter case is kept, and a change of letter case alone plans nothing. Changing them replaces the trigger.",
				Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
				// the state's spelling first (after an import, the state has
				// PostgreSQL's upper case), so that a difference of letter case
				// (or spacing) is no change, and no replacement
				PlanModifiers: []planmodifier.Set{tfkit.KeepSpelling(), setplanmodifier.RequiresReplace()},
			},
			"function":        nameAttribute("The function the trigger executes: it takes no arguments and returns `event_trigger`. Changing it replaces the trigger.", stringplanmodifier.RequiresReplace()),
			"function_schema": publicSchemaAttribute("The schema of `function` (default `public`). Changing it replaces the trigger.", stringplanmodifier.RequiresReplace()),
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

// eventTriggerImport is the import ID of an event trigger (see internal/tfkit/import_id.go).
var eventTriggerImport = tfkit.ImportForm{What: "event trigger", Names: []string{"name"}}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *eventTriggerResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *eventTriggerResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(eventTriggerImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		e, err := r.client.ReadEventTrigger(ctx, db, 0, names[0])
		if err != nil || e == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", e.Name, "oid", int64(e.OID))...)
		return true, nil
	})...)
}

// PlanChange keeps the state's owner when the configuration sets none (not
// managed: ownership does not change).
func (r *eventTriggerResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[eventTriggerModel]) {
	keepUnset(p, func(m *eventTriggerModel) *types.String { return &m.Owner })
	planDatabase(p, r.client, func(m *eventTriggerModel) *types.String { return &m.Database })
	p.Plan.ID = joinedID(p.Plan.Database, p.Plan.Name)
}

func (r *eventTriggerResource) Describe(m *eventTriggerModel) string {
	return fmt.Sprintf("event trigger %q in database %q", m.Name.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database, the function's schema and the owner (awaitNames).
func (r *eventTriggerResource) namesUsed(m *eventTriggerModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	n.schema(r.client, "function_schema", m.Database, m.FunctionSchema)
	n.role("owner", m.Owner)
	return n
}

func (r *eventTriggerResource) CreateObject(ctx context.Context, _ *tfkit.Call, plan *eventTriggerModel) diag.Diagnostics {
	return tfkit.CreateFromSpec(ctx, databaseOf(r.client, plan.Database), plan.spec, r.client.CreateEventTrigger, "event trigger")
}

func (r *eventTriggerResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *eventTriggerModel) diag.Diagnostics {
	oid, diags := tfkit.OIDOrRead(ctx, r, c, *state, func(m *eventTriggerModel) types.Int64 { return m.OID })
	if diags.HasError() {
		return diags
	}
	return tfkit.UpdateFromSpec(ctx, databaseOf(r.client, plan.Database), oid, plan.spec, r.client.UpdateEventTrigger, "event trigger")
}

func (r *eventTriggerResource) DropObject(ctx context.Context, _ *tfkit.Call, state *eventTriggerModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop event trigger",
		r.client.DropEventTrigger(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), state.Name.ValueString()))
}

// ReadObject refreshes m from the server (by OID, else by name).
func (r *eventTriggerResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *eventTriggerModel) (bool, diag.Diagnostics) {
	db := databaseOf(r.client, m.Database)
	e, err := r.client.ReadEventTrigger(ctx, db, uint32(m.OID.ValueInt64()), m.Name.ValueString())
	if err != nil || e == nil {
		return notFound("Could not read event trigger", err)
	}
	var diags diag.Diagnostics
	m.fill(ctx, db, e, &diags)
	return true, diags
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

// fill copies the server's trigger into m. The tags are the server's: the
// framework keeps m's spelling of those that mean the same (see spellings.go).
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
		m.Tags = types.SetNull(commandTagType{})
		return
	}
	s, d := types.SetValueFrom(ctx, commandTagType{}, e.Tags)
	diags.Append(d...)
	m.Tags = s
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
