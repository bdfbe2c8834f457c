package tfkit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// The resource skeleton. Every resource embeds Lifecycle[M] for its model type
// M and implements Object[M]; Lifecycle turns the object's typed functions
// into the framework's Create, Read, Update and Delete:
//
//   - Read gets the state, calls ReadObject, removes the resource when it
//     reports the object gone (dropped out of band: Terraform plans to create
//     it again), and saves what it found.
//   - Create gets the plan, calls CreateObject, records the planned object in
//     the state before reading it back (FinishCreate), so that a failed
//     read-back leaves it tainted in the state instead of orphaned, and saves
//     the read-back.
//   - Update gets plan and state, calls UpdateObject, reads back into the
//     plan and saves it; an object gone by then is an error.
//   - Delete gets the state and calls DropObject.
//
// A write whose outcome is unknown (the connection broke after it was sent)
// is settled from the catalog: adopted when it happened, run again when it
// did not (Hooks.TrackOutcome tells which writes those are).
//
// The skeleton knows nothing of PostgreSQL: what it needs from the
// connection layer comes in as Hooks. A resource file then holds its schema,
// the translation between its model and the catalog's types, and what is
// truly its own (plan modification, import, upgraders).

// Object is what a resource knows of its PostgreSQL object, with its model
// type M.
type Object[M any] interface {
	// Describe names the object in messages, e.g. `schema "app" in database "main"`.
	Describe(m *M) string
	// ReadObject refreshes m from the server and reports whether the object
	// exists. A missing database means a missing object.
	ReadObject(ctx context.Context, c *Call, m *M) (bool, diag.Diagnostics)
	// CreateObject creates the object planned in m; it may set in m what is
	// known only once the object exists (an OID).
	CreateObject(ctx context.Context, c *Call, plan *M) diag.Diagnostics
	// UpdateObject changes the object from state to plan in place.
	UpdateObject(ctx context.Context, c *Call, plan, state *M) diag.Diagnostics
	// DropObject drops the object; an object already gone is no error.
	DropObject(ctx context.Context, c *Call, state *M) diag.Diagnostics
}

// IDImporter imports by ID (`terraform import`, an `import` block with
// `id`): it sets what ReadObject needs in the state.
type IDImporter interface {
	ImportByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse)
}

// ImportIDAttributes is implemented by a resource whose import ID is made of
// state attributes (their values, as ImportID writes them; a single one
// bare), in the order the ID lists them.
type ImportIDAttributes interface {
	ImportIDAttributes() []string
}

// ChangePlanner is implemented by a resource whose create and update plans
// need more than its schema says (defaults from the provider, values kept
// from the state, replacement decided from two attributes, diagnostics).
type ChangePlanner[M any] interface {
	// PlanChange adjusts p.Plan; Lifecycle saves it afterwards.
	PlanChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, p *Planned[M])
}

// DestroyPlanner is implemented by a resource that warns at plan time what
// destroying its object takes with it (connections, objects, dependents).
type DestroyPlanner[M any] interface {
	PlanDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state *M)
}

// Planned is what ModifyPlan works on when it plans a create or an update:
// the planned, configured and prior (nil on create) models.
type Planned[M any] struct {
	Plan, Config M
	State        *M
}

// Creating tells a create (no prior state) from an update.
func (p *Planned[M]) Creating() bool { return p.State == nil }

// Outcome tells whether a write run under a context from
// Hooks.TrackOutcome may have happened without its result reaching us.
type Outcome interface {
	Unknown() bool
	Reset()
}

// Seams are a provider instance's test seams the skeleton honours.
type Seams struct {
	// ReadBackFault, when set, runs between recording a created object and
	// reading it back (FinishCreate).
	ReadBackFault func(what string) error
	// Settled, when set, is told of each write with an unknown outcome that
	// the skeleton settled: by adopting what it found, or by running the
	// write again.
	Settled func(adopted bool)
}

