package tfkit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Unit tests of the skeleton's own decisions (Lifecycle): settling a write
// whose outcome is unknown, and the "already exists" hint. The object is a
// map standing in for the catalog; the acceptance tests of every resource
// (internal/provider, fault_test.go) run the same paths against PostgreSQL.

type kitModel struct {
	Name  types.String `tfsdk:"name"`
	Value types.String `tfsdk:"value"`
}

func kitSchema() schema.Schema {
	return schema.Schema{Attributes: map[string]schema.Attribute{
		"name":  schema.StringAttribute{Required: true},
		"value": schema.StringAttribute{Optional: true},
	}}
}

// kitObject keeps objects by name. lose makes the next n writes happen but
// lose their result (an unknown outcome); fail makes them not happen at all,
// with an unknown outcome too.
type kitObject struct {
	Lifecycle[kitModel]
	objects    map[string]string
	lose, fail int
	tracker    *kitOutcome
	writes     []string
	unseen     error // the error of every read (nil: none)
}

type kitOutcome struct{ unknown bool }

func (o *kitOutcome) Unknown() bool { return o.unknown }
func (o *kitOutcome) Reset()        { o.unknown = false }

var (
	errKitDuplicate = errors.New("already exists")
	errKitUnseen    = errors.New("cannot connect to read it")
)

func newKitObject() *kitObject {
	o := &kitObject{objects: map[string]string{}, tracker: &kitOutcome{}}
	hooks := &Hooks{
		TrackOutcome: func(ctx context.Context) (context.Context, Outcome) { return ctx, o.tracker },
		IsDuplicate:  func(err error) bool { return errors.Is(err, errKitDuplicate) },
		Unseen:       func(err error) bool { return errors.Is(err, errKitUnseen) },
	}
	o.Lifecycle = NewLifecycle[kitModel](o, "kit", kitSchema, hooks, "name")
	return o
}

// write runs f unless a fault is due: a lost result runs it and reports an
// unknown outcome, a failure reports one without running it.
func (o *kitObject) write(what string, f func() error) diag.Diagnostics {
	o.writes = append(o.writes, what)
	switch {
	case o.lose > 0:
		o.lose--
		_ = f()
		o.tracker.unknown = true
		return Failed("lost", errors.New("connection lost"))
	case o.fail > 0:
		o.fail--
		o.tracker.unknown = true
		return Failed("lost", errors.New("connection lost"))
	}
	if err := f(); err != nil {
		return Failed("failed", err)
	}
	return nil
}

func (o *kitObject) Describe(m *kitModel) string { return "kit " + m.Name.ValueString() }

func (o *kitObject) ReadObject(_ context.Context, _ *Call, m *kitModel) (bool, diag.Diagnostics) {
	if o.unseen != nil {
		m.Value = types.StringValue("half-read")
		return false, Failed("Could not read kit", o.unseen)
	}
	v, ok := o.objects[m.Name.ValueString()]
	if ok {
		m.Value = StringOrNull(v)
	}
	return ok, nil
}

func (o *kitObject) CreateObject(_ context.Context, _ *Call, m *kitModel) diag.Diagnostics {
	return o.write("create", func() error {
		if _, ok := o.objects[m.Name.ValueString()]; ok {
			return errKitDuplicate
		}
		o.objects[m.Name.ValueString()] = m.Value.ValueString()
		return nil
	})
}

func (o *kitObject) UpdateObject(_ context.Context, _ *Call, plan, _ *kitModel) diag.Diagnostics {
	return o.write("update", func() error { o.objects[plan.Name.ValueString()] = plan.Value.ValueString(); return nil })
}

func (o *kitObject) DropObject(_ context.Context, _ *Call, m *kitModel) diag.Diagnostics {
	return o.write("drop", func() error { delete(o.objects, m.Name.ValueString()); return nil })
}

func kitValue(name, value string) tftypes.Value {
	typ := kitSchema().Type().TerraformType(context.Background())
	return tftypes.NewValue(typ, map[string]tftypes.Value{
		"name": tftypes.NewValue(tftypes.String, name), "value": tftypes.NewValue(tftypes.String, value),
	})
}

func (o *kitObject) create(t *testing.T, name, value string) *resource.CreateResponse {
	t.Helper()
	s := kitSchema()
	req := resource.CreateRequest{Plan: tfsdk.Plan{Schema: s, Raw: kitValue(name, value)}, Config: tfsdk.Config{Schema: s, Raw: kitValue(name, value)}}
	resp := &resource.CreateResponse{State: tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}}
	o.Create(context.Background(), req, resp)
	return resp
}

