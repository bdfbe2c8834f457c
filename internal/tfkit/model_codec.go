package tfkit

import (
	"context"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A model codec moves a resource model (a struct of framework values tagged
// tfsdk) in and out of the Terraform value of a plan, state or config the way
// tfsdk's Get and Set do, without their reflection: the framework (v1.19)
// walks the model's struct tags on every Get and Set and compiles a regular
// expression for each field as it does (internal/reflect.isValidFieldName), an
// eighth of the provider's CPU in a large plan. A codec is built once per
// model type. Where the framework would do more than convert (a field that is
// not a framework value, a value that validates itself, tags that do not
// match the schema) or a conversion fails, the caller falls back to Get
// and Set, which do it and report the errors.

type codecField struct {
	name   string
	index  []int
	typ    attr.Type
	goType reflect.Type
}

// valid runs the checks of a type that validates its values (the framework's
// list, set, map and int64 types do: duplicate set elements, int64 range), as
// Get and Set do; any diagnostic sends the caller to them, to report it.
func (f codecField) valid(ctx context.Context, v tftypes.Value) bool {
	tv, ok := f.typ.(xattr.TypeWithValidate) //nolint:staticcheck // deprecated, but the framework's own types implement it and Get and Set call it
	return !ok || len(tv.Validate(ctx, v, path.Root(f.name))) == 0
}

type modelCodec struct {
	ok      bool
	fields  []codecField
	objType tftypes.Type
}

var (
	attrValueType   = reflect.TypeOf((*attr.Value)(nil)).Elem()
	validateableAtt = reflect.TypeOf((*xattr.ValidateableAttribute)(nil)).Elem()
	codecs          sync.Map // reflect.Type of the model -> *modelCodec
)

// HasCodec reports whether model type t has a codec for the object type of
// the resource's schema (false: the framework's Get and Set serve it).
func HasCodec(ctx context.Context, t reflect.Type, schemaType func() attr.Type) bool {
	return codecFor(ctx, t, schemaType).ok
}

// codecFor returns the codec of model type t for the object type of the
// resource's schema (asked for once: each resource has a model type of its
// own; a value of another type is refused by DecodeModel, and by Set).
func codecFor(ctx context.Context, t reflect.Type, schemaType func() attr.Type) *modelCodec {
	if c, ok := codecs.Load(t); ok {
		return c.(*modelCodec)
	}
	c := buildCodec(ctx, t, schemaType())
	codecs.Store(t, c)
	return c
}

func buildCodec(ctx context.Context, t reflect.Type, schemaType attr.Type) *modelCodec {
	no := &modelCodec{}
	ot, ok := schemaType.(attr.TypeWithAttributeTypes)
	if !ok || t.Kind() != reflect.Struct {
		return no
	}
	attrs := ot.AttributeTypes()
	c := &modelCodec{ok: true, objType: schemaType.TerraformType(ctx)}
	seen := map[string]bool{}
	var walk func(t reflect.Type, prefix []int) bool
	walk = func(t reflect.Type, prefix []int) bool {
		for i := range t.NumField() {
			f := t.Field(i)
			index := append(append([]int(nil), prefix...), i)
			tag, tagged := f.Tag.Lookup("tfsdk")
			switch {
			case tag == "-":
				continue
			case f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct:
				if !walk(f.Type, index) {
					return false
				}
				continue
			case !f.IsExported():
				continue
			case !tagged || seen[tag]:
				return false
			}
			typ, inSchema := attrs[tag]
			if !inSchema || !f.Type.Implements(attrValueType) || f.Type.Kind() == reflect.Interface ||
				f.Type.Implements(validateableAtt) {
				return false
			}
			seen[tag] = true
			c.fields = append(c.fields, codecField{name: tag, index: index, typ: typ, goType: f.Type})
		}
		return true
	}
	if !walk(t, nil) || len(c.fields) != len(attrs) {
		return no
	}
	return c
}

// DecodeModel reads raw into *target (a pointer to a model struct). It returns
// false, having possibly set some fields, when the caller must use Get.
func DecodeModel(ctx context.Context, schemaType func() attr.Type, raw tftypes.Value, target any) bool {
	rv := reflect.ValueOf(target)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || !raw.IsKnown() || raw.IsNull() {
		return false
	}
	c := codecFor(ctx, rv.Elem().Type(), schemaType)
	if !c.ok || !raw.Type().Equal(c.objType) {
		return false
	}
	var vals map[string]tftypes.Value
	if raw.As(&vals) != nil {
		return false
	}
	s := rv.Elem()
	for _, f := range c.fields {
		v, err := f.typ.ValueFromTerraform(ctx, vals[f.name])
		if err != nil || v == nil || reflect.TypeOf(v) != f.goType || !f.valid(ctx, vals[f.name]) {
			return false
		}
		s.FieldByIndex(f.index).Set(reflect.ValueOf(v))
	}
	return true
}

// EncodeModel is the Terraform value of *model; false when the caller must
// use Set.
func EncodeModel(ctx context.Context, schemaType func() attr.Type, model any) (tftypes.Value, bool) {
	rv := reflect.ValueOf(model)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return tftypes.Value{}, false
	}
	c := codecFor(ctx, rv.Elem().Type(), schemaType)
	if !c.ok {
		return tftypes.Value{}, false
	}
	s := rv.Elem()
	vals := make(map[string]tftypes.Value, len(c.fields))
	for _, f := range c.fields {
		av, _ := s.FieldByIndex(f.index).Interface().(attr.Value)
		if av == nil || !f.typ.TerraformType(ctx).Equal(av.Type(ctx).TerraformType(ctx)) {
			return tftypes.Value{}, false
		}
		tv, err := av.ToTerraformValue(ctx)
		if err != nil || !f.valid(ctx, tv) {
			return tftypes.Value{}, false
		}
		vals[f.name] = tv
	}
	if tftypes.ValidateValue(c.objType, vals) != nil {
		return tftypes.Value{}, false
	}
	return tftypes.NewValue(c.objType, vals), true
}

// GetInto is Get of a plan, state or config (get) into target, through the
// codec when it can.
func GetInto(ctx context.Context, schemaType func() attr.Type, raw tftypes.Value, target any, get func(context.Context, any) diag.Diagnostics) diag.Diagnostics {
	if DecodeModel(ctx, schemaType, raw, target) {
		return nil
	}
	return get(ctx, target)
}

// SetFrom is Set of a plan or state (set) from model, through the codec when
// it can (Set of a Terraform value only checks its type).
func SetFrom(ctx context.Context, schemaType func() attr.Type, model any, set func(context.Context, any) diag.Diagnostics) diag.Diagnostics {
	if v, ok := EncodeModel(ctx, schemaType, model); ok {
		if d := set(ctx, v); !d.HasError() {
			return d
		}
	}
	return set(ctx, model)
}
