package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// TestSpellings: each kind of spelling, both ways.
func TestSpellings(t *testing.T) {
	for _, c := range []struct {
		name string
		s    tfkit.Spelling
		a, b string
		want bool
	}{
		{"keyword", tfkit.CaseInsensitive{}, "plpgsql", "PLpgSQL", true},
		{"keyword", tfkit.CaseInsensitive{}, "STABLE", "IMMUTABLE", false},
		{"type", sqlTypeSpelling{}, "int4", "integer", true},
		{"type", sqlTypeSpelling{}, "varchar(10)", "character varying", true},
		{"type", sqlTypeSpelling{}, "SETOF int", "SETOF integer", true},
		{"type", sqlTypeSpelling{}, "bigint", "integer", false},
		{"type", sqlTypeSpelling{}, "", "integer", false},
		{"body", bodySpelling{}, "SELECT a + b\n\n", "SELECT a + b", true},
		{"body", bodySpelling{}, "BEGIN\r\n  x;  \r\nEND;", "BEGIN\n  x;\nEND;", true},
		{"body", bodySpelling{}, "SELECT a+b", "SELECT a + b", false},
		{"template", templateSpelling{}, "default", "template1", true},
		{"template", templateSpelling{}, "", "template0", true},
		{"template", templateSpelling{}, "DEFAULT", "template0", false},
		{"command tag", commandTagSpelling{}, "create  table", "CREATE TABLE", true},
		{"command tag", commandTagSpelling{}, "create table", "CREATE TABLES", false},
		{"expression", expressionSpelling{}, "id>0", "(id > 0)", true},
		{"expression", expressionSpelling{}, "owner = 'X'", "(owner = 'x'::text)", false},
	} {
		for _, pair := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			if got := c.s.Same(pair[0], pair[1]); got != c.want {
				t.Errorf("%s: Same(%q, %q) = %t, want %t", c.name, pair[0], pair[1], got, c.want)
			}
		}
	}
}

func TestFunctionArgsSpelling(t *testing.T) {
	ctx := context.Background()
	list := func(args ...functionArgModel) functionArgs { return newFunctionArgList(args) }
	arg := func(name, typ, mode, def string) functionArgModel {
		return functionArgModel{Name: types.StringValue(name), Type: types.StringValue(typ), Mode: types.StringValue(mode), Default: types.StringValue(def)}
	}
	unknownElem := functionArgs{ListValue: types.ListValueMust(types.ObjectType{AttrTypes: functionArgAttrTypes}, []attr.Value{types.ObjectUnknown(functionArgAttrTypes)})}
	for _, c := range []struct {
		name string
		a, b functionArgs
		want bool
	}{
		{"type and mode spelt otherwise", list(arg("a", "int", "in", "")), list(arg("a", "integer", "IN", "")), true},
		{"default with the server's cast", list(arg("b", "varchar(10)", "IN", "'x'")), list(arg("b", "character varying", "IN", "'x'::character varying")), true},
		{"another name", list(arg("a", "int", "IN", "")), list(arg("b", "int", "IN", "")), false},
		{"another type", list(arg("a", "int", "IN", "")), list(arg("a", "bigint", "IN", "")), false},
		{"one more", list(arg("a", "int", "IN", "")), list(arg("a", "int", "IN", ""), arg("b", "int", "IN", "")), false},
		{"none", list(), list(), true},
		{"an unknown element", unknownElem, list(arg("a", "int", "IN", "")), false},
	} {
		for _, pair := range [][2]functionArgs{{c.a, c.b}, {c.b, c.a}} {
			if got := pair[0].SameAs(ctx, pair[1]); got != c.want {
				t.Errorf("%s: %s SameAs %s = %t, want %t", c.name, pair[0], pair[1], got, c.want)
			}
		}
	}
}

// The attributes whose values have a spelling carry its type, and plan the
// state's spelling (tfkit.KeepSpelling) or replace only for a change of
// meaning; the Terraform type stays a string (a list for arg).
func TestSpelledAttributes(t *testing.T) {
	ctx := context.Background()
	keeps := func(a schema.StringAttribute) bool {
		for _, m := range a.PlanModifiers {
			if _, ok := m.(tfkit.KeepSpellingModifier); ok {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		schema func() schema.Schema
		attr   string
		typ    attr.Type
		keep   bool
	}{
		{functionSchemaV1, "language", keywordType{}, true},
		{functionSchemaV1, "volatility", keywordType{}, true},
		{functionSchemaV1, "parallel", keywordType{}, true},
		{functionSchemaV1, "body", functionBodyType{}, true},
		{functionSchemaV1, "returns", sqlTypeNameType{}, true},
		{databaseSchemaV1, "template", templateDatabaseType{}, true},
		{databaseSchemaV1, "encoding", encodingNameType{}, true},
		{databaseSchemaV1, "lc_collate", localeNameType{}, true},
		{databaseSchemaV1, "lc_ctype", localeNameType{}, true},
		{policySchemaV1, "using", sqlExpressionType{}, true},
		{policySchemaV1, "with_check", sqlExpressionType{}, true},
		{databaseSettingSchemaV1, "parameter", keywordType{}, false}, // a change of letter case is an update
	} {
		a, ok := c.schema().Attributes[c.attr].(schema.StringAttribute)
		if !ok || a.CustomType == nil || !a.CustomType.Equal(c.typ) {
			t.Errorf("%s: type %v, want %v", c.attr, a.CustomType, c.typ)
			continue
		}
		if !a.GetType().TerraformType(ctx).Equal(tftypes.String) {
			t.Errorf("%s: Terraform type %s", c.attr, a.GetType().TerraformType(ctx))
		}
		if keeps(a) != c.keep {
			t.Errorf("%s: KeepSpelling %t, want %t", c.attr, keeps(a), c.keep)
		}
	}
	arg := functionSchemaV1().Blocks["arg"].(schema.ListNestedBlock)
	if !arg.CustomType.Equal(functionArgsType()) || !arg.Type().TerraformType(ctx).Equal(tftypes.List{ElementType: arg.NestedObject.Type().TerraformType(ctx)}) {
		t.Errorf("arg: type %v", arg.CustomType)
	}
	tags := eventTriggerSchemaV1().Attributes["tags"].(schema.SetAttribute)
	if !tags.ElementType.Equal(commandTagType{}) {
		t.Errorf("tags: element type %v", tags.ElementType)
	}
}
