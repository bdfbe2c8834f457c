package tfkit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Attribute builders shared by the resources' schemas: the same argument (an
// id, an oid, an optional string, a defaulted bool) is declared the same way
// everywhere. The builders for PostgreSQL names (database, name, schema) are
// in internal/provider/name_attributes.go, beside the name validator.

// OptionalStringAttr is an optional string argument with no validation of its own.
func OptionalStringAttr(description string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: description}
}

// DefaultedBoolAttr is an optional flag whose default def is planned (and kept in
// the state) when the configuration leaves it out.
func DefaultedBoolAttr(def bool, description string, modifiers ...planmodifier.Bool) schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true, Computed: true, Default: booldefault.StaticBool(def),
		MarkdownDescription: description,
		PlanModifiers:       modifiers,
	}
}

// IDAttr is a resource's computed `id`; description gives its form.
func IDAttr(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description}
}

// OIDAttr is the computed OID of the object a resource manages. It never
// changes for the life of the object (renames and other in-place changes keep
// it), so the plan keeps the state's value.
func OIDAttr(description string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Computed:            true,
		MarkdownDescription: description,
		PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

// UnsetSetPlan is the plan modifier of an optional, computed string set whose
// unset and empty spellings mean the same (no default: it plans the value).
// With the attribute left out of the configuration it plans [] on create,
// and on update the state's value when that is null or [] (a state another
// provider wrote may hold null, one this provider wrote holds []), else
// []. So switching between `x = []` and leaving x out changes nothing once
// the state holds [], and a null the state holds stays null: whole-resource
// outputs that show it do not move.
func UnsetSetPlan() planmodifier.Set { return unsetSetPlan{} }

type unsetSetPlan struct{}

func (unsetSetPlan) Description(context.Context) string {
	return "Leaving the set out means the same as []: the plan keeps the state's null or [], and plans [] otherwise."
}

func (m unsetSetPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (unsetSetPlan) PlanModifySet(_ context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if !req.State.Raw.IsNull() && !req.StateValue.IsUnknown() && (req.StateValue.IsNull() || len(req.StateValue.Elements()) == 0) {
		resp.PlanValue = req.StateValue
		return
	}
	resp.PlanValue = types.SetValueMust(types.StringType, []attr.Value{})
}