// Hooks is what the skeleton needs from outside the framework. Every field
// may be nil.
type Hooks struct {
	// TrackOutcome returns a context under which the connection layer
	// records whether a write's outcome is unknown.
	TrackOutcome func(context.Context) (context.Context, Outcome)
	// IsDuplicate tells an error saying that the object exists already.
	IsDuplicate func(error) bool
	// Unseen tells an error of a read that could not see the object, which
	// the next write can (a connection the server refuses to a read, and
	// that a write opens by taking privileges a read must not take): the
	// refresh keeps the state as last read, with a warning of the error.
	Unseen func(error) bool
	// EmptyIsUnset tells the plan modifier marking a string argument whose
	// "" means unset (see empty_unset.go).
	EmptyIsUnset func(planmodifier.String) bool
	// CheckPlan runs after a successful ModifyPlan (e.g. refusing a change
	// a server too old would fail).
	CheckPlan func(ctx context.Context, obj any, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse)
	// Seams returns obj's seams (obj is the resource).
	Seams func(obj any) Seams
	// ProviderTypeName is the provider's type name, the prefix of every
	// resource type name (for messages that spell a resource's address).
	ProviderTypeName string
	// Write, when set, runs write, the create (op OpCreate) or update
	// (OpUpdate) of obj: plan is the planned *M, state the state's *M (nil on
	// create). The provider may wait before it for objects the write needs
	// that the same apply is bringing into being, and tell the writes that
	// wait for what it brings into being when it is done.
	Write func(ctx context.Context, obj any, op Operation, plan, state any, write func(context.Context) diag.Diagnostics) diag.Diagnostics
}

// Lifecycle implements resource.Resource's Metadata, Schema, Create, Read,
// Update, Delete, ModifyPlan, ImportState and IdentitySchema for an object
// (see Object). Embed it and set it in the constructor (NewLifecycle).
type Lifecycle[M any] struct {
	obj      Object[M]
	kind     string               // the type name after the provider's and "_"
	schema   func() schema.Schema // the current schema
	identity []string             // the attributes naming the object (Identified)
	hooks    *Hooks
}

// NewLifecycle is the skeleton of resource obj: its type name
// <provider>_<kind>, its schema, the hooks, and the state attributes that
// name it (its identity, in the order the documentation lists them).
func NewLifecycle[M any](obj Object[M], kind string, schema func() schema.Schema, hooks *Hooks, identity ...string) Lifecycle[M] {
	if hooks == nil {
		hooks = &Hooks{}
	}
	return Lifecycle[M]{obj: obj, kind: kind, schema: schema, identity: identity, hooks: hooks}
}

