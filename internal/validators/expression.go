package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Expression validates text that the provider places into a statement as one
// SQL expression: no semicolon outside quotes and comments, balanced
// parentheses, no unclosed quote or comment (see pg.CheckExpression). It
// needs no connection, so a smuggled statement is refused at validate time.
func Expression() validator.String { return expressionValidator{} }

type expressionValidator struct{}

func (expressionValidator) Description(context.Context) string {
	return "must be one SQL expression: no semicolon outside quotes, balanced parentheses, every quote and comment closed"
}

func (v expressionValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (expressionValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := pg.CheckExpression(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid SQL expression",
			"The expression "+quoteForMessage(req.ConfigValue.ValueString())+" "+err.Error()+".")
	}
}
