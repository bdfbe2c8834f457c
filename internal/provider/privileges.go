package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// planPrivileges plans the privileges (picked from a model by privs) of a
// grant or of default privileges on objectType (planned): it checks them
// against those valid on the server's major version (valid; no check when the
// version is unknown, major 0) and, on an update, keeps the state's spelling
// of the same privileges (expand resolves ALL and aliases to compare them).
func planPrivileges[M any](ctx context.Context, major int, p *planned[M], objectType types.String, privs func(*M) *types.Set,
	valid func(objectType string, major int) []string, expand func(objectType string, major int, privs []string) []string, diags *diag.Diagnostics) {
	plan := privs(&p.plan)
	ot := objectType.ValueString()
	if major > 0 && !plan.IsUnknown() && !objectType.IsUnknown() {
		validatePrivileges(ctx, *plan, valid(ot, major), fmt.Sprintf("%s (PostgreSQL %d)", ot, major), diags)
	}
	if p.creating() {
		return
	}
	if state := *privs(p.state); !plan.IsUnknown() && !plan.Equal(state) &&
		privilegesEqual(func(l []string) []string { return expand(ot, major, l) }, setStrings(ctx, *plan), setStrings(ctx, state)) {
		*plan = state
	}
}
