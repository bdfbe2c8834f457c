package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// NewQuoteIdentFunction returns the quote_ident function.
func NewQuoteIdentFunction() function.Function {
	return &providerFunction{name: "quote_ident", run: runQuoteIdent, definition: function.Definition{
		Summary: "Quotes a PostgreSQL identifier the way the provider does in its own SQL",
		Description: "Returns name as a double-quoted PostgreSQL identifier, with every double quote inside it doubled. " +
			"It always quotes, as the provider does in the statements it builds, so the result keeps the name's case and " +
			"may contain any character; unlike PostgreSQL's quote_ident(), a plain lower-case name is quoted too. " +
			"Fails on an empty name, a NUL byte, or a name longer than 63 bytes (PostgreSQL would truncate it silently).",
		MarkdownDescription: "Returns `name` as a double-quoted PostgreSQL identifier, with every double quote inside it " +
			"doubled (`a\"b` becomes `\"a\"\"b\"`). It **always** quotes, exactly as the provider quotes names in the " +
			"statements it builds, so the result keeps the name's case and may hold any character. Unlike PostgreSQL's " +
			"`quote_ident()`, which leaves a plain lower-case name bare, `quote_ident(\"app\")` is `\"app\"`; both forms " +
			"name the same object.\n\n" +
			"The function fails, naming the argument, on an empty name, on a NUL byte, and on a name longer than 63 bytes " +
			"(PostgreSQL truncates longer identifiers silently, so the quoted name would not be the object's name).",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "name",
				Description:         "The identifier: a role, database, schema, table or column name, as PostgreSQL stores it (case-sensitive).",
				MarkdownDescription: "The identifier (role, database, schema, table, column...), as PostgreSQL stores it: case-sensitive, 1 to 63 bytes.",
			},
		},
		Return: function.StringReturn{},
	}}
}

func runQuoteIdent(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var name string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &name))
	if resp.Error != nil {
		return
	}
	if err := pgconn.ValidateName(name); err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("name %s", err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, pgconn.QuoteIdent(name)))
}

// NewQuoteLiteralFunction returns the quote_literal function.
func NewQuoteLiteralFunction() function.Function {
	return &providerFunction{name: "quote_literal", run: runQuoteLiteral, definition: function.Definition{
		Summary: "Quotes a string as a PostgreSQL string literal the way the provider does",
		Description: "Returns value as a PostgreSQL string constant in single quotes, with every single quote doubled, exactly as the " +
			"provider writes literals. Backslashes are kept as they are (no E'' form): the result is correct when " +
			"standard_conforming_strings is on, PostgreSQL's default since 9.1, and on every connection the provider opens. " +
			"Fails on a NUL byte, which PostgreSQL text cannot hold.",
		MarkdownDescription: "Returns `value` as a PostgreSQL string constant: in single quotes, with every single quote doubled " +
			"(`it's` becomes `'it''s'`), exactly as the provider writes the few literals it cannot send as parameters.\n\n" +
			"Backslashes are copied as they are and the `E'...'` form is never used: the result is meant for sessions with " +
			"`standard_conforming_strings = on`, PostgreSQL's default since 9.1 and the setting of every connection the " +
			"provider opens. (PostgreSQL's own `quote_literal()` returns `E'a\\\\b'` for a value with a backslash, which reads " +
			"the same whatever the setting.) With `standard_conforming_strings = off` a value holding a backslash would be " +
			"misread, so do not feed the result to such a session.\n\n" +
			"The function fails, naming the argument, on a NUL byte, which PostgreSQL text cannot hold.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "value",
				Description:         "The text to quote; any UTF-8 string without a NUL byte, empty included.",
				MarkdownDescription: "The text to quote: any string without a NUL byte; the empty string gives `''`.",
			},
		},
		Return: function.StringReturn{},
	}}
}

func runQuoteLiteral(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var value string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &value))
	if resp.Error != nil {
		return
	}
	if err := pgconn.ValidateLiteral(value); err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("value %s", err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, pgconn.QuoteLiteral(value)))
}
