package provider

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// Attribute builders shared by the resources' schemas: the same argument
// (database, name, id, oid, a defaulted bool) is declared the same way
// everywhere. The plan-time helpers are in plan_helpers.go.

// databaseAttribute is the `database` argument of database-scoped objects:
// Optional+Computed, the provider's database by default. Its description says
// that a change replaces the object; a resource that is not the object (a
// comment, a label) overrides it.
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

// optionalDatabaseAttribute is databaseAttribute with a description of the
// resource's own, for the objects cyrilgdn/postgresql had with an optional
// database: "" means unset there (unsetIfEmpty).
func optionalDatabaseAttribute(description string) schema.StringAttribute {
	a := databaseAttribute("")
	a.MarkdownDescription = description
	return unsetIfEmpty(a)
}

// nameAttribute is the required name of the object a resource manages,
// validated as an identifier at plan time; modifiers are its plan modifiers
// (RequiresReplace where PostgreSQL cannot rename it).
func nameAttribute(description string, modifiers ...planmodifier.String) schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: description,
		Validators:          []validator.String{validators.Name()},
		PlanModifiers:       modifiers,
	}
}

// optionalNameAttribute is nameAttribute for an optional name.
func optionalNameAttribute(description string, modifiers ...planmodifier.String) schema.StringAttribute {
	a := nameAttribute(description, modifiers...)
	a.Required, a.Optional = false, true
	return a
}

// publicSchemaAttribute is an optional schema name that defaults to `public`.
func publicSchemaAttribute(description string, modifiers ...planmodifier.String) schema.StringAttribute {
	a := optionalNameAttribute(description, modifiers...)
	a.Computed, a.Default = true, stringdefault.StaticString("public")
	return a
}

// optionalString is an optional string argument with no validation of its own.
func optionalString(description string) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: description}
}

// defaultedBool is an optional flag whose default def is planned (and kept in
// the state) when the configuration leaves it out.
func defaultedBool(def bool, description string, modifiers ...planmodifier.Bool) schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true, Computed: true, Default: booldefault.StaticBool(def),
		MarkdownDescription: description,
		PlanModifiers:       modifiers,
	}
}

// idAttribute is a resource's computed `id`; description gives its form.
func idAttribute(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description}
}

// oidAttribute is the computed OID of the object a resource manages. It never
// changes for the life of the object (renames and other in-place changes keep
// it), so the plan keeps the state's value.
func oidAttribute(description string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Computed:            true,
		MarkdownDescription: description,
		PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

// emptySetDefault is the schema default of an optional string set whose
// unset and empty spellings mean the same: the attribute is Computed, plans
// [] when unset, and Read records [] for null, so switching between
// `x = []` and leaving x out is never a change.
func emptySetDefault() defaults.Set {
	return setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{}))
}

// slotNameValidator enforces PostgreSQL's rule for replication slot names.
func slotNameValidator() validator.String {
	return stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z0-9_]+$`),
		"replication slot names may contain only lower-case letters, digits and underscores")
}