func TestLifecycle_createWithLostResultAdopts(t *testing.T) {
	o := newKitObject()
	o.lose = 1
	resp := o.create(t, "a", "x")
	if resp.Diagnostics.HasError() {
		t.Fatalf("create: %v", resp.Diagnostics)
	}
	if got := strings.Join(o.writes, ","); got != "create,update" {
		t.Errorf("writes %q, want the create, then an update of what it found (adopted)", got)
	}
	var m kitModel
	resp.State.Get(context.Background(), &m)
	if m.Value.ValueString() != "x" || o.objects["a"] != "x" {
		t.Errorf("state %v, catalog %v", m, o.objects)
	}
}

func TestLifecycle_createThatDidNotHappenRunsAgain(t *testing.T) {
	o := newKitObject()
	o.fail = 2
	resp := o.create(t, "a", "x")
	if resp.Diagnostics.HasError() {
		t.Fatalf("create: %v", resp.Diagnostics)
	}
	if got := strings.Join(o.writes, ","); got != "create,create,create" {
		t.Errorf("writes %q, want the create run again until it happened", got)
	}
}

func TestLifecycle_settlingIsBounded(t *testing.T) {
	o := newKitObject()
	o.fail = 100
	resp := o.create(t, "a", "x")
	if !resp.Diagnostics.HasError() {
		t.Fatal("a create that never happens succeeded")
	}
	if n := len(o.writes); n != 1+maxSettle {
		t.Errorf("%d writes, want %d", n, 1+maxSettle)
	}
	if !resp.State.Raw.IsNull() {
		t.Error("nothing was created, but the state records an object")
	}
}

func TestLifecycle_dropWithLostResultIsDone(t *testing.T) {
	o := newKitObject()
	o.objects["a"] = "x"
	o.lose = 1
	s := kitSchema()
	req := resource.DeleteRequest{State: tfsdk.State{Schema: s, Raw: kitValue("a", "x")}}
	resp := &resource.DeleteResponse{}
	o.Delete(context.Background(), req, resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("delete: %v", resp.Diagnostics)
	}
	if got := strings.Join(o.writes, ","); got != "drop" {
		t.Errorf("writes %q, want one drop (gone is done)", got)
	}
}

func TestLifecycle_alreadyExistsSaysHowToImport(t *testing.T) {
	o := newKitObject()
	o.objects["a"] = "x"
	resp := o.create(t, "a", "x")
	var summaries []string
	for _, d := range resp.Diagnostics {
		summaries = append(summaries, d.Summary()+": "+d.Detail())
	}
	got := strings.Join(summaries, "\n")
	if !strings.Contains(got, "Kit already exists") || !strings.Contains(got, "identity = {\n      name = \"a\"") {
		t.Errorf("diagnostics:\n%s", got)
	}
}

func TestLifecycle_noHooks(t *testing.T) {
	o := &kitObject{objects: map[string]string{}, tracker: &kitOutcome{}}
	o.Lifecycle = NewLifecycle[kitModel](o, "kit", kitSchema, nil, "name")
	o.lose = 1 // without TrackOutcome the skeleton cannot know the outcome: the error stands
	if resp := o.create(t, "a", "x"); !resp.Diagnostics.HasError() {
		t.Error("a lost create succeeded without an outcome hook")
	}
}

func (o *kitObject) read(t *testing.T, name, value string) *resource.ReadResponse {
	t.Helper()
	s := kitSchema()
	req := resource.ReadRequest{State: tfsdk.State{Schema: s, Raw: kitValue(name, value)}}
	resp := &resource.ReadResponse{State: tfsdk.State{Schema: s, Raw: kitValue(name, value)}}
	o.Read(context.Background(), req, resp)
	return resp
}

// A read that cannot see the object (Hooks.Unseen: the server refuses the
// read's connection, which the next write opens) keeps the state as it was,
// with the error as a warning; any other read error stays an error.
func TestLifecycle_unseenReadKeepsState(t *testing.T) {
	o := newKitObject()
	o.unseen = fmt.Errorf("permission denied for database: %w", errKitUnseen)
	resp := o.read(t, "a", "x")
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 {
		t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
	}
	if w := resp.Diagnostics.Warnings()[0]; !strings.Contains(w.Detail(), "permission denied for database") || !strings.Contains(w.Detail(), "kept as it was last read") {
		t.Errorf("warning %q", w.Detail())
	}
	if !resp.State.Raw.Equal(kitValue("a", "x")) {
		t.Errorf("state %v, want the prior state", resp.State.Raw)
	}
	o.unseen = errors.New("permission denied for table")
	if resp := o.read(t, "a", "x"); !resp.Diagnostics.HasError() {
		t.Errorf("any other read error: diagnostics %v, want it as an error", resp.Diagnostics)
	}
}
