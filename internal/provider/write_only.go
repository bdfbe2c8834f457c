package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// Write-only arguments (Terraform 1.11+): a secret given in the
// configuration only, never in the plan or the state, applied when the
// object is created and whenever its `_version` companion changes (as
// postgresql_role's password_wo). Besides password_wo: a subscription's
// conninfo_wo, and the options_wo of foreign servers and user mappings,
// whose option names (not values) the computed options_wo_names records, so
// that a refresh leaves those options out of `options` and an update leaves
// them alone.

// optionsWOAttribute is the write-only options_wo of a foreign server or
// user mapping; what names the object.
func optionsWOAttribute(what string) schema.MapAttribute {
	return schema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		Sensitive:   true,
		WriteOnly:   true,
		MarkdownDescription: "Options of the " + what + " whose values are secrets, write-only: never stored in the plan or the state (Terraform 1.11 or later). " +
			"They are set with the other options when the " + what + " is created and whenever `options_wo_version` changes (or the set of their names does, " +
			"in an apply that changes the " + what + " anyway); otherwise applies leave them as they are. Their names must not also be in `options`. " +
			"A refresh leaves them out of `options` (their names are in `options_wo_names`); changes made to them outside Terraform are not detected (change `options_wo_version` to set them again). " +
			"Every value is masked in the provider's logs and errors, and kept out of the server's statement log as `options`' secret values are.",
	}
}

// optionsWOVersionAttribute is options_wo_version.
func optionsWOVersionAttribute() schema.StringAttribute {
	return tfkit.OptionalStringAttr("Any value; change it to make the provider set the values of `options_wo` again.")
}

// configOptionsWO reads the configuration's options_wo (nil when unset).
func configOptionsWO(ctx context.Context, c *tfkit.Call) (map[string]string, diag.Diagnostics) {
	if c.Config.Raw.IsNull() {
		return nil, nil
	}
	var m types.Map
	diags := c.Config.GetAttribute(ctx, path.Root("options_wo"), &m)
	if diags.HasError() || m.IsNull() || m.IsUnknown() {
		return nil, diags
	}
	out := map[string]string{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out, diags
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// withoutKeys returns options less the given names (a refresh leaves the
// write-only options out of the state).
func withoutKeys(options map[string]string, keys []string) map[string]string {
	if options == nil || len(keys) == 0 {
		return options
	}
	out := maps.Clone(options)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// optionsWOChange is what an update does with options_wo.
type optionsWOChange struct {
	want  map[string]string // the options to have: options, plus options_wo's when set
	keep  []string          // options to leave as they are
	known map[string]string // the options last known: the state's and the earlier write-only ones (so those no longer wanted are dropped)
	keys  []string          // the write-only names
}

// planOptionsWO works out an update's options from options (the plan's), the
// state's, the configuration's options_wo and the earlier write-only names
// (the state's options_wo_names): options_wo's values are set when force (a
// new options_wo_version, or a move of the object that recreates it) or when
// the set of names changed; otherwise those options are left as they are.
func planOptionsWO(ctx context.Context, c *tfkit.Call, options, stateOptions map[string]string, prior types.Set, force bool) (optionsWOChange, diag.Diagnostics) {
	wo, diags := configOptionsWO(ctx, c)
	var priorNames []string
	if !prior.IsNull() && !prior.IsUnknown() {
		diags.Append(prior.ElementsAs(ctx, &priorNames, false)...)
	}
	sort.Strings(priorNames)
	ch := optionsWOChange{want: maps.Clone(options), known: maps.Clone(stateOptions), keys: sortedKeys(wo)}
	if ch.want == nil {
		ch.want = map[string]string{}
	}
	if ch.known == nil {
		ch.known = map[string]string{}
	}
	for _, k := range priorNames {
		ch.known[k] = ""
	}
	if force || !slices.Equal(priorNames, ch.keys) {
		maps.Copy(ch.want, wo)
		return ch, diags
	}
	ch.keep = ch.keys
	return ch, diags
}

// optionsWONamesAttribute is the computed options_wo_names.
func optionsWONamesAttribute() schema.SetAttribute {
	return schema.SetAttribute{
		ElementType: types.StringType,
		Computed:    true,
		MarkdownDescription: "The names of the options given in `options_wo` (not their values; null when there are none), known at plan time: " +
			"a refresh leaves these options out of `options`, and an apply that does not set them leaves them as they are.",
	}
}

// planOptionsWONames plans options_wo_names from the configuration's
// options_wo: its names, null when unset, unknown while it is.
func planOptionsWONames(config types.Map) types.Set {
	switch {
	case config.IsUnknown():
		return types.SetUnknown(types.StringType)
	case config.IsNull():
		return types.SetNull(types.StringType)
	}
	names := make([]attr.Value, 0, len(config.Elements()))
	for _, k := range sortedKeys(mapKeys(config)) {
		names = append(names, types.StringValue(k))
	}
	return types.SetValueMust(types.StringType, names)
}

func mapKeys(m types.Map) map[string]string {
	out := make(map[string]string, len(m.Elements()))
	for k := range m.Elements() {
		out[k] = ""
	}
	return out
}

// setNames returns the names of a known set (nil otherwise).
func setNames(ctx context.Context, s types.Set) []string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var out []string
	_ = s.ElementsAs(ctx, &out, false)
	return out
}

// validateOptionsWO refuses an option named in both options and options_wo.
func validateOptionsWO(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var options, wo types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("options"), &options)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("options_wo"), &wo)...)
	if resp.Diagnostics.HasError() || options.IsNull() || options.IsUnknown() || wo.IsNull() || wo.IsUnknown() {
		return
	}
	for k := range wo.Elements() {
		if _, ok := options.Elements()[k]; ok {
			resp.Diagnostics.AddAttributeError(path.Root("options_wo").AtMapKey(k), "Option set twice",
				fmt.Sprintf("The option %q is in both options and options_wo: give it in one of them (options_wo for a secret).", k))
		}
	}
}

// knownOptionsWONames makes names known in a read back after a write where
// the plan could not know them (options_wo unknown while planning): the
// configuration's, known by now.
func knownOptionsWONames(ctx context.Context, c *tfkit.Call, names *types.Set) {
	if !names.IsUnknown() || !c.Wrote() {
		return
	}
	var wo types.Map
	if c.Config.GetAttribute(ctx, path.Root("options_wo"), &wo).HasError() {
		return
	}
	*names = planOptionsWONames(wo)
}
