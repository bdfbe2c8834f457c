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

// providerFunction is a provider-defined function: its name, its definition
// and what it computes.
type providerFunction struct {
	name       string
	definition function.Definition
	run        func(ctx context.Context, req function.RunRequest, resp *function.RunResponse)
}

var _ function.Function = (*providerFunction)(nil)

func (f *providerFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *providerFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = f.definition
}

func (f *providerFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	f.run(ctx, req, resp)
}
