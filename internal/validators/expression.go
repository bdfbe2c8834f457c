package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// Expression validates text that the provider places into a statement as one
// SQL expression (a policy's USING or WITH CHECK): no semicolon outside quotes
// and comments, balanced parentheses, no unclosed quote or comment (see
// pg.CheckExpression). It needs no connection, so a smuggled statement is
// refused at validate time.
func Expression() validator.String {
	return sqlTextValidator{
		check:   pg.CheckExpression,
		summary: "Invalid SQL expression",
		desc:    "must be one SQL expression: no semicolon outside quotes, balanced parentheses, every quote and comment closed",
	}
}

// SQLFragment validates configuration text that the provider splices into a
// statement (a type name, a default expression): it must be one fragment, with
// no semicolon, comment, unbalanced parenthesis or unterminated quote outside
// of quotes (pg.CheckFragment). Nothing is executed.
func SQLFragment() validator.String {
	return sqlTextValidator{
		check:   pg.CheckFragment,
		summary: "Invalid SQL fragment",
		desc:    "must be a single SQL fragment: no semicolon, comment, unbalanced parenthesis or unterminated quote outside of quotes",
	}
}

// sqlTextValidator refuses configuration text that check finds could end the
// statement it is spliced into.
type sqlTextValidator struct {
	check         func(string) error
	summary, desc string
}

func (v sqlTextValidator) Description(context.Context) string { return v.desc }

func (v sqlTextValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v sqlTextValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary,
			"The value of "+req.Path.String()+", "+quoteForMessage(req.ConfigValue.ValueString())+", is spliced into an SQL statement and "+err.Error()+".")
	}
}
