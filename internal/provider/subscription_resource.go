package provider

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

var (
	_ managedResource                        = (*subscriptionResource)(nil)
	_ tfkit.ChangePlanner[subscriptionModel] = (*subscriptionResource)(nil)
	_ tfkit.IDImporter                       = (*subscriptionResource)(nil)
	_ tfkit.ImportIDAttributes               = (*subscriptionResource)(nil)
)

// NewSubscriptionResource is the constructor of postgresql_subscription.
func NewSubscriptionResource() resource.Resource {
	r := &subscriptionResource{}
	// The object's identity (Terraform 1.12+) is `database`, `name`.
	r.Lifecycle = newLifecycle[subscriptionModel](r, "subscription", subscriptionSchemaV1, "database", "name")
	return r
}

type subscriptionResource struct {
	tfkit.Lifecycle[subscriptionModel]
	withClient
}

func subscriptionSchemaV1() schema.Schema {
	return schema.Schema{
		Version: 1,
		MarkdownDescription: "A logical replication subscription (`CREATE SUBSCRIPTION`) in a database of the subscriber, receiving the changes of " +
			"publications on a publisher. Name, connection, publications, slot name and `enabled` change in place (`ALTER SUBSCRIPTION`), in one " +
			"transaction so that a failure changes nothing; only a publication change of an enabled subscription, which also fetches the new table " +
			"list and which PostgreSQL refuses in a transaction block, runs on its own afterwards. Creating a subscription needs superuser " +
			"before PostgreSQL 16, and from 16 membership in `pg_create_subscription` and `CREATE` on the database. Destroying it also drops its replication slot on the publisher. A subscription to a publication of the same cluster " +
			"must use `create_slot = false` with a slot created beforehand (PostgreSQL would otherwise wait forever).",
		Attributes: map[string]schema.Attribute{
			"id":       tfkit.IDAttr("`<database>.<name>`."),
			"oid":      tfkit.OIDAttr("The subscription's OID; it survives in-place changes."),
			"name":     nameAttribute("The subscription name (unique in the cluster). Changing it renames the subscription in place."),
			"database": optionalDatabaseAttribute("The database the changes are applied to; the provider's `database` when not set. Changing it replaces the subscription."),
			"conninfo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "The libpq connection string to the publisher (keyword/value form, e.g. `host=... dbname=... user=... password=...`). " +
					"Changed in place (`ALTER SUBSCRIPTION ... CONNECTION`). Stored in the state (sensitive) and readable in `pg_subscription` by superusers only, " +
					"so out-of-band changes are detected only when the provider runs as superuser, and after an import by a non-superuser the first apply " +
					"sets it again, in place. Masked in the provider's logs and errors, and kept out of the " +
					"server's statement log when the provider's role may set `log_statement` (superuser, or on PostgreSQL 15+ `GRANT SET ON PARAMETER`). " +
					"Exactly one of `conninfo` and `conninfo_wo` is required; a connection string with a password is better in `conninfo_wo`.",
				Validators: []validator.String{stringvalidator.ExactlyOneOf(path.MatchRoot("conninfo"), path.MatchRoot("conninfo_wo"))},
			},
			"conninfo_wo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				MarkdownDescription: "The connection string to the publisher, write-only: never stored in the plan or the state (Terraform 1.11 or later). " +
					"It is set when the subscription is created and whenever `conninfo_wo_version` changes; changes made to it outside Terraform are not detected. " +
					"Masked in logs and kept out of the server's statement log as `conninfo` is. Needs `conninfo_wo_version`.",
				Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("conninfo_wo_version"))},
			},
			"conninfo_wo_version": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Any value; change it to make the provider set `conninfo_wo` again. Required with `conninfo_wo`: the state records it, " +
					"which tells a refresh that the connection string is write-only (so it stays out of the state).",
				Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("conninfo_wo"))},
			},
			"publications": schema.SetAttribute{
				ElementType: types.StringType,
				Required:    true,
				MarkdownDescription: "The publications on the publisher to subscribe to. Changed in place (`ALTER SUBSCRIPTION ... SET PUBLICATION`), " +
					"which also fetches the new table list when the subscription is enabled.",
				Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validators.Name())},
			},
			"create_slot": tfkit.DefaultedBoolAttr(true, "Whether `CREATE SUBSCRIPTION` creates the replication slot on the publisher (`create_slot`); `true` by default. "+
				"Only used when the subscription is created: changing it later changes nothing on the server and never replaces the subscription."),
			"slot_name": unsetIfEmpty(schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The replication slot on the publisher; PostgreSQL uses the subscription name when not set. Changed in place " +
					"(the subscription is disabled, `SET (slot_name = ...)`, enabled again, all in one transaction: a failure leaves it as it was).",
				Validators: []validator.String{validators.Name(), slotNameValidator()},
			}),
			"enabled": tfkit.DefaultedBoolAttr(true, "Whether the subscription is enabled (replicating); `true` by default. Changed in place "+
				"(`ALTER SUBSCRIPTION ... ENABLE` / `DISABLE`); a subscription disabled outside Terraform is enabled again on the next apply. "+
				"Publications changed while it is disabled are set without fetching their table list (`refresh = false`)."),
		},
	}
}

