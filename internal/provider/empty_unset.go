package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/planmod"
	"github.com/pgtf/terraform-provider-postgresql/internal/validators"
)

// `""` as unset (issue 30). cyrilgdn/postgresql, built on
// terraform-plugin-sdk v2, could not tell an empty string from an unset
// argument, and configurations rely on it (a module variable defaulting to
// ""). An argument marked planmod.EmptyIsUnset (unsetIfEmpty) gets that
// meaning: the skeleton plans and reads it so for every resource
// (internal/tfkit/empty_unset.go; the marker reaches it as
// tfkit.Hooks.EmptyIsUnset).

// emptyUnsetNote ends the description of such an argument.
const emptyUnsetNote = "An empty string (`\"\"`) means the same as leaving it unset, as cyrilgdn/postgresql read it."

// unsetIfEmpty makes a an argument whose "" means unset: marked
// planmod.EmptyIsUnset, its validators accept "", and its description says so.
func unsetIfEmpty(a schema.StringAttribute) schema.StringAttribute {
	a.PlanModifiers = append([]planmodifier.String{planmod.EmptyIsUnset()}, a.PlanModifiers...)
	vs := make([]validator.String, len(a.Validators))
	for i, v := range a.Validators {
		vs[i] = validators.AllowEmpty(v)
	}
	a.Validators = vs
	a.MarkdownDescription += " " + emptyUnsetNote
	return a
}

// sameDatabase tells whether the database arguments a and b name the same
// database: null and "" (the value a create with "" records) both are the
// provider's database. Unknown values are the same only as each other.
func sameDatabase(c *pg.Client, a, b types.String) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return a.Equal(b)
	}
	return databaseOf(c, a) == databaseOf(c, b)
}
