package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var _ provider.ProviderWithFunctions = (*pgProvider)(nil)

// Functions lists the provider-defined functions (Terraform 1.8+, OpenTofu 1.7+),
// sorted by name. They are pure: none of them connects to PostgreSQL.
func (p *pgProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		NewFormatACLFunction,
		NewFormatACLsFunction,
		NewParseACLFunction,
		NewParseACLsFunction,
		NewQuoteIdentFunction,
		NewQuoteLiteralFunction,
		NewScramSHA256VerifierFunction,
	}
}
