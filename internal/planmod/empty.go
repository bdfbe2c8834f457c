// Package planmod holds plan modifiers shared by several resources.
package planmod

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
)

// EmptyIsUnset marks an optional string argument whose empty value means the
// same as leaving it unset. Providers built on terraform-plugin-sdk v2 (such
// as cyrilgdn/postgresql) could not tell `""` from unset: both were the zero
// value, and configurations (modules passing a variable that defaults to
// `""`) rely on it.
//
// Terraform requires the planned value of a configured argument to be the
// configured one or the prior state's, so `""` cannot simply be replaced by
// what unset means. The resource skeleton of the provider does the work,
// which needs the whole plan, for every argument carrying this modifier:
//
//   - the resource plans as if the argument were unset;
//   - on update, when that is the value in the state, the state's value is
//     planned (no change, and no replacement); otherwise `""` is planned, a
//     change to what unset means;
//   - on create `""` is planned and recorded (the resource creates what unset
//     means), and a refresh records what the server then has.
//
// The modifier itself changes nothing: it marks the argument and documents it.
func EmptyIsUnset() planmodifier.String { return emptyIsUnset{} }

type emptyIsUnset struct{}

func (emptyIsUnset) Description(context.Context) string {
	return `"" means the same as leaving the argument unset`
}

func (emptyIsUnset) MarkdownDescription(context.Context) string {
	return "`\"\"` means the same as leaving the argument unset"
}

func (emptyIsUnset) PlanModifyString(context.Context, planmodifier.StringRequest, *planmodifier.StringResponse) {
}

// IsEmptyIsUnset reports whether m is EmptyIsUnset.
func IsEmptyIsUnset(m planmodifier.String) bool {
	_, ok := m.(emptyIsUnset)
	return ok
}
