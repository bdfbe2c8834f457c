package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// SQLFragment validates configuration text that the provider splices into a
// statement (a type name, a default expression): it must be one fragment, with
// no semicolon, comment, unbalanced parenthesis or unterminated quote outside
// of quotes (pg.CheckFragment). Nothing is executed.
func SQLFragment() validator.String { return sqlFragmentValidator{} }

type sqlFragmentValidator struct{}

func (sqlFragmentValidator) Description(context.Context) string {
	return "must be a single SQL fragment: no semicolon, comment, unbalanced parenthesis or unterminated quote outside of quotes"
}

func (v sqlFragmentValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sqlFragmentValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := pg.CheckFragment(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid SQL fragment",
			"The value of "+req.Path.String()+", "+quoteForMessage(req.ConfigValue.ValueString())+", is spliced into an SQL statement and "+err.Error()+".")
	}
}
