package tfkit

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Values that PostgreSQL (or the provider) reads the same however they are
// spelt — a keyword in any letter case, `int` for `integer`, `utf8` for
// `UTF8` — are values of a custom type whose semantic equality says so, as
// the framework intends (custom types with semantic equality): the comparison
// is declared once, by the type, and the attributes that hold such values
// use the type (CustomType in the schema, the value type in the model). The
// attribute's Terraform type stays a string (a list for SpelledList): the
// schema Terraform sees does not change.
//
// The framework keeps the prior spelling after Create, Update and Read when
// the new value means the same (so a read records what the server has, and
// the state keeps the configured spelling). It does not compare spellings at
// plan time: KeepSpelling (spelling_plan.go) does, per attribute.
//
// A type is parameterised by its Spelling, a zero-size type whose method
// decides; those that need PostgreSQL's rules (type names, expressions) are
// declared where those rules are known (internal/provider/spellings.go).

// Spelling decides whether two spellings of a string value mean the same.
type Spelling interface {
	// Same reports whether a and b (known, not null) mean the same. It must
	// be reflexive and symmetric; false means "not known to be the same".
	Same(a, b string) bool
}

// ListSpelling decides whether two lists mean the same.
type ListSpelling interface {
	// Same reports whether a and b (known, not null) mean the same.
	Same(ctx context.Context, a, b basetypes.ListValue) bool
}

// CaseInsensitive is the Spelling of an SQL keyword or a name PostgreSQL
// folds: any letter case is the same.
type CaseInsensitive struct{}

func (CaseInsensitive) Same(a, b string) bool { return strings.EqualFold(a, b) }

var (
	_ basetypes.StringTypable                    = SpelledType[CaseInsensitive]{}
	_ basetypes.StringValuableWithSemanticEquals = Spelled[CaseInsensitive]{}
)

// SpelledType is the string type whose values are Spelled[S].
type SpelledType[S Spelling] struct {
	basetypes.StringType
}

func (t SpelledType[S]) Equal(o attr.Type) bool {
	_, ok := o.(SpelledType[S])
	return ok
}

func (t SpelledType[S]) String() string {
	var s S
	return fmt.Sprintf("tfkit.SpelledType[%T]", s)
}

func (t SpelledType[S]) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return Spelled[S]{StringValue: in}, nil
}

func (t SpelledType[S]) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	sv, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected value type %T", t, v)
	}
	return Spelled[S]{StringValue: sv}, nil
}

func (t SpelledType[S]) ValueType(context.Context) attr.Value { return Spelled[S]{} }

// Spelled is a string whose spellings mean the same when S says so.
type Spelled[S Spelling] struct {
	basetypes.StringValue
}

func (v Spelled[S]) Type(context.Context) attr.Type { return SpelledType[S]{} }

// Equal is exact equality (the framework's): the same state and spelling.
func (v Spelled[S]) Equal(o attr.Value) bool {
	other, ok := o.(Spelled[S])
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals reports whether the known values v and o mean the same.
func (v Spelled[S]) StringSemanticEquals(ctx context.Context, o basetypes.StringValuable) (bool, diag.Diagnostics) {
	other, ok := o.(Spelled[S])
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Semantic equality error", fmt.Sprintf("%s compared with a value of type %T", v.Type(ctx), o))
		return false, diags
	}
	return v.SameAs(other.StringValue), nil
}

// SameAs reports whether v and o are both known and mean the same (for a
// read that must know whether it keeps v's spelling: a value derived from it,
// or a record of it, depends on the answer).
func (v Spelled[S]) SameAs(o basetypes.StringValue) bool {
	if !knownString(v.StringValue) || !knownString(o) {
		return false
	}
	var s S
	return v.ValueString() == o.ValueString() || s.Same(v.ValueString(), o.ValueString())
}

func knownString(v basetypes.StringValue) bool { return !v.IsNull() && !v.IsUnknown() }

var (
	_ basetypes.ListTypable                    = SpelledListType[nopListSpelling]{}
	_ basetypes.ListValuableWithSemanticEquals = SpelledList[nopListSpelling]{}
)

type nopListSpelling struct{}

func (nopListSpelling) Same(context.Context, basetypes.ListValue, basetypes.ListValue) bool {
	return false
}

// SpelledListType is the list type whose values are SpelledList[S]; ElemType
// is the type of its elements (a nested block's object type).
type SpelledListType[S ListSpelling] struct {
	basetypes.ListType
}

func (t SpelledListType[S]) Equal(o attr.Type) bool {
	other, ok := o.(SpelledListType[S])
	return ok && t.ListType.Equal(other.ListType)
}

func (t SpelledListType[S]) String() string {
	var s S
	return fmt.Sprintf("tfkit.SpelledListType[%T](%s)", s, t.ListType)
}

func (t SpelledListType[S]) ValueFromList(_ context.Context, in basetypes.ListValue) (basetypes.ListValuable, diag.Diagnostics) {
	return SpelledList[S]{ListValue: in}, nil
}

func (t SpelledListType[S]) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.ListType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	lv, ok := v.(basetypes.ListValue)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected value type %T", t, v)
	}
	return SpelledList[S]{ListValue: lv}, nil
}

func (t SpelledListType[S]) ValueType(context.Context) attr.Value {
	return SpelledList[S]{ListValue: basetypes.NewListNull(t.ElemType)}
}

// SpelledList is a list whose spellings mean the same when S says so.
type SpelledList[S ListSpelling] struct {
	basetypes.ListValue
}

func (v SpelledList[S]) Type(ctx context.Context) attr.Type {
	return SpelledListType[S]{ListType: basetypes.ListType{ElemType: v.ElementType(ctx)}}
}

func (v SpelledList[S]) Equal(o attr.Value) bool {
	other, ok := o.(SpelledList[S])
	return ok && v.ListValue.Equal(other.ListValue)
}

func (v SpelledList[S]) ListSemanticEquals(ctx context.Context, o basetypes.ListValuable) (bool, diag.Diagnostics) {
	other, ok := o.(SpelledList[S])
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Semantic equality error", fmt.Sprintf("%s compared with a value of type %T", v.Type(ctx), o))
		return false, diags
	}
	return v.SameAs(ctx, other), nil
}

// SameAs reports whether v and o are both known and mean the same.
func (v SpelledList[S]) SameAs(ctx context.Context, o SpelledList[S]) bool {
	if v.IsNull() || v.IsUnknown() || o.IsNull() || o.IsUnknown() {
		return false
	}
	var s S
	return v.ListValue.Equal(o.ListValue) || s.Same(ctx, v.ListValue, o.ListValue)
}
