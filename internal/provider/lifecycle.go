package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// The resource skeleton. Every resource embeds lifecycle[M] for its model type
// M and implements object[M]; lifecycle turns the object's typed functions
// into the framework's Create, Read, Update and Delete:
//
//   - Read gets the state, calls read, removes the resource when read reports
//     the object gone (dropped out of band: Terraform plans to create it again),
//     and saves what read found.
//   - Create gets the plan, calls create, records the planned object in the
//     state before reading it back (tfkit.FinishCreate), so that a failed read-back
//     leaves it tainted in the state instead of orphaned, and saves the
//     read-back.
//   - Update gets plan and state, calls update, reads back into the plan and
//     saves it; an object gone by then is an error.
//   - Delete gets the state and calls drop.
//
// A resource file then holds its schema, the translation between its model
// and the pg package's types, and what is truly its own (plan modification,
// import, upgraders).

// managedResource is what every resource implements: lifecycle gives Create,
// Read, Update, Delete, ModifyPlan, ImportState and IdentitySchema (see
// internal/tfkit/identity.go); withClient gives Configure; the resource adds Metadata
// (tfkit.SetMetadata), Schema, importState, IdentityAttributes and UpgradeState.
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
	resource.ResourceWithModifyPlan
	resource.ResourceWithUpgradeState
	tfkit.Identified
	idImporter
}

// idImporter imports by ID (`terraform import`, an `import` block with `id`):
// it sets what read needs in the state.
type idImporter interface {
	importState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse)
}

// validatedResource is a managedResource that also validates its
// configuration as a whole.
type validatedResource interface {
	managedResource
	resource.ResourceWithValidateConfig
}

// object is what a resource knows of its PostgreSQL object, with its model
// type M.
type object[M any] interface {
	// describe names the object in messages, e.g. `schema "app" in database "main"`.
	describe(m *M) string
	// read refreshes m from the server and reports whether the object exists.
	// A missing database means a missing object (see notFound).
	read(ctx context.Context, c *call, m *M) (bool, diag.Diagnostics)
	// create creates the object planned in m; it may set in m what is known
	// only once the object exists (an OID).
	create(ctx context.Context, c *call, plan *M) diag.Diagnostics
	// update changes the object from state to plan in place.
	update(ctx context.Context, c *call, plan, state *M) diag.Diagnostics
	// drop drops the object; an object already gone is no error.
	drop(ctx context.Context, c *call, state *M) diag.Diagnostics
}

// lifecycle implements resource.Resource's Create, Read, Update and Delete
// for an object (see object). Embed it and set obj in the constructor.
type lifecycle[M any] struct {
	obj      object[M]
	kind     string               // the type name after "postgresql_"
	schema   func() schema.Schema // the current schema
	identity []string             // the attributes naming the object (tfkit.Identified)
}

// newLifecycle is the skeleton of resource obj: its type name
// postgresql_<kind>, its schema, and the state attributes that name it (its
// identity, in the order the documentation lists them).
func newLifecycle[M any](obj object[M], kind string, schema func() schema.Schema, identity ...string) lifecycle[M] {
	return lifecycle[M]{obj: obj, kind: kind, schema: schema, identity: identity}
}

