package tfkit

import (
	"context"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Conversions between Terraform values and Go values shared by resources and
// data sources.

// SetStrings returns the elements of a string set (nil for null/unknown).
func SetStrings(ctx context.Context, s types.Set) []string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var out []string
	s.ElementsAs(ctx, &out, false)
	sort.Strings(out)
	return out
}

func StringSet(v []string) types.Set {
	elems := make([]attr.Value, 0, len(v))
	for _, s := range v {
		elems = append(elems, types.StringValue(s))
	}
	return types.SetValueMust(types.StringType, elems)
}

func ListStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	var out []string
	if !l.IsNull() && !l.IsUnknown() {
		diags.Append(l.ElementsAs(ctx, &out, false)...)
	}
	return out
}

func StringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// SameStrings compares two sorted string slices.
func SameStrings(a, b []string) bool {
	return slices.Equal(a, b) || (len(a) == 0 && len(b) == 0)
}

// OptionsFromTF converts an options map to Go (nil for a null map).
func OptionsFromTF(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	if m.IsNull() || m.IsUnknown() {
		return map[string]string{}
	}
	out := map[string]string{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

// OptionsToTF reports the server's options, keeping a null map when the
// server has none and the state had none (cyrilgdn wrote null, then {}).
func OptionsToTF(ctx context.Context, have map[string]string, prior types.Map, diags *diag.Diagnostics) types.Map {
	if len(have) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.MapNull(types.StringType)
	}
	m, d := types.MapValueFrom(ctx, types.StringType, have)
	diags.Append(d...)
	return m
}

// Intersect returns the elements present in every list.
func Intersect(lists [][]string) []string {
	if len(lists) == 0 {
		return nil
	}
	out := append([]string{}, lists[0]...)
	for _, l := range lists[1:] {
		out = slices.DeleteFunc(out, func(s string) bool { return !slices.Contains(l, s) })
	}
	sort.Strings(out)
	return out
}

func Union(lists [][]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	sort.Strings(out)
	return slices.Compact(out)
}
