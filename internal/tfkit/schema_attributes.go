package tfkit

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
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

// EmptySetDefault is the schema default of an optional string set whose
// unset and empty spellings mean the same: the attribute is Computed, plans
// [] when unset, and Read records [] for null, so switching between
// `x = []` and leaving x out is never a change.
func EmptySetDefault() defaults.Set {
	return setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{}))
}
