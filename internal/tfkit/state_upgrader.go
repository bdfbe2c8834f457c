package tfkit

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NoPriorLayout is the UpgradeState of a resource type that is new:
// cyrilgdn/postgresql has no such type, so no state of an earlier schema
// version exists and there is nothing to upgrade from.
type NoPriorLayout struct{}

func (NoPriorLayout) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

// UpgradeFromV0 is the version-0 state upgrader of a resource: it reads a
// state in cyrilgdn/postgresql 1.26's layout into Old and writes what convert
// makes of it. The prior schema is derived from Old (see PriorSchema), less
// the attributes named in added: those this provider added to cyrilgdn's
// layout, which Old reads as null. So Old is the resource's own model
// wherever cyrilgdn's layout is that model's attributes or a subset of them.
func UpgradeFromV0[Old, New any](convert func(Old) New, added ...string) resource.StateUpgrader {
	return UpgradeFromV0Diag(func(_ context.Context, old Old) (New, diag.Diagnostics) {
		return convert(old), nil
	}, added...)
}

// UpgradeFromV0Diag is UpgradeFromV0 for conversions that need a context or
// can fail.
func UpgradeFromV0Diag[Old, New any](convert func(context.Context, Old) (New, diag.Diagnostics), added ...string) resource.StateUpgrader {
	return upgradeFromV0(func(ctx context.Context, old Old, _ *tfprotov6.RawState) (New, diag.Diagnostics) {
		return convert(ctx, old)
	}, added...)
}

// UpgradeFromV0Keys is UpgradeFromV0 for a conversion that needs to know
// which attributes the prior state holds at all: present reports whether the
// state's JSON has the key (a key it lacks reads as null, as does a null one).
// Releases of cyrilgdn/postgresql all wrote schema version 0, so the keys are
// how an upgrader tells which release wrote a state: an attribute added in a
// release is missing from every state of an earlier one.
func UpgradeFromV0Keys[Old, New any](convert func(old Old, present func(attr string) bool) New, added ...string) resource.StateUpgrader {
	return upgradeFromV0(func(_ context.Context, old Old, raw *tfprotov6.RawState) (New, diag.Diagnostics) {
		var diags diag.Diagnostics
		keys := map[string]json.RawMessage{}
		if raw != nil && raw.JSON != nil {
			if err := json.Unmarshal(raw.JSON, &keys); err != nil {
				diags.AddError("Unreadable prior state", err.Error())
			}
		}
		return convert(old, func(attr string) bool { _, ok := keys[attr]; return ok }), diags
	}, added...)
}

func upgradeFromV0[Old, New any](convert func(context.Context, Old, *tfprotov6.RawState) (New, diag.Diagnostics), added ...string) resource.StateUpgrader {
	full := PriorSchema(reflect.TypeFor[Old]())
	return resource.StateUpgrader{
		PriorSchema: PriorSchema(reflect.TypeFor[Old](), added...),
		StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			state := *req.State
			if len(added) > 0 {
				var err error
				if state, err = withNullAttributes(ctx, state, full); err != nil {
					resp.Diagnostics.AddError("Unreadable prior state", err.Error())
					return
				}
			}
			var old Old
			resp.Diagnostics.Append(state.Get(ctx, &old)...)
			if resp.Diagnostics.HasError() {
				return
			}
			m, diags := convert(ctx, old, req.RawState)
			resp.Diagnostics.Append(diags...)
			if resp.Diagnostics.HasError() {
				return
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
		},
	}
}

// withNullAttributes is state in schema s, a superset of state's own: the
// attributes state lacks are null.
func withNullAttributes(ctx context.Context, state tfsdk.State, s *schema.Schema) (tfsdk.State, error) {
	var vals map[string]tftypes.Value
	if err := state.Raw.As(&vals); err != nil {
		return state, err
	}
	for name, a := range s.Attributes {
		if _, ok := vals[name]; !ok {
			vals[name] = tftypes.NewValue(a.GetType().TerraformType(ctx), nil)
		}
	}
	return tfsdk.State{Schema: *s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), vals)}, nil
}

// PriorSchema derives the schema of a prior state layout from the model that
// reads it. Reading a prior state needs only the types, so every attribute is
// optional: types.String, types.Bool and types.Int64 fields are attributes of
// those types (a Spelled field a string of its type); types.Set, types.List and types.Map fields hold strings (every
// collection of cyrilgdn's layouts does); a slice of structs is a nested
// block, a list unless the field is tagged `prior:"set"`. The attributes
// named in without are left out (each must be one of t's).
func PriorSchema(t reflect.Type, without ...string) *schema.Schema {
	attrs, blocks := priorFields(t)
	for _, name := range without {
		if _, ok := attrs[name]; !ok {
			panic(fmt.Sprintf("PriorSchema: %s has no attribute %q", t.Name(), name))
		}
		delete(attrs, name)
	}
	return &schema.Schema{Attributes: attrs, Blocks: blocks}
}

func priorFields(t reflect.Type) (map[string]schema.Attribute, map[string]schema.Block) {
	attrs := map[string]schema.Attribute{}
	var blocks map[string]schema.Block
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("tfsdk")
		if name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct {
			// an embedded struct: its attributes are the model's (as tfsdk reads them)
			embedded, _ := priorFields(f.Type)
			maps.Copy(attrs, embedded)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		switch f.Type {
		case reflect.TypeFor[types.String]():
			attrs[name] = schema.StringAttribute{Optional: true}
		case reflect.TypeFor[types.Bool]():
			attrs[name] = schema.BoolAttribute{Optional: true}
		case reflect.TypeFor[types.Int64]():
			attrs[name] = schema.Int64Attribute{Optional: true}
		case reflect.TypeFor[types.Set]():
			attrs[name] = schema.SetAttribute{ElementType: types.StringType, Optional: true}
		case reflect.TypeFor[types.List]():
			attrs[name] = schema.ListAttribute{ElementType: types.StringType, Optional: true}
		case reflect.TypeFor[types.Map]():
			attrs[name] = schema.MapAttribute{ElementType: types.StringType, Optional: true}
		default:
			if st, ok := spelledType(f.Type); ok {
				attrs[name] = schema.StringAttribute{Optional: true, CustomType: st}
				continue
			}
			if f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Struct {
				panic(fmt.Sprintf("PriorSchema: %s.%s is a %s, which no prior state layout holds", t.Name(), f.Name, f.Type))
			}
			nested, _ := priorFields(f.Type.Elem())
			obj := schema.NestedBlockObject{Attributes: nested}
			if blocks == nil {
				blocks = map[string]schema.Block{}
			}
			if f.Tag.Get("prior") == "set" {
				blocks[name] = schema.SetNestedBlock{NestedObject: obj}
			} else {
				blocks[name] = schema.ListNestedBlock{NestedObject: obj}
			}
		}
	}
	return attrs, blocks
}

// spelledType is the string type of a model field of a custom string type
// (Spelled): the type of its zero value.
func spelledType(t reflect.Type) (basetypes.StringTypable, bool) {
	if !t.Implements(reflect.TypeFor[basetypes.StringValuable]()) || t.Kind() != reflect.Struct {
		return nil, false
	}
	v, ok := reflect.Zero(t).Interface().(basetypes.StringValuable)
	if !ok {
		return nil, false
	}
	st, ok := v.Type(context.Background()).(basetypes.StringTypable)
	return st, ok
}
