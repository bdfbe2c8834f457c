package provider

import (
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
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
// `drop_cascade: null` after import. cyrilgdn's read loses the type of an
// argument without a name (`type: ""`); the id still lists the types of the
// arguments that are not OUT, which fill it.
//
// Releases before 1.19 had no language (nor, before 1.21, volatility,
// strict, parallel or security_definer): `body` held everything after the
// return type (`AS $$ ... $$ LANGUAGE plpgsql STABLE`), and the id was
// `"schema"."name"(types)`, without the database (`"name"(types)` right after
// a create that named no schema). Such a body is read into what it says (the
// function's source, its language and options), as a configuration for later
// releases spells them, and the id is this provider's (as 1.19 rewrote it).
func upgradeFunctionV0(old functionModelV0) functionModel {
	if old.Language.IsNull() {
		if lb, ok := pg.ParseLegacyFunctionBody(old.Body.ValueString()); ok {
			old.Body, old.Language = types.StringValue(lb.Body), types.StringValue(lb.Language)
			old.Volatility, old.Parallel = types.StringValue(lb.Volatility), types.StringValue(lb.Parallel)
			old.Strict, old.SecurityDefiner = types.BoolValue(lb.Strict), types.BoolValue(lb.SecurityDefiner)
		}
	}
	old.Arg = withArgTypesFromID(old.ID.ValueString(), old.Arg)
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
	if _, _, _, _, err := parseFunctionID(m.ID.ValueString()); err != nil || m.ID.IsUnknown() {
		m.ID = functionID(m)
		if m.ID.IsUnknown() {
			m.ID = types.StringNull()
		}
	}
	return m
}

// withArgTypesFromID fills the empty types of args from the argument types of
// a function id (db.schema.name(types of the arguments that are not OUT)),
// when the id lists as many types as there are such arguments.
func withArgTypesFromID(id string, args []functionArgModel) []functionArgModel {
	missing := false
	for _, a := range args {
		missing = missing || a.Type.IsNull() || a.Type.ValueString() == ""
	}
	if !missing {
		return args
	}
	_, _, _, argTypes, err := parseFunctionID(id)
	if err != nil {
		return args
	}
	var in []int
	for i, a := range args {
		if !strings.EqualFold(a.Mode.ValueString(), "OUT") {
			in = append(in, i)
		}
	}
	if len(in) != len(argTypes) {
		return args
	}
	out := slices.Clone(args)
	for k, i := range in {
		if out[i].Type.IsNull() || out[i].Type.ValueString() == "" {
			out[i].Type = types.StringValue(argTypes[k])
		}
	}
	return out
}
