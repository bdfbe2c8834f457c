package provider

import (
	"context"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The benchmark's floor serves every resource with the same state type and
// version (so it plans the real provider's state) and no plan modifiers.
func TestFloorResourceSchemas(t *testing.T) {
	ctx := context.Background()
	for _, sr := range servedResources(t) {
		f := floorResource(func() resource.Resource { return sr.res })()
		var s resource.SchemaResponse
		f.Schema(ctx, resource.SchemaRequest{}, &s)
		if !s.Schema.Type().Equal(sr.schema.Type()) || s.Schema.Version != sr.schema.Version {
			t.Errorf("%s: the floor's schema differs in type or version", sr.typeName)
		}
		var walk func(path string, attrs map[string]schema.Attribute)
		walk = func(path string, attrs map[string]schema.Attribute) {
			for name, a := range attrs {
				n := 0
				switch a := a.(type) {
				case schema.StringAttribute:
					n = len(a.PlanModifiers)
				case schema.BoolAttribute:
					n = len(a.PlanModifiers)
				case schema.Int64Attribute:
					n = len(a.PlanModifiers)
				case schema.ListAttribute:
					n = len(a.PlanModifiers)
				case schema.SetAttribute:
					n = len(a.PlanModifiers)
				case schema.MapAttribute:
					n = len(a.PlanModifiers)
				case schema.SetNestedAttribute:
					walk(path+name+".", a.NestedObject.Attributes)
				case schema.ListNestedAttribute:
					walk(path+name+".", a.NestedObject.Attributes)
				}
				if n > 0 {
					t.Errorf("%s: %s%s keeps its plan modifiers", sr.typeName, path, name)
				}
			}
		}
		walk("", s.Schema.Attributes)
		if _, ok := f.(resource.ResourceWithModifyPlan); ok {
			t.Errorf("%s: the floor has a ModifyPlan", sr.typeName)
		}
	}
}

// The floor's apply leaves nothing unknown: zero values of each type, known values kept.
func TestFloorKnownFillsUnknowns(t *testing.T) {
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"s": tftypes.String, "n": tftypes.Number, "b": tftypes.Bool, "l": tftypes.List{ElementType: tftypes.String}, "k": tftypes.String,
	}}
	unknown := func(ty tftypes.Type) tftypes.Value { return tftypes.NewValue(ty, tftypes.UnknownValue) }
	got := floorKnown(tftypes.NewValue(obj, map[string]tftypes.Value{
		"s": unknown(tftypes.String), "n": unknown(tftypes.Number), "b": unknown(tftypes.Bool),
		"l": unknown(tftypes.List{ElementType: tftypes.String}), "k": tftypes.NewValue(tftypes.String, "kept"),
	}))
	want := tftypes.NewValue(obj, map[string]tftypes.Value{
		"s": tftypes.NewValue(tftypes.String, ""), "n": tftypes.NewValue(tftypes.Number, new(big.Float)),
		"b": tftypes.NewValue(tftypes.Bool, false), "l": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{}),
		"k": tftypes.NewValue(tftypes.String, "kept"),
	})
	if !got.Equal(want) {
		t.Fatalf("floorKnown: got %v, want %v", got, want)
	}
}
