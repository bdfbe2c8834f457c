package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Shared helpers of the privilege resources (grant, default_privileges, grant_role).

// setStrings returns the elements of a string set (nil for null/unknown).
func setStrings(ctx context.Context, s types.Set) []string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var out []string
	s.ElementsAs(ctx, &out, false)
	sort.Strings(out)
	return out
}

func stringSet(v []string) types.Set {
	elems := make([]attr.Value, 0, len(v))
	for _, s := range v {
		elems = append(elems, types.StringValue(s))
	}
	return types.SetValueMust(types.StringType, elems)
}

// emptySetDefault is the schema default of an optional string set whose
// unset and empty spellings mean the same: the attribute is Computed, plans
// [] when unset, and Read records [] for null, so switching between
// `x = []` and leaving x out is never a change.
func emptySetDefault() defaults.Set {
	return setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{}))
}

// emptyIfNull turns a null set into an empty one (see emptySetDefault).
func emptyIfNull(s types.Set) types.Set {
	if s.IsNull() {
		return types.SetValueMust(types.StringType, []attr.Value{})
	}
	return s
}

// sameStrings compares two sorted string slices.
func sameStrings(a, b []string) bool {
	return slices.Equal(a, b) || (len(a) == 0 && len(b) == 0)
}

// privilegesEqual reports whether two privilege lists mean the same for an
// object type (case, TEMP, ALL and order do not matter).
func privilegesEqual(expand func([]string) []string, a, b []string) bool {
	return sameStrings(expand(a), expand(b))
}

// canonicalID renders an import/resource ID: a JSON object with sorted keys
// and sorted lists, so any character in names survives.
func canonicalID(fields map[string]any) string {
	for k, v := range fields {
		if l, ok := v.([]string); ok {
			c := append([]string{}, l...)
			sort.Strings(c)
			if c == nil {
				c = []string{}
			}
			fields[k] = c
		}
	}
	b, _ := json.Marshal(fields) // map keys are sorted by encoding/json
	return string(b)
}

// parseID decodes a JSON import ID into dst, refusing unknown keys.
func parseID(id string, dst any) error {
	dec := json.NewDecoder(strings.NewReader(id))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("the import ID must be a JSON object: %w", err)
	}
	return nil
}

func strOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// intersect returns the elements present in every list.
func intersect(lists [][]string) []string {
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

func union(lists [][]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// serverMajor returns the server's major version, 0 when unknown.
func serverMajor(ctx context.Context, c *pg.Client) int {
	if c == nil || c.Ready() != nil {
		return 0
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return 0
	}
	return caps.ServerVersionNum / 10000
}
