package provider

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// Attribute builders for PostgreSQL names (database, name, schema), validated
// as identifiers (validators.Name). The generic builders (id, oid, optional
// string, defaulted bool) are in internal/tfkit/schema_attributes.go; the
// plan-time helpers are in plan_helpers.go.

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

// slotNameValidator enforces PostgreSQL's rule for replication slot names.
func slotNameValidator() validator.String {
	return stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z0-9_]+$`),
		"replication slot names may contain only lower-case letters, digits and underscores")
}