// subscriptionImport is the import ID of a subscription (see internal/tfkit/import_id.go).
var subscriptionImport = tfkit.ImportForm{What: "subscription", Names: []string{"name"}, Database: true}

// ImportIDAttributes: the import ID is made of `database` and `name` (see alreadyExists).
func (r *subscriptionResource) ImportIDAttributes() []string { return []string{"database", "name"} }

func (r *subscriptionResource) ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(subscriptionImport.Resolve(ctx, importServer(r.client), req.ID, func(db string, names []string) (bool, error) {
		s, err := r.client.ReadSubscription(ctx, db, 0, names[0])
		if err != nil || s == nil {
			return false, err
		}
		resp.Diagnostics.Append(tfkit.SetAttributes(ctx, &resp.State, "database", db, "name", s.Name, "id", db+"."+s.Name)...)
		return true, nil
	})...)
}

// PlanChange keeps the state's slot_name when the configuration leaves it
// unset and the database is not changed.
func (r *subscriptionResource) PlanChange(_ context.Context, _ resource.ModifyPlanRequest, _ *resource.ModifyPlanResponse, p *tfkit.Planned[subscriptionModel]) {
	plan, config, state := &p.Plan, &p.Config, p.State
	// plan.Database is still the framework's here: the configured value, or unknown.
	if !p.Creating() && config.SlotName.IsNull() && sameDatabase(r.client, plan.Database, state.Database) {
		plan.SlotName = state.SlotName
	}
	planDatabase(p, r.client, func(m *subscriptionModel) *types.String { return &m.Database })
	plan.ID = joinedID(plan.Database, plan.Name)
}

func (r *subscriptionResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: tfkit.UpgradeFromV0(upgradeSubscriptionV0, "oid", "enabled", "conninfo_wo", "conninfo_wo_version"),
	}
}

func (r *subscriptionResource) Describe(m *subscriptionModel) string {
	return fmt.Sprintf("subscription %q in database %q", m.Name.ValueString(), databaseOf(r.client, m.Database))
}

// namesUsed: the database (awaitNames).
func (r *subscriptionResource) namesUsed(m *subscriptionModel) []pg.Ref {
	var n refs
	n.database("database", m.Database)
	return n
}

func (r *subscriptionResource) CreateObject(ctx context.Context, c *tfkit.Call, plan *subscriptionModel) diag.Diagnostics {
	spec, diags := plan.spec(ctx)
	wo, d := configConninfoWO(ctx, c)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	if wo != nil {
		spec.Conninfo = *wo
	}
	plan.OID = types.Int64Null()
	return tfkit.Failed("Could not create subscription", r.client.CreateSubscription(ctx, databaseOf(r.client, plan.Database), spec))
}

// UpdateObject changes the subscription in place. conninfo_wo is set again when
// conninfo_wo_version changes, or when it replaces conninfo; otherwise the
// connection string is left as it is.
func (r *subscriptionResource) UpdateObject(ctx context.Context, c *tfkit.Call, plan, state *subscriptionModel) diag.Diagnostics {
	spec, diags := plan.spec(ctx)
	wo, d := configConninfoWO(ctx, c)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	if wo != nil {
		spec.Conninfo = "" // left as it is
		if !plan.ConninfoWOVersion.Equal(state.ConninfoWOVersion) || !state.Conninfo.IsNull() {
			spec.Conninfo = *wo
		}
	}
	return tfkit.Failed("Could not update subscription", r.client.UpdateSubscription(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), spec))
}