func (l Lifecycle[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	SetMetadata(req, resp, l.kind)
}

func (l Lifecycle[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = l.schema()
}

func (l Lifecycle[M]) IdentityAttributes() []string { return l.identity }

// IdentitySchema derives the identity schema from the resource schema: a
// string, number or bool attribute of the same name, a list of strings for a
// set or list; required for import when the argument is required.
func (l Lifecycle[M]) IdentitySchema(ctx context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema, resp.Diagnostics = IdentitySchemaOf(ctx, l.obj)
}

// Model is a new model of the resource (for tests of what works on any model).
func (Lifecycle[M]) Model() any { return new(M) }

// Operation is the framework call an object function runs in.
type Operation int

const (
	OpRead Operation = iota
	OpCreate
	OpUpdate
	OpDelete
)

// PrivateGetter is what holds private state (requests and responses).
type PrivateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// PrivateSetter is what private state is saved to (responses).
type PrivateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// Call is what one operation hands the object functions beyond the model.
type Call struct {
	Op     Operation
	Config tfsdk.Config // the configuration: Create and Update only
	get    PrivateGetter
	set    PrivateSetter
	held   []func()
	kept   map[any]any
}

// Keep stores v under key for the rest of the operation: what a write
// learnt that its read back must know (the objects a grant's write covered).
func (c *Call) Keep(key, v any) {
	if c == nil {
		return
	}
	if c.kept == nil {
		c.kept = map[any]any{}
	}
	c.kept[key] = v
}

// Kept is what Keep stored under key in this operation (nil: nothing).
func (c *Call) Kept(key any) any {
	if c == nil {
		return nil
	}
	return c.kept[key]
}

// HoldUntilReadBack keeps release (of a claim on what the write states) to
// be called once Create or Update has read back what it wrote, so that the
// state records what this write left and not what a concurrent write of the
// same apply changed meanwhile (two authoritative grants of one role on one
// table fight: each must record its own result, and the next plan shows the
// fight, not "inconsistent result after apply"). False (nil c, a Read or a
// Delete): not held, the caller releases it.
func (c *Call) HoldUntilReadBack(release func()) bool {
	if c == nil || (c.Op != OpCreate && c.Op != OpUpdate) {
		return false
	}
	c.held = append(c.held, release)
	return true
}

// releaseHeld calls what HoldUntilReadBack held, the newest first: after the
// read back, and before a write is tried again.
func (c *Call) releaseHeld() {
	for i := len(c.held) - 1; i >= 0; i-- {
		c.held[i]()
	}
	c.held = nil
}

// ReadCall is the Call of a read outside the skeleton (a listed object),
// with the private state it reads from.
func ReadCall(private PrivateGetter) *Call { return &Call{Op: OpRead, get: private} }

// Wrote tells a read that it reads back what this operation just wrote (so
// the model holds the configuration's spelling of what the server now has).
func (c *Call) Wrote() bool { return c.Op == OpCreate || c.Op == OpUpdate }

// PrivateKey returns the prior private state's value of key (nil in Create,
// or when unset).
func (c *Call) PrivateKey(ctx context.Context, key string) []byte {
	if c.get == nil {
		return nil
	}
	b, d := c.get.GetKey(ctx, key)
	if d.HasError() {
		return nil
	}
	return b
}

// PrivateSetter is where the operation saves private state (nil in Delete).
func (c *Call) PrivateSetter() PrivateSetter { return c.set }

// SetPrivateKey sets key in the private state saved with the new state (no-op in Delete).
func (c *Call) SetPrivateKey(ctx context.Context, key string, value []byte) diag.Diagnostics {
	if c.set == nil {
		return nil
	}
	return c.set.SetKey(ctx, key, value)
}

// SetPrivateJSON sets key to v encoded as JSON (what names v in an error).
func (c *Call) SetPrivateJSON(ctx context.Context, key string, v any, what string) diag.Diagnostics {
	b, err := json.Marshal(v)
	if err != nil {
		return diag.Diagnostics{diag.NewErrorDiagnostic("Could not record "+what, err.Error())}
	}
	return c.SetPrivateKey(ctx, key, b)
}

func (l Lifecycle[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &Call{Op: OpRead, get: req.Private, set: resp.Private}
	imported, d := req.Private.GetKey(ctx, privateImported)
	resp.Diagnostics.Append(d...)
	if len(imported) > 0 {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
	}
	found, d := l.obj.ReadObject(ctx, c, &state)
	if len(imported) == 0 && l.unseen(d) {
		// resp.State and resp.Private are the prior ones: kept as they were
		resp.Diagnostics.Append(asWarnings(d, "; the state is kept as it was last read, and the refresh will read the object again "+
			"once it can")...)
		return
	}
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !found {
		// gone: Terraform plans to create it again. The framework (1.19) still
		// wants the identity of what was there.
		resp.Diagnostics.Append(SetIdentity(ctx, l.obj, req.State, resp.Identity)...)
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(SetFrom(ctx, resp.State.Schema.Type, &state, resp.State.Set)...)
	resp.Diagnostics.Append(SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

// ImportState imports by identity (ImportByIdentity) or by ID (the
// resource's ImportByID). A resource identified by `id` alone takes its
// identity's id as an import ID.
func (l Lifecycle[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id, ok := l.obj.(Identified); ok && req.ID == "" && req.Identity != nil && slices.Equal(id.IdentityAttributes(), []string{"id"}) {
		var v types.String
		if resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &v)...); resp.Diagnostics.HasError() {
			return
		}
		req.ID = v.ValueString()
	}
	// the read that follows an import has no state to keep
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte("true"))...)
	}
	if ImportByIdentity(ctx, l.obj, req, resp) {
		return
	}
	if imp, ok := l.obj.(IDImporter); ok {
		imp.ImportByID(ctx, req, resp)
	}
}

// privateImported is the private state key marking a state that an import
// made and no read has completed yet (Read never keeps such a state).
const privateImported = "tfkit_imported"

// unseen reports whether every error of d is a Failed one that
// Hooks.Unseen tells (and there is one).
func (l Lifecycle[M]) unseen(d diag.Diagnostics) bool {
	if l.hooks.Unseen == nil || !d.HasError() {
		return false
	}
	for _, x := range d.Errors() {
		f, ok := x.(failedDiag)
		if !ok || !l.hooks.Unseen(f.err) {
			return false
		}
	}
	return true
}

// asWarnings returns d with its errors turned into warnings, whose detail
// ends with more.
func asWarnings(d diag.Diagnostics, more string) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(d))
	for _, x := range d {
		if x.Severity() == diag.SeverityError {
			x = diag.NewWarningDiagnostic(x.Summary(), x.Detail()+more)
		}
		out = append(out, x)
	}
	return out
}

