package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// sampleValue is a value of type t: null, unknown, or known with every
// element and attribute known (depth bounds nesting).
func sampleValue(t tftypes.Type, kind string, depth int) tftypes.Value {
	switch kind {
	case "null":
		return tftypes.NewValue(t, nil)
	case "unknown":
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "x")
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, true)
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, 1)
	case t.Is(tftypes.List{}):
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.(tftypes.List).ElementType, kind, depth+1)})
	case t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.(tftypes.Set).ElementType, kind, depth+1)})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": sampleValue(t.(tftypes.Map).ElementType, kind, depth+1)})
	case t.Is(tftypes.Object{}):
		vals := map[string]tftypes.Value{}
		for name, at := range t.(tftypes.Object).AttributeTypes {
			k := kind
			if depth > 2 {
				k = "null"
			}
			vals[name] = sampleValue(at, k, depth+1)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(t, nil)
}

// The codec reads and writes every resource's model exactly as the
// framework's Get and Set do, for null, unknown and known attributes.
func TestModelCodecMatchesFramework(t *testing.T) {
	ctx := context.Background()
	for _, sr := range servedResources(t) {
		m, ok := sr.res.(interface{ Model() any })
		if !ok {
			t.Errorf("%s: not built on lifecycle", sr.typeName)
			continue
		}
		objType := sr.schema.Type().TerraformType(ctx).(tftypes.Object)
		if !tfkit.HasCodec(ctx, reflect.TypeOf(m.Model()).Elem(), sr.schema.Type) {
			t.Errorf("%s: its model has no codec (the framework's Get and Set serve it, slowly)", sr.typeName)
			continue
		}
		for _, kind := range []string{"null", "unknown", "known"} {
			vals := map[string]tftypes.Value{}
			for name, at := range objType.AttributeTypes {
				vals[name] = sampleValue(at, kind, 0)
			}
			raw := tftypes.NewValue(objType, vals)

			want, got := m.Model(), m.Model()
			st := tfsdk.State{Schema: sr.schema, Raw: raw}
			if d := st.Get(ctx, want); d.HasError() {
				t.Fatalf("%s %s: framework Get: %v", sr.typeName, kind, d)
			}
			if !tfkit.DecodeModel(ctx, sr.schema.Type, raw, got) {
				t.Errorf("%s %s: the codec refused a value the framework reads", sr.typeName, kind)
				continue
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s %s: the codec read\n%#v\nthe framework\n%#v", sr.typeName, kind, got, want)
			}

			out := tfsdk.State{Schema: sr.schema}
			if d := out.Set(ctx, want); d.HasError() {
				t.Fatalf("%s %s: framework Set: %v", sr.typeName, kind, d)
			}
			enc, ok := tfkit.EncodeModel(ctx, sr.schema.Type, want)
			if !ok {
				t.Errorf("%s %s: the codec refused a model the framework writes", sr.typeName, kind)
				continue
			}
			if !enc.Equal(out.Raw) {
				t.Errorf("%s %s: the codec wrote\n%s\nthe framework\n%s", sr.typeName, kind, enc, out.Raw)
			}
		}
	}
}