func (r *subscriptionResource) DropObject(ctx context.Context, _ *tfkit.Call, state *subscriptionModel) diag.Diagnostics {
	return tfkit.Failed("Could not drop subscription", r.client.DropSubscription(ctx, databaseOf(r.client, state.Database), uint32(state.OID.ValueInt64()), state.Name.ValueString()))
}

// configConninfoWO reads the configuration's conninfo_wo (nil when unset).
func configConninfoWO(ctx context.Context, c *tfkit.Call) (*string, diag.Diagnostics) {
	var v types.String
	diags := c.Config.GetAttribute(ctx, path.Root("conninfo_wo"), &v)
	if diags.HasError() || v.IsNull() || v.IsUnknown() {
		return nil, diags
	}
	s := v.ValueString()
	return &s, diags
}

// ReadObject refreshes m from the server.
func (r *subscriptionResource) ReadObject(ctx context.Context, _ *tfkit.Call, m *subscriptionModel) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	db := databaseOf(r.client, m.Database)
	m.Database = types.StringValue(db) // "" is unset: the provider's database
	s, err := tfkit.ReadByOIDOrName(m.OID, m.Name.ValueString(), func(oid uint32, name string) (*pg.Subscription, error) {
		return r.client.ReadSubscription(ctx, db, oid, name)
	})
	if err != nil || s == nil {
		return notFound("Could not read subscription", err)
	}
	m.OID = types.Int64Value(int64(s.OID))
	m.Name = types.StringValue(s.Name)
	m.ConninfoWO = types.StringNull()
	switch {
	case !m.ConninfoWOVersion.IsNull():
		m.Conninfo = types.StringNull() // conninfo_wo's (which needs a version): never in the state
	case s.Conninfo != "" || !isKnown(m.Conninfo):
		m.Conninfo = types.StringValue(s.Conninfo) // "" only when not superuser: keep the state's value
	}
	pubs, d := types.SetValueFrom(ctx, types.StringType, s.Publications)
	diags.Append(d...)
	m.Publications = pubs
	if s.SlotName == "" {
		m.SlotName = types.StringNull()
	} else {
		m.SlotName = types.StringValue(s.SlotName)
	}
	m.Enabled = types.BoolValue(s.Enabled)
	if m.CreateSlot.IsNull() || m.CreateSlot.IsUnknown() {
		// Not stored by PostgreSQL. After an import the slot exists already;
		// the value only matters at creation, so it never forces a replacement.
		m.CreateSlot = types.BoolValue(false)
	}
	m.ID = types.StringValue(m.Database.ValueString() + "." + s.Name)
	return true, diags
}

func (m *subscriptionModel) spec(ctx context.Context) (pg.SubscriptionSpec, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := pg.SubscriptionSpec{
		Name:       m.Name.ValueString(),
		Conninfo:   m.Conninfo.ValueString(),
		CreateSlot: m.CreateSlot.ValueBool(),
		Enabled:    m.Enabled.IsNull() || m.Enabled.IsUnknown() || m.Enabled.ValueBool(),
	}
	if isKnown(m.SlotName) {
		s.SlotName = m.SlotName.ValueString()
	}
	diags.Append(m.Publications.ElementsAs(ctx, &s.Publications, false)...)
	sort.Strings(s.Publications)
	return s, diags
}

type subscriptionModel struct {
	ID                types.String `tfsdk:"id"`
	OID               types.Int64  `tfsdk:"oid"`
	Name              types.String `tfsdk:"name"`
	Database          types.String `tfsdk:"database"`
	Conninfo          types.String `tfsdk:"conninfo"`
	ConninfoWO        types.String `tfsdk:"conninfo_wo"`
	ConninfoWOVersion types.String `tfsdk:"conninfo_wo_version"`
	Publications      types.Set    `tfsdk:"publications"`
	CreateSlot        types.Bool   `tfsdk:"create_slot"`
	SlotName          types.String `tfsdk:"slot_name"`
	Enabled           types.Bool   `tfsdk:"enabled"`
}
