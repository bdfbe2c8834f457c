package tfkit

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestPriorSchemaFromModel(t *testing.T) {
	type item struct {
		Role types.String `tfsdk:"role"`
		On   types.Bool   `tfsdk:"on"`
	}
	type layout struct {
		ID      types.String `tfsdk:"id"`
		Count   types.Int64  `tfsdk:"count"`
		Tags    types.Set    `tfsdk:"tags"`
		Path    types.List   `tfsdk:"path"`
		Options types.Map    `tfsdk:"options"`
		Args    []item       `tfsdk:"arg"`
		Policy  []item       `tfsdk:"policy" prior:"set"`
		skipped int
	}
	_ = layout{}.skipped
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"role": tftypes.String, "on": tftypes.Bool}}
	want := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id":      tftypes.String,
		"count":   tftypes.Number,
		"tags":    tftypes.Set{ElementType: tftypes.String},
		"path":    tftypes.List{ElementType: tftypes.String},
		"options": tftypes.Map{ElementType: tftypes.String},
		"arg":     tftypes.List{ElementType: obj},
		"policy":  tftypes.Set{ElementType: obj},
	}}
	got := PriorSchema(reflect.TypeFor[layout]()).Type().TerraformType(context.Background())
	if !got.Equal(want) {
		t.Fatalf("prior schema type:\n got %s\nwant %s", got, want)
	}
}

func TestPriorSchemaRejectsUnknownFieldTypes(t *testing.T) {
	type layout struct {
		N types.Float64 `tfsdk:"n"`
	}
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a field type no prior layout holds")
		}
	}()
	PriorSchema(reflect.TypeFor[layout]())
}
