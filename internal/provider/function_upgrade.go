package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// functionModelV0 is the state layout of cyrilgdn/postgresql 1.26's postgresql_function.
type functionModelV0 struct {
	ID              types.String       `tfsdk:"id"`
	Name            types.String       `tfsdk:"name"`
	Schema          types.String       `tfsdk:"schema"`
	Database        types.String       `tfsdk:"database"`
	Arg             []functionArgModel `tfsdk:"arg"`
	Returns         types.String       `tfsdk:"returns"`
	Language        types.String       `tfsdk:"language"`
	Body            types.String       `tfsdk:"body"`
	Volatility      types.String       `tfsdk:"volatility"`
	Parallel        types.String       `tfsdk:"parallel"`
	Strict          types.Bool         `tfsdk:"strict"`
	SecurityDefiner types.Bool         `tfsdk:"security_definer"`
	DropCascade     types.Bool         `tfsdk:"drop_cascade"`
}

// upgradeFunctionV0 reads cyrilgdn's layout: `arg: []` when there are
// none, `returns` computed (`void`), `mode: "IN"`, `default: ""`, and
// `drop_cascade: null` after import.
func upgradeFunctionV0(old functionModelV0) functionModel {
	args := make([]functionArgModel, len(old.Arg))
	for i, a := range old.Arg {
		args[i] = functionArgModel{
			Name:    stringOr(a.Name, ""),
			Type:    a.Type,
			Mode:    types.StringValue(strings.ToUpper(stringOr(a.Mode, "IN").ValueString())),
			Default: stringOr(a.Default, ""),
		}
	}
	m := functionModel{
		OID:             types.Int64Null(), // filled by the next refresh
		Name:            old.Name,
		Schema:          stringOr(old.Schema, "public"),
		Database:        old.Database,
		Arg:             newFunctionArgList(args),
		Returns:         sqlTypeName{StringValue: old.Returns},
		Language:        keyword{StringValue: stringOr(old.Language, "plpgsql")},
		Body:            functionBody{StringValue: old.Body},
		Volatility:      keyword{StringValue: stringOr(old.Volatility, "VOLATILE")},
		Parallel:        keyword{StringValue: stringOr(old.Parallel, "UNSAFE")},
		Strict:          boolOr(old.Strict, false),
		SecurityDefiner: boolOr(old.SecurityDefiner, false),
		DropCascade:     boolOr(old.DropCascade, false),
	}
	if m.Returns.IsUnknown() {
		m.Returns = sqlTypeName{StringValue: types.StringNull()}
	}
	if m.Database.IsUnknown() {
		m.Database = types.StringNull()
	}
	m.ID = old.ID
	if m.ID.IsNull() || m.ID.IsUnknown() || m.ID.ValueString() == "" {
		m.ID = functionID(m)
		if m.ID.IsUnknown() {
			m.ID = types.StringNull()
		}
	}
	return m
}
