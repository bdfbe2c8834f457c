// Package validators holds schema validators shared by several resources.
package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// Name validates a PostgreSQL identifier: 1 to 63 bytes, valid UTF-8, no NUL.
// Any other character (quotes, semicolons, spaces, unicode) is allowed: names
// are always quoted.
func Name() validator.String { return nameValidator{} }

type nameValidator struct{}

func (nameValidator) Description(context.Context) string {
	return "must be a PostgreSQL identifier: 1 to 63 bytes of UTF-8, without NUL bytes"
}

func (v nameValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (nameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := pgconn.ValidateName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid PostgreSQL name",
			"The name "+quoteForMessage(req.ConfigValue.ValueString())+" "+err.Error()+".")
	}
}

func quoteForMessage(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return "\"" + s + "\""
}

// NameOrEmpty is Name, but the empty string is accepted: for an optional
// name that cyrilgdn/postgresql read as unset when empty (it tested it with
// GetOk), which modules pass as `""` for "none".
func NameOrEmpty() validator.String { return nameOrEmptyValidator{} }

type nameOrEmptyValidator struct{}

func (nameOrEmptyValidator) Description(context.Context) string {
	return "must be a PostgreSQL identifier (1 to 63 bytes of UTF-8, without NUL bytes), or empty for none"
}

func (v nameOrEmptyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (nameOrEmptyValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	nameValidator{}.ValidateString(ctx, req, resp)
}

// AllowEmpty is v, but the empty string is accepted without asking v: for an
// optional argument whose "" means unset (planmod.EmptyIsUnset).
func AllowEmpty(v validator.String) validator.String { return allowEmpty{v} }

type allowEmpty struct{ v validator.String }

func (a allowEmpty) Description(ctx context.Context) string {
	return a.v.Description(ctx) + `, or "" for unset`
}

func (a allowEmpty) MarkdownDescription(ctx context.Context) string {
	return a.v.MarkdownDescription(ctx) + ", or `\"\"` for unset"
}

func (a allowEmpty) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !req.ConfigValue.IsNull() && !req.ConfigValue.IsUnknown() && req.ConfigValue.ValueString() == "" {
		return
	}
	a.v.ValidateString(ctx, req, resp)
}
