package tfkit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Semantic equality at plan time. The framework runs a type's semantic
// equality after Create, Update and Read, never while planning: a
// configuration that spells the state's value otherwise would plan a change.
// KeepSpelling plans the state's value instead (Terraform accepts the prior
// value as the plan of a configured argument, computed or not), so the plan
// is empty and the state keeps its spelling; RequiresReplaceUnlessSame
// replaces the resource only for a change of meaning. Both decide by the
// attribute's type (Spelled, SpelledList, or a set of Spelled elements).

// SameByType reports whether a and b, values of type t, are both wholly
// known and not null, and mean the same: equal, or the same by the semantic
// equality of t's values (Spelled, SpelledList), or for a set, of its
// elements' (each element of one being the same as an element of the other).
func SameByType(ctx context.Context, t attr.Type, a, b tftypes.Value) bool {
	if a.Type() == nil || b.Type() == nil || !a.IsFullyKnown() || !b.IsFullyKnown() || a.IsNull() || b.IsNull() {
		return false
	}
	if a.Equal(b) {
		return true
	}
	if t == nil {
		return false
	}
	if et, ok := t.(attr.TypeWithElementType); ok && a.Type().Is(tftypes.Set{}) && b.Type().Is(tftypes.Set{}) {
		var as, bs []tftypes.Value
		if a.As(&as) != nil || b.As(&bs) != nil {
			return false
		}
		return coveredBy(ctx, et.ElementType(), as, bs) && coveredBy(ctx, et.ElementType(), bs, as)
	}
	av, err := t.ValueFromTerraform(ctx, a)
	if err != nil {
		return false
	}
	bv, err := t.ValueFromTerraform(ctx, b)
	if err != nil {
		return false
	}
	switch x := av.(type) {
	case basetypes.StringValuableWithSemanticEquals:
		if y, ok := bv.(basetypes.StringValuable); ok {
			same, d := x.StringSemanticEquals(ctx, y)
			return same && !d.HasError()
		}
	case basetypes.ListValuableWithSemanticEquals:
		if y, ok := bv.(basetypes.ListValuable); ok {
			same, d := x.ListSemanticEquals(ctx, y)
			return same && !d.HasError()
		}
	}
	return false
}

// coveredBy reports whether every element of as is the same (SameByType) as
// an element of bs.
func coveredBy(ctx context.Context, t attr.Type, as, bs []tftypes.Value) bool {
	for _, a := range as {
		found := false
		for _, b := range bs {
			if SameByType(ctx, t, a, b) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameValues is SameByType of two framework values of type t.
func sameValues(ctx context.Context, t attr.Type, a, b attr.Value) bool {
	av, err := a.ToTerraformValue(ctx)
	if err != nil {
		return false
	}
	bv, err := b.ToTerraformValue(ctx)
	if err != nil {
		return false
	}
	return SameByType(ctx, t, av, bv)
}

// KeepSpelling is the plan modifier of a string, list or set attribute
// whose type has semantic equality: when the planned value (the configured
// one, or the default) means the same as the prior state's, spelt otherwise,
// the state's value is planned, which is no change.
func KeepSpelling() KeepSpellingModifier { return KeepSpellingModifier{} }

// KeepSpellingModifier is KeepSpelling's modifier; it is a planmodifier.String,
// a planmodifier.List and a planmodifier.Set.
type KeepSpellingModifier struct{}

var (
	_ planmodifier.String = KeepSpellingModifier{}
	_ planmodifier.List   = KeepSpellingModifier{}
	_ planmodifier.Set    = KeepSpellingModifier{}
)

func (KeepSpellingModifier) Description(context.Context) string {
	return "A value that means the same as the state's, spelt otherwise, is no change: the state's spelling is kept."
}

func (m KeepSpellingModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

// plansState reports whether the plan should be the state's value.
func plansState(ctx context.Context, t attr.Type, plan, state attr.Value) bool {
	if plan.IsNull() || plan.IsUnknown() || state.IsNull() || state.IsUnknown() || plan.Equal(state) {
		return false
	}
	return sameValues(ctx, t, plan, state)
}

func (KeepSpellingModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if t, d := req.Plan.Schema.TypeAtPath(ctx, req.Path); !d.HasError() && plansState(ctx, t, req.PlanValue, req.StateValue) {
		resp.PlanValue = req.StateValue
	}
}

func (KeepSpellingModifier) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if t, d := req.Plan.Schema.TypeAtPath(ctx, req.Path); !d.HasError() && plansState(ctx, t, req.PlanValue, req.StateValue) {
		resp.PlanValue = req.StateValue
	}
}

func (KeepSpellingModifier) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if t, d := req.Plan.Schema.TypeAtPath(ctx, req.Path); !d.HasError() && plansState(ctx, t, req.PlanValue, req.StateValue) {
		resp.PlanValue = req.StateValue
	}
}

// RequiresReplaceUnlessSame replaces the resource when the planned value
// differs from the state's in meaning, not merely in spelling (by the
// attribute's type); description says so.
func RequiresReplaceUnlessSame(description string) planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		t, d := req.Plan.Schema.TypeAtPath(ctx, req.Path)
		resp.RequiresReplace = d.HasError() || !sameValues(ctx, t, req.PlanValue, req.StateValue)
	}, description, description)
}
