package tfkit

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Unit tests of the skeleton's handling of "" as unset (issue 30).

var emptyTestType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"owner": tftypes.String, "name": tftypes.String}}

func emptyTestObj(owner, name any) tftypes.Value {
	return tftypes.NewValue(emptyTestType, map[string]tftypes.Value{
		"owner": tftypes.NewValue(tftypes.String, owner), "name": tftypes.NewValue(tftypes.String, name),
	})
}

func TestPresentEmptyAsUnset(t *testing.T) {
	attrs := []emptyAttr{{name: "owner", computed: true}}
	// create: "" is unset, planned unknown (what unset means is read after create)
	cfg, plan, set := presentEmptyAsUnset(attrs, emptyTestObj("", "a"), emptyTestObj("", "a"), tftypes.NewValue(emptyTestType, nil))
	if len(set) != 1 || !cfg.Equal(emptyTestObj(nil, "a")) || !plan.Equal(emptyTestObj(tftypes.UnknownValue, "a")) {
		t.Errorf("create: config %v, plan %v, set %v", cfg, plan, set)
	}
	// update: the state's value is planned
	_, plan, _ = presentEmptyAsUnset(attrs, emptyTestObj("", "a"), emptyTestObj("", "a"), emptyTestObj("bob", "a"))
	if !plan.Equal(emptyTestObj("bob", "a")) {
		t.Errorf("update: plan %v", plan)
	}
	// nothing configured "": unchanged
	in := emptyTestObj("carol", "a")
	if _, plan, set := presentEmptyAsUnset(attrs, in, in, emptyTestObj("bob", "a")); set != nil || !plan.Equal(in) {
		t.Errorf("configured value: plan %v, set %v", plan, set)
	}
}

func TestSettleEmptyPlan(t *testing.T) {
	attrs := []emptyAttr{{name: "owner", computed: true}}
	owner := path.Root("owner")
	for _, tc := range []struct {
		what              string
		planned, state    tftypes.Value
		want              tftypes.Value
		replaceKept       bool
		requiresReplaceIn bool
	}{
		{"create", emptyTestObj(tftypes.UnknownValue, "a"), tftypes.NewValue(emptyTestType, nil), emptyTestObj("", "a"), true, true},
		{"state is what unset means", emptyTestObj("bob", "a"), emptyTestObj("bob", "a"), emptyTestObj("bob", "a"), false, true},
		{"state recorded \"\" at create", emptyTestObj("bob", "a"), emptyTestObj("", "a"), emptyTestObj("", "a"), false, true},
		{"a change to what unset means", emptyTestObj(tftypes.UnknownValue, "a"), emptyTestObj("carol", "a"), emptyTestObj("", "a"), true, true},
	} {
		rr := path.Paths{}
		if tc.requiresReplaceIn {
			rr = append(rr, owner)
		}
		got := settleEmptyPlan(context.Background(), attrs, tc.planned, tc.state, &rr)
		if !got.Equal(tc.want) {
			t.Errorf("%s: planned %v, want %v", tc.what, got, tc.want)
		}
		if kept := rr.Contains(owner); kept != tc.replaceKept {
			t.Errorf("%s: replacement kept %v, want %v", tc.what, kept, tc.replaceKept)
		}
	}
}

// An argument configured "" whose unset meaning (its default) is the state's
// value spelt otherwise plans the state's value: no change (the function's
// language "" over a state "PLPGSQL").
func TestSettleEmptyPlan_spelling(t *testing.T) {
	attrs := []emptyAttr{{name: "owner", computed: true, typ: SpelledType[CaseInsensitive]{}}}
	rr := path.Paths{path.Root("owner")}
	got := settleEmptyPlan(context.Background(), attrs, emptyTestObj("plpgsql", "a"), emptyTestObj("PLPGSQL", "a"), &rr)
	if want := emptyTestObj("PLPGSQL", "a"); !got.Equal(want) || rr.Contains(path.Root("owner")) {
		t.Errorf("planned %v (replace %v), want %v and no replacement", got, rr, want)
	}
	// another value is a change to what unset means
	got = settleEmptyPlan(context.Background(), attrs, emptyTestObj("plpgsql", "a"), emptyTestObj("sql", "a"), &rr)
	if want := emptyTestObj("", "a"); !got.Equal(want) {
		t.Errorf("planned %v, want %v", got, want)
	}
}
