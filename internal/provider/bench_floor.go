package provider

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The benchmark's floor (make bench-plan): a provider built with the build tag
// benchfloor serves every resource with its own schema but none of its work
// (floorResource), so that a plan of the benchmark's estate with it measures
// what Terraform and the plugin framework cost by themselves.

// floorResource serves the schema of the resource f makes, without plan
// modifiers, and does nothing else: no SQL, no ModifyPlan, no state upgrade.
// Read keeps the state; create and update record the plan, with a zero value
// for what the plan left unknown (so an apply with it writes a state of the
// same shape as the real one); delete forgets.
func floorResource(f func() resource.Resource) func() resource.Resource {
	return func() resource.Resource { return floor{inner: f()} }
}

type floor struct{ inner resource.Resource }

func (r floor) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.inner.Metadata(ctx, req, resp)
}

func (r floor) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.inner.Schema(ctx, req, resp)
	resp.Schema.Attributes = floorAttributes(resp.Schema.Attributes)
	resp.Schema.Blocks = floorBlocks(resp.Schema.Blocks)
}

func (floor) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (floor) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = floorKnown(req.Plan.Raw)
}

func (floor) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = floorKnown(req.Plan.Raw)
}

// floorKnown replaces every unknown value of v with the zero value of its
// type: "", 0, false, an empty collection, or null for an object.
func floorKnown(v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		t := v.Type()
		switch {
		case t.Is(tftypes.String):
			return tftypes.NewValue(t, ""), nil
		case t.Is(tftypes.Number):
			return tftypes.NewValue(t, new(big.Float)), nil
		case t.Is(tftypes.Bool):
			return tftypes.NewValue(t, false), nil
		case t.Is(tftypes.List{}), t.Is(tftypes.Set{}):
			return tftypes.NewValue(t, []tftypes.Value{}), nil
		case t.Is(tftypes.Map{}):
			return tftypes.NewValue(t, map[string]tftypes.Value{}), nil
		}
		return tftypes.NewValue(t, nil), nil
	})
	if err != nil {
		return v
	}
	return out
}

func (floor) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func floorAttributes(in map[string]schema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		switch a := a.(type) {
		case schema.StringAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.BoolAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.Int64Attribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.Int32Attribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.Float64Attribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.NumberAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.ListAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.SetAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.MapAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.ObjectAttribute:
			a.PlanModifiers = nil
			out[name] = a
		case schema.ListNestedAttribute:
			a.PlanModifiers = nil
			a.NestedObject.Attributes = floorAttributes(a.NestedObject.Attributes)
			out[name] = a
		case schema.SetNestedAttribute:
			a.PlanModifiers = nil
			a.NestedObject.Attributes = floorAttributes(a.NestedObject.Attributes)
			out[name] = a
		case schema.MapNestedAttribute:
			a.PlanModifiers = nil
			a.NestedObject.Attributes = floorAttributes(a.NestedObject.Attributes)
			out[name] = a
		case schema.SingleNestedAttribute:
			a.PlanModifiers = nil
			a.Attributes = floorAttributes(a.Attributes)
			out[name] = a
		default:
			out[name] = a
		}
	}
	return out
}

func floorBlocks(in map[string]schema.Block) map[string]schema.Block {
	out := make(map[string]schema.Block, len(in))
	for name, b := range in {
		switch b := b.(type) {
		case schema.ListNestedBlock:
			b.PlanModifiers = nil
			b.NestedObject.Attributes = floorAttributes(b.NestedObject.Attributes)
			b.NestedObject.Blocks = floorBlocks(b.NestedObject.Blocks)
			out[name] = b
		case schema.SetNestedBlock:
			b.PlanModifiers = nil
			b.NestedObject.Attributes = floorAttributes(b.NestedObject.Attributes)
			b.NestedObject.Blocks = floorBlocks(b.NestedObject.Blocks)
			out[name] = b
		case schema.SingleNestedBlock:
			b.PlanModifiers = nil
			b.Attributes = floorAttributes(b.Attributes)
			b.Blocks = floorBlocks(b.Blocks)
			out[name] = b
		default:
			out[name] = b
		}
	}
	return out
}