func (l lifecycle[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	tfkit.SetMetadata(req, resp, l.kind)
}

func (l lifecycle[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = l.schema()
}

func (l lifecycle[M]) IdentityAttributes() []string { return l.identity }

// IdentitySchema derives the identity schema from the resource schema: a
// string, number or bool attribute of the same name, a list of strings for a
// set or list; required for import when the argument is required.
func (l lifecycle[M]) IdentitySchema(ctx context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema, resp.Diagnostics = tfkit.IdentitySchemaOf(ctx, l.obj)
}

// operation is the framework call an object function runs in.
type operation int

const (
	opRead operation = iota
	opCreate
	opUpdate
	opDelete
)

// call is what one operation hands the object functions beyond the model.
type call struct {
	op     operation
	config tfsdk.Config // the configuration: Create and Update only
	get    privateGetter
	set    privateSetter
}

// wrote tells a read that it reads back what this operation just wrote (so
// the model holds the configuration's spelling of what the server now has).
func (c *call) wrote() bool { return c.op == opCreate || c.op == opUpdate }

// privateKey returns the prior private state's value of key (nil in Create,
// or when unset).
func (c *call) privateKey(ctx context.Context, key string) []byte {
	if c.get == nil {
		return nil
	}
	b, d := c.get.GetKey(ctx, key)
	if d.HasError() {
		return nil
	}
	return b
}

// setPrivateKey sets key in the private state saved with the new state (no-op in Delete).
func (c *call) setPrivateKey(ctx context.Context, key string, value []byte) diag.Diagnostics {
	if c.set == nil {
		return nil
	}
	return c.set.SetKey(ctx, key, value)
}

// setPrivateJSON sets key to v encoded as JSON (what names v in an error).
func (c *call) setPrivateJSON(ctx context.Context, key string, v any, what string) diag.Diagnostics {
	b, err := json.Marshal(v)
	if err != nil {
		return diag.Diagnostics{diag.NewErrorDiagnostic("Could not record "+what, err.Error())}
	}
	return c.setPrivateKey(ctx, key, b)
}

// model is a new model of the resource (for tests of what works on any model).
func (lifecycle[M]) model() any { return new(M) }

func (l lifecycle[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &call{op: opRead, get: req.Private, set: resp.Private}
	found, d := l.obj.read(ctx, c, &state)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !found {
		// gone: Terraform plans to create it again. The framework (1.19) still
		// wants the identity of what was there.
		resp.Diagnostics.Append(tfkit.SetIdentity(ctx, l.obj, req.State, resp.Identity)...)
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(tfkit.SetFrom(ctx, resp.State.Schema.Type, &state, resp.State.Set)...)
	resp.Diagnostics.Append(tfkit.SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

// ImportState imports by identity (tfkit.ImportByIdentity) or by ID (the
// resource's importState). A resource identified by `id` alone takes its
// identity's id as an import ID.
func (l lifecycle[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id, ok := l.obj.(tfkit.Identified); ok && req.ID == "" && req.Identity != nil && slices.Equal(id.IdentityAttributes(), []string{"id"}) {
		var v types.String
		if resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &v)...); resp.Diagnostics.HasError() {
			return
		}
		req.ID = v.ValueString()
	}
	if tfkit.ImportByIdentity(ctx, l.obj, req, resp) {
		return
	}
	if imp, ok := l.obj.(idImporter); ok {
		imp.importState(ctx, req, resp)
	}
}

func (l lifecycle[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &call{op: opCreate, config: req.Config, set: resp.Private}
	ctx, outcome := pgconn.TrackOutcome(ctx)
	d := l.obj.create(ctx, c, &plan)
	adopted := false
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		// The connection broke after the create was sent: the catalog says
		// whether it happened. Found: adopt it (and bring it to the plan,
		// should the create have had several steps). Not found: create again.
		probe := plan
		found, rd := l.obj.read(ctx, c, &probe)
		switch {
		case rd.HasError():
			d.Append(rd...)
		case found:
			tflog.Info(ctx, "adopting an object whose create had an unknown outcome: it exists", map[string]any{"object": l.obj.describe(&plan)})
			adopted = true
			if d = l.obj.update(ctx, c, &plan, &probe); !d.HasError() {
				settled(l.obj, true)
			}
		default:
			settled(l.obj, false)
			tflog.Info(ctx, "creating again an object whose create had an unknown outcome: it does not exist", map[string]any{"object": l.obj.describe(&plan)})
			d = l.obj.create(ctx, c, &plan)
		}
	}
	if d.HasError() && adopted {
		// it exists: record it (tainted), lest it become an orphan
		resp.Diagnostics.Append(tfkit.RecordState(ctx, &resp.State, &plan)...)
		resp.Diagnostics.Append(tfkit.SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not completed", fmt.Sprintf("%s was created, but the connection was lost meanwhile and completing it failed (see the error above). It is recorded in the state as tainted; the next apply replaces it.", l.obj.describe(&plan)))
		return
	}
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(l.alreadyExists(ctx, req, resp, &plan, d)...)
		return
	}
	tfkit.FinishCreate(ctx, resp, &plan, l.obj.describe(&plan), seamsOf(l.obj).readBackFault, func() (bool, diag.Diagnostics) { return l.obj.read(ctx, c, &plan) })
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	// recorded, tainted or not: its identity with it
	resp.Diagnostics.Append(tfkit.SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

func (l lifecycle[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &call{op: opUpdate, config: req.Config, get: req.Private, set: resp.Private}
	ctx, outcome := pgconn.TrackOutcome(ctx)
	d := l.obj.update(ctx, c, &plan, &state)
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		// The connection broke after a change was sent: update once more
		// from what the catalog holds now (by the state's identity, or the
		// plan's when a rename went through).
		for _, from := range []M{state, plan} {
			probe := from
			found, rd := l.obj.read(ctx, c, &probe)
			if rd.HasError() {
				d.Append(rd...)
				break
			}
			if found {
				settled(l.obj, false)
				tflog.Info(ctx, "updating again an object whose update had an unknown outcome", map[string]any{"object": l.obj.describe(&plan)})
				d = l.obj.update(ctx, c, &plan, &probe)
				break
			}
		}
	}
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, d := l.obj.read(ctx, c, &plan)
	resp.Diagnostics.Append(d...)
	if !found && !resp.Diagnostics.HasError() {
		resp.Diagnostics.AddError("Updated object vanished",
			fmt.Sprintf("%s was updated but cannot be read back: it was dropped by someone else meanwhile.", l.obj.describe(&plan)))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfkit.SetFrom(ctx, resp.State.Schema.Type, &plan, resp.State.Set)...)
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	resp.Diagnostics.Append(tfkit.SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

func (l lifecycle[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &call{op: opDelete, get: req.Private}
	ctx, outcome := pgconn.TrackOutcome(ctx)
	d := l.obj.drop(ctx, c, &state)
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		// The connection broke after the drop was sent: gone is done,
		// otherwise drop once more.
		probe := state
		found, rd := l.obj.read(ctx, &call{op: opRead, get: req.Private}, &probe)
		switch {
		case rd.HasError():
			d.Append(rd...)
		case !found:
			tflog.Info(ctx, "the drop with an unknown outcome happened", map[string]any{"object": l.obj.describe(&state)})
			settled(l.obj, true)
			d = nil
		default:
			settled(l.obj, false)
			tflog.Info(ctx, "dropping again an object whose drop had an unknown outcome", map[string]any{"object": l.obj.describe(&state)})
			d = l.obj.drop(ctx, c, &state)
		}
	}
	resp.Diagnostics.Append(d...)
}

// importIDAttributes is implemented by a resource whose import ID is made of
// state attributes (their values, as tfkit.ImportID writes them; a single one
// bare), in the order the ID lists them.
type importIDAttributes interface {
	importIDAttributes() []string
}

// alreadyExists explains a create that failed (d) because the object exists
// already (found by reading the planned object): how to import it, by ID
// (`terraform import`, an `import` block) and by identity (Terraform 1.12+).
func (l lifecycle[M]) alreadyExists(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan *M, d diag.Diagnostics) diag.Diagnostics {
	duplicate := false
	for _, x := range d {
		if err := tfkit.ErrorOf(x); err != nil && pgconn.IsDuplicate(err) {
			duplicate = true
		}
	}
	if !duplicate {
		return nil
	}
	probe := *plan
	found, rd := l.obj.read(ctx, &call{op: opRead, config: req.Config}, &probe)
	if !found || rd.HasError() {
		return nil
	}
	st := tfsdk.State{Schema: resp.State.Schema}
	var attrs map[string]tftypes.Value
	if tfkit.RecordState(ctx, &st, &probe).HasError() || st.Raw.As(&attrs) != nil {
		return nil
	}
	addr := "postgresql_" + l.kind + ".<name>"
	var b strings.Builder
	fmt.Fprintf(&b, "%s already exists in PostgreSQL but not in the Terraform state. To manage it with this resource, import it (or give the resource another name); "+
		"below, %s stands for this resource's address.\n", l.obj.describe(&probe), addr)
	if ia, ok := l.obj.(importIDAttributes); ok {
		if id, ok := tfkit.ImportIDOf(attrs, ia.importIDAttributes()); ok {
			fmt.Fprintf(&b, "\nWith the import command:\n\n  terraform import %s %s\n\nor with an import block:\n\n  import {\n    to = %s\n    id = %s\n  }\n",
				addr, tfkit.ShellQuote(id), addr, tfkit.HCLString(id))
		}
	}
	var ident []string
	for _, name := range l.identity {
		if v, ok := tfkit.HCLValue(attrs[name]); ok {
			ident = append(ident, fmt.Sprintf("      %s = %s", name, v))
		}
	}
	if len(ident) > 0 {
		fmt.Fprintf(&b, "\nor by identity (Terraform 1.12 and later):\n\n  import {\n    to = %s\n    identity = {\n%s\n    }\n  }\n", addr, strings.Join(ident, "\n"))
	}
	b.WriteString("\nThen plan and apply: the import brings the object into the state, and the plan shows what would change to match the configuration.")
	what := strings.ReplaceAll(l.kind, "_", " ")
	return diag.Diagnostics{diag.NewErrorDiagnostic(strings.ToUpper(what[:1])+what[1:]+" already exists", b.String())}
}

// planned is what ModifyPlan works on when it plans a create or an update:
// the planned, configured and prior (nil on create) models.
type planned[M any] struct {
	plan, config M
	state        *M
}

// creating tells a create (no prior state) from an update.
func (p *planned[M]) creating() bool { return p.state == nil }

// changePlanner is implemented by a resource whose create and update plans
// need more than its schema says (defaults from the provider, values kept
// from the state, replacement decided from two attributes, diagnostics).
type changePlanner[M any] interface {
	// planChange adjusts p.plan; lifecycle saves it afterwards.
	planChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *planned[M])
}

// destroyPlanner is implemented by a resource that warns at plan time what
// destroying its object takes with it (connections, objects, dependents).
type destroyPlanner[M any] interface {
	planDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *M)
}

// ModifyPlan gets the models and hands them to the object's planChange or
// planDestroy, when it has them. It runs no SQL of its own. It runs even when
// the proposed plan equals the refreshed state: planChange may have to plan
// a change back from drift (e.g. options a mapping should not have).
func (l lifecycle[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	l.modifyPlan(ctx, req, resp)
	if !resp.Diagnostics.HasError() {
		checkExpectedVersion(ctx, l.obj, req, resp)
	}
}

// checkExpectedVersion refuses a plan that changes an object (create,
// update, destroy) when the server is older than the provider's
// expected_version, which only the apply found out before. It asks the
// server (once per provider) only when expected_version is set and the
// provider configuration is known.
func checkExpectedVersion(ctx context.Context, obj any, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	cu, ok := obj.(clientUser)
	if !ok {
		return
	}
	c := cu.pgClient()
	if c == nil || c.Ready() != nil || !c.ExpectsVersion() {
		return
	}
	if !req.State.Raw.IsNull() && !resp.Plan.Raw.IsNull() && resp.Plan.Raw.Equal(req.State.Raw) {
		return // no change
	}
	var ve *pgconn.VersionError
	if _, err := c.Capabilities(ctx); errors.As(err, &ve) {
		resp.Diagnostics.AddError("Server older than expected_version",
			fmt.Sprintf("The server runs PostgreSQL %s, but the provider's expected_version is %s: this plan would fail when applied. "+
				"Connect the provider to a server of that version or later, or change expected_version.", ve.Server, ve.Expected))
	}
}

func (l lifecycle[M]) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		dp, ok := l.obj.(destroyPlanner[M])
		if !ok || req.State.Raw.IsNull() {
			return
		}
		var state M
		if resp.Diagnostics.Append(tfkit.GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...); resp.Diagnostics.HasError() {
			return
		}
		dp.planDestroy(ctx, req, resp, &state)
		return
	}
	cp, ok := l.obj.(changePlanner[M])
	if !ok {
		return
	}
	var p planned[M]
	// arguments configured "" that mean unset: planChange sees them unset
	cfg, proposed, empties := presentEmptyAsUnset(l.emptyAttrs(), req.Config.Raw, req.Plan.Raw, req.State.Raw)
	planIn := tfsdk.Plan{Schema: req.Plan.Schema, Raw: proposed}
	configIn := tfsdk.Config{Schema: req.Config.Schema, Raw: cfg}
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.Plan.Schema.Type, planIn.Raw, &p.plan, planIn.Get)...)
	resp.Diagnostics.Append(tfkit.GetInto(ctx, req.Config.Schema.Type, configIn.Raw, &p.config, configIn.Get)...)
	if !req.State.Raw.IsNull() {
		p.state = new(M)
		resp.Diagnostics.Append(tfkit.GetInto(ctx, req.State.Schema.Type, req.State.Raw, p.state, req.State.Get)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	cp.planChange(ctx, req, resp, &p)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(tfkit.SetFrom(ctx, resp.Plan.Schema.Type, &p.plan, resp.Plan.Set)...)
	if len(empties) > 0 && !resp.Diagnostics.HasError() {
		resp.Plan.Raw = settleEmptyPlan(ctx, empties, resp.Plan.Raw, req.State.Raw, &resp.RequiresReplace)
	}
}

// oidOrRead is the OID a state records, or, when it records none (0: a state
// of an object not refreshed by this provider yet), the OID that obj's read
// finds for it (by name), read into a copy of the state. oid picks the OID
// from a model. Resources whose update needs the OID use it.
func oidOrRead[M any](ctx context.Context, obj object[M], c *call, state M, oid func(*M) types.Int64) (uint32, diag.Diagnostics) {
	if o := uint32(oid(&state).ValueInt64()); o != 0 {
		return o, nil
	}
	found, diags := obj.read(ctx, c, &state)
	if !found && !diags.HasError() {
		diags.AddError("Could not update", obj.describe(&state)+" not found.")
	}
	return uint32(oid(&state).ValueInt64()), diags
}

// notFound is what a read returns when reading the object failed with err or
// found nothing (err nil): the object is gone when its database is gone too.
func notFound(summary string, err error) (bool, diag.Diagnostics) {
	if err == nil || pg.IsMissingDatabase(err) {
		return false, nil
	}
	return false, tfkit.Failed(summary, err)
}

// maxSettle bounds how many times in a row the skeleton settles a write with
// an unknown outcome (the repeated write may lose its connection too).
const maxSettle = 5

// seamsOf returns the provider's seams of obj (provider_data.go); the zero
// options when obj has none.
func seamsOf(obj any) *options {
	if s, ok := obj.(interface{ providerOptions() *options }); ok {
		return s.providerOptions()
	}
	return &options{}
}

// settled counts a write with an unknown outcome that the skeleton settled,
// by adopting what it found or by running the write again (WithOutcomeCounts).
func settled(obj any, adopted bool) {
	c := seamsOf(obj).outcomes
	switch {
	case c == nil:
	case adopted:
		c.Adopted.Add(1)
	default:
		c.Repeated.Add(1)
	}
}
