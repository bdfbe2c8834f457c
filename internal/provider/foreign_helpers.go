package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// databaseAttribute is the `database` argument of database-scoped objects of
// the foreign-data area: Optional+Computed, the provider's database by default.
func databaseAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "The database holding the " + what + ". Defaults to the provider's `database`. " +
			"Changing it replaces the " + what + " (the old one is dropped from the old database).",
		Validators:    []validator.String{validators.Name()},
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured()},
	}
}

// resolveImport finds the object an import ID names by n dotted names,
// optionally prefixed by its database (names may contain dots themselves):
// it tries every split into n names in the provider's database, then every
// split into an existing database and n names, and stops at the first split
// for which find (which reads the object and fills the state) reports true.
func resolveImport(ctx context.Context, c *pg.Client, id string, n int, find func(db string, names []string) bool) bool {
	try := func(parts []string) bool {
		for _, part := range parts {
			if pg.ValidateName(part) != nil {
				return false
			}
		}
		if parts[0] != c.DefaultDatabase() {
			if ok, err := c.DatabaseExists(ctx, parts[0]); err != nil || !ok {
				return false
			}
		}
		return find(parts[0], parts[1:])
	}
	for _, p := range dottedSplits(id, n) {
		if try(append([]string{c.DefaultDatabase()}, p...)) {
			return true
		}
	}
	for _, p := range dottedSplits(id, n+1) {
		if try(p) {
			return true
		}
	}
	return false
}

// optionsFromTF converts an options map to Go (nil for a null map).
func optionsFromTF(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]string {
	if m.IsNull() || m.IsUnknown() {
		return map[string]string{}
	}
	out := map[string]string{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

// optionsToTF reports the server's options, keeping a null map when the
// server has none and the state had none (cyrilgdn wrote null, then {}).
func optionsToTF(ctx context.Context, have map[string]string, prior types.Map, diags *diag.Diagnostics) types.Map {
	if len(have) == 0 && (prior.IsNull() || prior.IsUnknown()) {
		return types.MapNull(types.StringType)
	}
	m, d := types.MapValueFrom(ctx, types.StringType, have)
	diags.Append(d...)
	return m
}

// planOptions plans an Optional+Computed options map: unset means "no
// options", and null and {} mean the same, so the state's spelling of "none"
// is kept (cyrilgdn wrote null after apply and {} after a refresh).
func planOptions(config, state types.Map, plan *types.Map) {
	if !config.IsNull() {
		return // the plan is the configuration
	}
	if state.IsNull() || state.IsUnknown() || len(state.Elements()) == 0 {
		if state.IsUnknown() {
			*plan = types.MapNull(types.StringType)
		} else {
			*plan = state
		}
		return
	}
	*plan = types.MapNull(types.StringType)
}
