package tfkit

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// `""` as unset. cyrilgdn/postgresql, built on terraform-plugin-sdk v2, could
// not tell an empty string from an unset argument, and configurations rely
// on it (a module variable defaulting to ""). An argument marked so
// (Hooks.EmptyIsUnset) gets that meaning; the skeleton does it for every
// resource, in three places:
//
//   - ModifyPlan (presentEmptyAsUnset, settleEmptyPlan): the resource's
//     PlanChange sees the argument unset, so it plans what unset means; then,
//     on update, the state's value is planned when that is what unset means
//     (Terraform accepts the prior value in place of a configured one), and
//     "" otherwise (a change to what unset means); on create "" is planned,
//     as Terraform requires, and the resource's CreateObject reads "" as
//     unset.
//   - Create and Update (keepPlannedEmpty): the read-back keeps the planned
//     "" (Terraform requires it), whatever the resource read.
//   - Read: the resource's ReadObject records what the server has, so the
//     next plan compares with it.

// emptyAttr is a string argument marked by Hooks.EmptyIsUnset.
type emptyAttr struct {
	name     string
	computed bool
	def      *tftypes.Value // the schema default, planned when unset
	typ      attr.Type      // its type (a Spelled type, or a string)
}

var emptyAttrsByKind sync.Map // resource kind -> []emptyAttr

// emptyAttrs lists the arguments of the resource marked by Hooks.EmptyIsUnset.
func (l Lifecycle[M]) emptyAttrs() []emptyAttr {
	if l.schema == nil || l.hooks.EmptyIsUnset == nil {
		return nil
	}
	if v, ok := emptyAttrsByKind.Load(l.kind); ok {
		return v.([]emptyAttr)
	}
	out := emptyAttrsOf(l.schema(), l.hooks.EmptyIsUnset)
	emptyAttrsByKind.Store(l.kind, out)
	return out
}

func emptyAttrsOf(s schema.Schema, marked func(planmodifier.String) bool) []emptyAttr {
	out := []emptyAttr{}
	for name, a := range s.Attributes {
		sa, ok := a.(schema.StringAttribute)
		if !ok || !slices.ContainsFunc(sa.PlanModifiers, marked) {
			continue
		}
		e := emptyAttr{name: name, computed: sa.Computed, typ: sa.GetType()}
		if sa.Default != nil {
			var resp defaults.StringResponse
			sa.Default.DefaultString(context.Background(), defaults.StringRequest{Path: path.Root(name)}, &resp)
			if !resp.PlanValue.IsNull() && !resp.PlanValue.IsUnknown() {
				v := tftypes.NewValue(tftypes.String, resp.PlanValue.ValueString())
				e.def = &v
			}
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// isEmptyString tells whether v is the known string "".
func isEmptyString(v tftypes.Value) bool {
	var s string
	return v.Type() != nil && v.Type().Is(tftypes.String) && v.IsKnown() && !v.IsNull() && v.As(&s) == nil && s == ""
}

var (
	tfNullString  = tftypes.NewValue(tftypes.String, nil)
	tfEmptyString = tftypes.NewValue(tftypes.String, "")
)

// presentEmptyAsUnset returns the configuration and the proposed plan as the
// resource's PlanChange is to see them: the arguments of attrs configured ""
// unset (null in the configuration; in the plan their default, else the
// state's value on update, else unknown or null as Terraform proposes an
// unset argument), and which they are. On update, when nothing but those ""
// differs from the state, the values the framework made unknown because of
// them (computed arguments left unset, which it marks unknown when anything
// changes) are the state's again.
func presentEmptyAsUnset(attrs []emptyAttr, config, plan, state tftypes.Value) (tftypes.Value, tftypes.Value, []emptyAttr) {
	var c, p, s map[string]tftypes.Value
	if len(attrs) == 0 || config.As(&c) != nil || plan.As(&p) != nil || (!state.IsNull() && state.As(&s) != nil) {
		return config, plan, nil
	}
	var set []emptyAttr
	for _, a := range attrs {
		if !isEmptyString(c[a.name]) {
			continue
		}
		set = append(set, a)
		c[a.name] = tfNullString
		switch {
		case a.def != nil:
			p[a.name] = *a.def
		case !a.computed:
			p[a.name] = tfNullString
		case s != nil:
			p[a.name] = s[a.name]
		default:
			p[a.name] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
	}
	if len(set) == 0 {
		return config, plan, nil
	}
	config = tftypes.NewValue(config.Type(), c)
	plan = tftypes.NewValue(plan.Type(), p)
	if s != nil {
		if known := unknownFromState(plan, config, state); known.Equal(state) {
			plan = known
		}
	}
	return config, plan, set
}

// unknownFromState replaces the unknown values of plan that config leaves
// unset with the state's.
func unknownFromState(plan, config, state tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if cv, ok := valueAt(config, p); ok && !cv.IsNull() {
			return v, nil
		}
		if sv, ok := valueAt(state, p); ok && sv.IsFullyKnown() {
			return sv, nil
		}
		return v, nil
	})
	if err != nil {
		return plan
	}
	return out
}

// valueAt is the value of v at p.
func valueAt(v tftypes.Value, p *tftypes.AttributePath) (tftypes.Value, bool) {
	got, rest, err := tftypes.WalkAttributePath(v, p)
	if err != nil || len(rest.Steps()) > 0 {
		return tftypes.Value{}, false
	}
	tv, ok := got.(tftypes.Value)
	return tv, ok
}

// settleEmptyPlan settles, after PlanChange, the planned values of the
// arguments configured "" (set): the state's value when PlanChange planned
// it or the same spelt otherwise (SameByType; a replacement it would require
// is then none), "" otherwise.
func settleEmptyPlan(ctx context.Context, set []emptyAttr, plan, state tftypes.Value, requiresReplace *path.Paths) tftypes.Value {
	var p, s map[string]tftypes.Value
	if len(set) == 0 || plan.As(&p) != nil || (!state.IsNull() && state.As(&s) != nil) {
		return plan
	}
	for _, a := range set {
		if s != nil {
			if sv := s[a.name]; sv.IsKnown() && !sv.IsNull() && (SameByType(ctx, a.typ, p[a.name], sv) || isEmptyString(sv)) {
				// the state's value: what unset means, or "" as created
				p[a.name] = sv
				*requiresReplace = slices.DeleteFunc(*requiresReplace, func(x path.Path) bool { return x.Equal(path.Root(a.name)) })
				continue
			}
		}
		p[a.name] = tfEmptyString
	}
	return tftypes.NewValue(plan.Type(), p)
}

// keepPlannedEmpty sets back to "" in state the arguments of attrs that plan
// has "" (a read-back records what the server has).
func keepPlannedEmpty(attrs []emptyAttr, plan tftypes.Value, state *tfsdk.State) {
	var p, s map[string]tftypes.Value
	if len(attrs) == 0 || state.Raw.IsNull() || plan.As(&p) != nil || state.Raw.As(&s) != nil {
		return
	}
	changed := false
	for _, a := range attrs {
		if isEmptyString(p[a.name]) && !isEmptyString(s[a.name]) {
			s[a.name] = tfEmptyString
			changed = true
		}
	}
	if changed {
		state.Raw = tftypes.NewValue(state.Raw.Type(), s)
	}
}