// trackOutcome is Hooks.TrackOutcome, or an outcome never unknown.
func (l Lifecycle[M]) trackOutcome(ctx context.Context) (context.Context, Outcome) {
	if l.hooks.TrackOutcome == nil {
		return ctx, knownOutcome{}
	}
	return l.hooks.TrackOutcome(ctx)
}

type knownOutcome struct{}

func (knownOutcome) Unknown() bool { return false }
func (knownOutcome) Reset()        {}

// seams are the resource's seams (Hooks.Seams), or none.
func (l Lifecycle[M]) seams() Seams {
	if l.hooks.Seams == nil {
		return Seams{}
	}
	return l.hooks.Seams(l.obj)
}

// settled tells the seams of a write with an unknown outcome settled.
func (l Lifecycle[M]) settled(adopted bool) {
	if s := l.seams().Settled; s != nil {
		s(adopted)
	}
}

func (l Lifecycle[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(GetInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &Call{Op: OpCreate, Config: req.Config, set: resp.Private}
	defer c.releaseHeld()
	adopted := false
	d := l.write(ctx, OpCreate, &plan, nil, func(ctx context.Context) diag.Diagnostics {
		var d diag.Diagnostics
		d, adopted = l.createSettled(ctx, c, &plan)
		return d
	})
	if d.HasError() && adopted {
		// it exists: record it (tainted), lest it become an orphan
		resp.Diagnostics.Append(RecordState(ctx, &resp.State, &plan)...)
		resp.Diagnostics.Append(SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not completed", fmt.Sprintf("%s was created, but the connection was lost meanwhile and completing it failed (see the error above). It is recorded in the state as tainted; the next apply replaces it.", l.obj.Describe(&plan)))
		return
	}
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(l.alreadyExists(ctx, req, resp, &plan, d)...)
		return
	}
	FinishCreate(ctx, resp, &plan, l.obj.Describe(&plan), l.seams().ReadBackFault, func() (bool, diag.Diagnostics) { return l.obj.ReadObject(ctx, c, &plan) })
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	// recorded, tainted or not: its identity with it
	resp.Diagnostics.Append(SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

// write runs a create or an update through Hooks.Write, when there is one.
func (l Lifecycle[M]) write(ctx context.Context, op Operation, plan, state *M, write func(context.Context) diag.Diagnostics) diag.Diagnostics {
	if l.hooks.Write == nil {
		return write(ctx)
	}
	var st any
	if state != nil {
		st = state
	}
	return l.hooks.Write(ctx, l.obj, op, plan, st, write)
}

// createSettled creates the object and settles a create whose outcome is
// unknown; adopted tells that it adopted the object it found.
func (l Lifecycle[M]) createSettled(ctx context.Context, c *Call, plan *M) (d diag.Diagnostics, adopted bool) {
	ctx, outcome := l.trackOutcome(ctx)
	d = l.obj.CreateObject(ctx, c, plan)
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		c.releaseHeld()
		// The connection broke after the create was sent: the catalog says
		// whether it happened. Found: adopt it (and bring it to the plan,
		// should the create have had several steps). Not found: create again.
		probe := *plan
		found, rd := l.obj.ReadObject(ctx, c, &probe)
		switch {
		case rd.HasError():
			d.Append(rd...)
		case found:
			tflog.Info(ctx, "adopting an object whose create had an unknown outcome: it exists", map[string]any{"object": l.obj.Describe(plan)})
			adopted = true
			if d = l.obj.UpdateObject(ctx, c, plan, &probe); !d.HasError() {
				l.settled(true)
			}
		default:
			l.settled(false)
			tflog.Info(ctx, "creating again an object whose create had an unknown outcome: it does not exist", map[string]any{"object": l.obj.Describe(plan)})
			d = l.obj.CreateObject(ctx, c, plan)
		}
	}
	return d, adopted
}

func (l Lifecycle[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(GetInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
	resp.Diagnostics.Append(GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &Call{Op: OpUpdate, Config: req.Config, get: req.Private, set: resp.Private}
	defer c.releaseHeld()
	d := l.write(ctx, OpUpdate, &plan, &state, func(ctx context.Context) diag.Diagnostics { return l.updateSettled(ctx, c, &plan, &state) })
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, d := l.obj.ReadObject(ctx, c, &plan)
	resp.Diagnostics.Append(d...)
	if !found && !resp.Diagnostics.HasError() {
		resp.Diagnostics.AddError("Updated object vanished",
			fmt.Sprintf("%s was updated but cannot be read back: it was dropped by someone else meanwhile.", l.obj.Describe(&plan)))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(SetFrom(ctx, resp.State.Schema.Type, &plan, resp.State.Set)...)
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	resp.Diagnostics.Append(SetIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

// updateSettled updates the object and settles an update whose outcome is
// unknown.
func (l Lifecycle[M]) updateSettled(ctx context.Context, c *Call, plan, state *M) diag.Diagnostics {
	ctx, outcome := l.trackOutcome(ctx)
	d := l.obj.UpdateObject(ctx, c, plan, state)
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		c.releaseHeld()
		// The connection broke after a change was sent: update once more
		// from what the catalog holds now (by the state's identity, or the
		// plan's when a rename went through).
		for _, from := range []M{*state, *plan} {
			probe := from
			found, rd := l.obj.ReadObject(ctx, c, &probe)
			if rd.HasError() {
				d.Append(rd...)
				break
			}
			if found {
				l.settled(false)
				tflog.Info(ctx, "updating again an object whose update had an unknown outcome", map[string]any{"object": l.obj.Describe(plan)})
				d = l.obj.UpdateObject(ctx, c, plan, &probe)
				break
			}
		}
	}
	return d
}

func (l Lifecycle[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &Call{Op: OpDelete, get: req.Private}
	ctx, outcome := l.trackOutcome(ctx)
	d := l.obj.DropObject(ctx, c, &state)
	for try := 0; try < maxSettle && d.HasError() && outcome.Unknown(); try++ {
		outcome.Reset()
		// The connection broke after the drop was sent: gone is done,
		// otherwise drop once more.
		probe := state
		found, rd := l.obj.ReadObject(ctx, &Call{Op: OpRead, get: req.Private}, &probe)
		switch {
		case rd.HasError():
			d.Append(rd...)
		case !found:
			tflog.Info(ctx, "the drop with an unknown outcome happened", map[string]any{"object": l.obj.Describe(&state)})
			l.settled(true)
			d = nil
		default:
			l.settled(false)
			tflog.Info(ctx, "dropping again an object whose drop had an unknown outcome", map[string]any{"object": l.obj.Describe(&state)})
			d = l.obj.DropObject(ctx, c, &state)
		}
	}
	resp.Diagnostics.Append(d...)
}

// alreadyExists explains a create that failed (d) because the object exists
// already (found by reading the planned object): how to import it, by ID
// (`terraform import`, an `import` block) and by identity (Terraform 1.12+).
func (l Lifecycle[M]) alreadyExists(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan *M, d diag.Diagnostics) diag.Diagnostics {
	if l.hooks.IsDuplicate == nil {
		return nil
	}
	duplicate := false
	for _, x := range d {
		if err := ErrorOf(x); err != nil && l.hooks.IsDuplicate(err) {
			duplicate = true
		}
	}
	if !duplicate {
		return nil
	}
	probe := *plan
	found, rd := l.obj.ReadObject(ctx, &Call{Op: OpRead, Config: req.Config}, &probe)
	if !found || rd.HasError() {
		return nil
	}
	st := tfsdk.State{Schema: resp.State.Schema}
	var attrs map[string]tftypes.Value
	if RecordState(ctx, &st, &probe).HasError() || st.Raw.As(&attrs) != nil {
		return nil
	}
	addr := l.hooks.ProviderTypeName + "_" + l.kind + ".<name>"
	var b strings.Builder
	fmt.Fprintf(&b, "%s already exists in PostgreSQL but not in the Terraform state. To manage it with this resource, import it (or give the resource another name); "+
		"below, %s stands for this resource's address.\n", l.obj.Describe(&probe), addr)
	if ia, ok := l.obj.(ImportIDAttributes); ok {
		if id, ok := ImportIDOf(attrs, ia.ImportIDAttributes()); ok {
			fmt.Fprintf(&b, "\nWith the import command:\n\n  terraform import %s %s\n\nor with an import block:\n\n  import {\n    to = %s\n    id = %s\n  }\n",
				addr, ShellQuote(id), addr, HCLString(id))
		}
	}
	var ident []string
	for _, name := range l.identity {
		if v, ok := HCLValue(attrs[name]); ok {
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

// ModifyPlan gets the models and hands them to the object's PlanChange or
// PlanDestroy, when it has them, then runs Hooks.CheckPlan. It runs no SQL
// of its own. It runs even when the proposed plan equals the refreshed
// state: PlanChange may have to plan a change back from drift (e.g. options
// a mapping should not have).
func (l Lifecycle[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	l.modifyPlan(ctx, req, resp)
	if !resp.Diagnostics.HasError() && l.hooks.CheckPlan != nil {
		l.hooks.CheckPlan(ctx, l.obj, req, resp)
	}
}

func (l Lifecycle[M]) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		dp, ok := l.obj.(DestroyPlanner[M])
		if !ok || req.State.Raw.IsNull() {
			return
		}
		var state M
		if resp.Diagnostics.Append(GetInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...); resp.Diagnostics.HasError() {
			return
		}
		dp.PlanDestroy(ctx, req, resp, &state)
		return
	}
	cp, ok := l.obj.(ChangePlanner[M])
	if !ok {
		return
	}
	var p Planned[M]
	// arguments configured "" that mean unset: PlanChange sees them unset
	cfg, proposed, empties := presentEmptyAsUnset(l.emptyAttrs(), req.Config.Raw, req.Plan.Raw, req.State.Raw)
	planIn := tfsdk.Plan{Schema: req.Plan.Schema, Raw: proposed}
	configIn := tfsdk.Config{Schema: req.Config.Schema, Raw: cfg}
	resp.Diagnostics.Append(GetInto(ctx, req.Plan.Schema.Type, planIn.Raw, &p.Plan, planIn.Get)...)
	resp.Diagnostics.Append(GetInto(ctx, req.Config.Schema.Type, configIn.Raw, &p.Config, configIn.Get)...)
	if !req.State.Raw.IsNull() {
		p.State = new(M)
		resp.Diagnostics.Append(GetInto(ctx, req.State.Schema.Type, req.State.Raw, p.State, req.State.Get)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	cp.PlanChange(ctx, req, resp, &p)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(SetFrom(ctx, resp.Plan.Schema.Type, &p.Plan, resp.Plan.Set)...)
	if len(empties) > 0 && !resp.Diagnostics.HasError() {
		resp.Plan.Raw = settleEmptyPlan(ctx, empties, resp.Plan.Raw, req.State.Raw, &resp.RequiresReplace)
	}
}

// OIDOrRead is the OID a state records, or, when it records none (0: a state
// of an object not refreshed by this provider yet), the OID that obj's
// ReadObject finds for it (by name), read into a copy of the state. oid
// picks the OID from a model. Resources whose update needs the OID use it.
func OIDOrRead[M any](ctx context.Context, obj Object[M], c *Call, state M, oid func(*M) types.Int64) (uint32, diag.Diagnostics) {
	if o := uint32(oid(&state).ValueInt64()); o != 0 {
		return o, nil
	}
	found, diags := obj.ReadObject(ctx, c, &state)
	if !found && !diags.HasError() {
		diags.AddError("Could not update", obj.Describe(&state)+" not found.")
	}
	return uint32(oid(&state).ValueInt64()), diags
}

// maxSettle bounds how many times in a row the skeleton settles a write with
// an unknown outcome (the repeated write may lose its connection too).
const maxSettle = 5
