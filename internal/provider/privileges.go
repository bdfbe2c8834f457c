package provider

import (
	"encoding/json"
	"sort"
)

// Helpers shared by postgresql_grant and postgresql_default_privileges.

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
