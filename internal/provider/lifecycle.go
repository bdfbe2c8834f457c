package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
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
)

// The resource skeleton. Every resource embeds lifecycle[M] for its model type
// M and implements object[M]; lifecycle turns the object's typed functions
// into the framework's Create, Read, Update and Delete:
//
//   - Read gets the state, calls read, removes the resource when read reports
//     the object gone (dropped out of band: Terraform plans to create it again),
//     and saves what read found.
//   - Create gets the plan, calls create, records the planned object in the
//     state before reading it back (finishCreate), so that a failed read-back
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
// identity.go); withClient gives Configure; the resource adds Metadata
// (setMetadata), Schema, importState, identityAttributes and UpgradeState.
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
	resource.ResourceWithModifyPlan
	resource.ResourceWithUpgradeState
	identified
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
	identity []string             // the attributes naming the object (identified)
}

// newLifecycle is the skeleton of resource obj: its type name
// postgresql_<kind>, its schema, and the state attributes that name it (its
// identity, in the order the documentation lists them).
func newLifecycle[M any](obj object[M], kind string, schema func() schema.Schema, identity ...string) lifecycle[M] {
	return lifecycle[M]{obj: obj, kind: kind, schema: schema, identity: identity}
}

func (l lifecycle[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	setMetadata(req, resp, l.kind)
}

func (l lifecycle[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = l.schema()
}

func (l lifecycle[M]) identityAttributes() []string { return l.identity }

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
	resp.Diagnostics.Append(getInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
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
		resp.Diagnostics.Append(setIdentity(ctx, l.obj, req.State, resp.Identity)...)
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(setFrom(ctx, resp.State.Schema.Type, &state, resp.State.Set)...)
	resp.Diagnostics.Append(setIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

// ImportState imports by identity (importByIdentity) or by ID (the
// resource's importState). A resource identified by `id` alone takes its
// identity's id as an import ID.
func (l lifecycle[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if id, ok := l.obj.(identified); ok && req.ID == "" && req.Identity != nil && slices.Equal(id.identityAttributes(), []string{"id"}) {
		var v types.String
		if resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &v)...); resp.Diagnostics.HasError() {
			return
		}
		req.ID = v.ValueString()
	}
	if importByIdentity(ctx, l.obj, req, resp) {
		return
	}
	if imp, ok := l.obj.(idImporter); ok {
		imp.importState(ctx, req, resp)
	}
}

func (l lifecycle[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(getInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
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
		resp.Diagnostics.Append(recordState(ctx, &resp.State, &plan)...)
		resp.Diagnostics.Append(setIdentity(ctx, l.obj, resp.State, resp.Identity)...)
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not completed", fmt.Sprintf("%s was created, but the connection was lost meanwhile and completing it failed (see the error above). It is recorded in the state as tainted; the next apply replaces it.", l.obj.describe(&plan)))
		return
	}
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(l.alreadyExists(ctx, req, resp, &plan, d)...)
		return
	}
	finishCreate(ctx, resp, &plan, l.obj.describe(&plan), seamsOf(l.obj).readBackFault, func() (bool, diag.Diagnostics) { return l.obj.read(ctx, c, &plan) })
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	// recorded, tainted or not: its identity with it
	resp.Diagnostics.Append(setIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

func (l lifecycle[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(getInto(ctx, req.Plan.Schema.Type, req.Plan.Raw, &plan, req.Plan.Get)...)
	resp.Diagnostics.Append(getInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
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
	resp.Diagnostics.Append(setFrom(ctx, resp.State.Schema.Type, &plan, resp.State.Set)...)
	keepPlannedEmpty(l.emptyAttrs(), req.Plan.Raw, &resp.State)
	resp.Diagnostics.Append(setIdentity(ctx, l.obj, resp.State, resp.Identity)...)
}

func (l lifecycle[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(getInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...)
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
// state attributes (their values, as importID writes them; a single one
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
		if f, ok := x.(failedDiag); ok && pgconn.IsDuplicate(f.err) {
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
	if recordState(ctx, &st, &probe).HasError() || st.Raw.As(&attrs) != nil {
		return nil
	}
	addr := "postgresql_" + l.kind + ".<name>"
	var b strings.Builder
	fmt.Fprintf(&b, "%s already exists in PostgreSQL but not in the Terraform state. To manage it with this resource, import it (or give the resource another name); "+
		"below, %s stands for this resource's address.\n", l.obj.describe(&probe), addr)
	if ia, ok := l.obj.(importIDAttributes); ok {
		if id, ok := importIDOf(attrs, ia.importIDAttributes()); ok {
			fmt.Fprintf(&b, "\nWith the import command:\n\n  terraform import %s %s\n\nor with an import block:\n\n  import {\n    to = %s\n    id = %s\n  }\n",
				addr, shellQuote(id), addr, hclString(id))
		}
	}
	var ident []string
	for _, name := range l.identity {
		if v, ok := hclValue(attrs[name]); ok {
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

// importIDOf is the import ID made of the string attributes names of attrs.
func importIDOf(attrs map[string]tftypes.Value, names []string) (string, bool) {
	vals := make([]string, 0, len(names))
	for _, n := range names {
		var s string
		if v, ok := attrs[n]; !ok || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
			return "", false
		}
		vals = append(vals, s)
	}
	if len(vals) == 1 {
		return vals[0], true
	}
	return importID(vals...), true
}

// hclValue writes a known string, number, bool or collection of strings as HCL.
func hclValue(v tftypes.Value) (string, bool) {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		if v.As(&s) != nil {
			return "", false
		}
		return hclString(s), true
	case v.Type().Is(tftypes.Bool):
		var b bool
		if v.As(&b) != nil {
			return "", false
		}
		return strconv.FormatBool(b), true
	case v.Type().Is(tftypes.Number):
		var f big.Float
		if v.As(&f) != nil {
			return "", false
		}
		return f.Text('f', -1), true
	case v.Type().Is(tftypes.Set{}) || v.Type().Is(tftypes.List{}):
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return "", false
		}
		out := make([]string, 0, len(elems))
		for _, e := range elems {
			s, ok := hclValue(e)
			if !ok {
				return "", false
			}
			out = append(out, s)
		}
		sort.Strings(out)
		return "[" + strings.Join(out, ", ") + "]", true
	}
	return "", false
}

// hclString writes s as an HCL string literal.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r) // $${ and %%{ are a literal ${ and %{
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shellQuote writes s as one POSIX shell word.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && !strings.ContainsRune("_.-/:@+=,", r)
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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
		if resp.Diagnostics.Append(getInto(ctx, req.State.Schema.Type, req.State.Raw, &state, req.State.Get)...); resp.Diagnostics.HasError() {
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
	resp.Diagnostics.Append(getInto(ctx, req.Plan.Schema.Type, planIn.Raw, &p.plan, planIn.Get)...)
	resp.Diagnostics.Append(getInto(ctx, req.Config.Schema.Type, configIn.Raw, &p.config, configIn.Get)...)
	if !req.State.Raw.IsNull() {
		p.state = new(M)
		resp.Diagnostics.Append(getInto(ctx, req.State.Schema.Type, req.State.Raw, p.state, req.State.Get)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	cp.planChange(ctx, req, resp, &p)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setFrom(ctx, resp.Plan.Schema.Type, &p.plan, resp.Plan.Set)...)
	if len(empties) > 0 && !resp.Diagnostics.HasError() {
		resp.Plan.Raw = settleEmptyPlan(empties, resp.Plan.Raw, req.State.Raw, &resp.RequiresReplace)
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

// readByOIDOrName reads an object with read by its OID when the model has one,
// and by name when it has none or that finds nothing (read takes the OID, or 0
// and the name).
func readByOIDOrName[T any](oid types.Int64, name string, read func(oid uint32, name string) (*T, error)) (*T, error) {
	if !oid.IsNull() && !oid.IsUnknown() {
		if v, err := read(uint32(oid.ValueInt64()), ""); err != nil || v != nil {
			return v, err
		}
	}
	return read(0, name)
}

// notFound is what a read returns when reading the object failed with err or
// found nothing (err nil): the object is gone when its database is gone too.
func notFound(summary string, err error) (bool, diag.Diagnostics) {
	if err == nil || pg.IsMissingDatabase(err) {
		return false, nil
	}
	return false, failed(summary, err)
}

// failed is an error diagnostic for err (none when err is nil).
// createFromSpec creates an object in database db from the spec its plan
// describes (what names the kind in the error).
func createFromSpec[S, T any](ctx context.Context, db string, spec func(context.Context, *diag.Diagnostics) S,
	create func(context.Context, string, S) (*T, error), what string) diag.Diagnostics {
	var diags diag.Diagnostics
	s := spec(ctx, &diags)
	if diags.HasError() {
		return diags
	}
	_, err := create(ctx, db, s)
	return failed("Could not create "+what, err)
}

// updateFromSpec changes the object with OID oid in database db to the spec
// its plan describes.
func updateFromSpec[S, T any](ctx context.Context, db string, oid uint32, spec func(context.Context, *diag.Diagnostics) S,
	update func(context.Context, string, uint32, S) (*T, error), what string) diag.Diagnostics {
	var diags diag.Diagnostics
	s := spec(ctx, &diags)
	if diags.HasError() {
		return diags
	}
	_, err := update(ctx, db, oid, s)
	return failed("Could not update "+what, err)
}

func failed(summary string, err error) diag.Diagnostics {
	if err == nil {
		return nil
	}
	return diag.Diagnostics{failedDiag{diag.NewErrorDiagnostic(summary, err.Error()), err}}
}

// failedDiag is the error diagnostic of failed: it keeps the error, so that
// the skeleton can tell what went wrong (an object that exists already).
type failedDiag struct {
	diag.ErrorDiagnostic
	err error
}

func (d failedDiag) Equal(o diag.Diagnostic) bool {
	return o != nil && d.Severity() == o.Severity() && d.Summary() == o.Summary() && d.Detail() == o.Detail()
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

// finishCreate ends a Create whose object now exists in PostgreSQL. It first
// records in the state what the plan says of the object (computed values not
// known yet as null), then reads the object back into model and saves that.
//
// When the read-back fails, the recorded state stays and the error is
// returned: Terraform keeps the object, marked tainted, and replaces it on the
// next apply. Without the record the object would be an orphan: created but
// unknown to Terraform, so the next apply would fail with "already exists".
func finishCreate(ctx context.Context, resp *resource.CreateResponse, model any, what string, fault func(what string) error, readBack func() (bool, diag.Diagnostics)) {
	if d := recordState(ctx, &resp.State, model); d.HasError() {
		resp.Diagnostics.Append(d...)
		return
	}
	var found bool
	var d diag.Diagnostics
	if fault != nil {
		if err := fault(what); err != nil {
			d.AddError("Could not read back", err.Error())
		}
	}
	if !d.HasError() {
		found, d = readBack()
	}
	if !d.HasError() && !found {
		d.AddError("Created object vanished", fmt.Sprintf("%s was created but cannot be read back: it was dropped by someone else meanwhile.", what))
	}
	if d.HasError() {
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.AddError("Created, but not read back",
			fmt.Sprintf("%s was created, but reading it back failed (see the error above). It is recorded in the state as tainted, so Terraform does not lose track of it; the next apply replaces it.", what))
		return
	}
	resp.Diagnostics.Append(setFrom(ctx, resp.State.Schema.Type, model, resp.State.Set)...)
}

// recordState sets the state to model with every unknown value made null, so
// that it can be saved as it is (a state holds no unknown values).
func recordState(ctx context.Context, state *tfsdk.State, model any) diag.Diagnostics {
	diags := state.Set(ctx, model)
	if diags.HasError() {
		return diags
	}
	raw, err := tftypes.Transform(state.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("Could not record the new object", err.Error())
		return diags
	}
	state.Raw = raw
	return diags
}
