package tfkit

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type keywordValue = Spelled[CaseInsensitive]

// firstWordSpelling: a list means the same as another when their first
// elements' first words are equal (a made-up rule, for the tests).
type firstWordSpelling struct{}

func (firstWordSpelling) Same(_ context.Context, a, b basetypes.ListValue) bool {
	first := func(l basetypes.ListValue) string {
		if len(l.Elements()) == 0 {
			return ""
		}
		s, _ := l.Elements()[0].(types.String)
		w, _, _ := strings.Cut(s.ValueString(), " ")
		return w
	}
	return first(a) == first(b)
}

func kw(s string) keywordValue { return spelledValue[CaseInsensitive](s) }

func strList(ss ...string) SpelledList[firstWordSpelling] {
	elems := make([]attr.Value, len(ss))
	for i, s := range ss {
		elems[i] = types.StringValue(s)
	}
	return asSpelledList[firstWordSpelling](types.ListValueMust(types.StringType, elems))
}

func TestSpelled_semanticEquality(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		a, b keywordValue
		want bool
	}{
		{kw("plpgsql"), kw("PLpgSQL"), true},
		{kw("STABLE"), kw("stable"), true},
		{kw("STABLE"), kw("STABLE"), true},
		{kw("STABLE"), kw("VOLATILE"), false},
		{kw(""), kw(""), true},
		{kw("STABLE"), spelledNull[CaseInsensitive](), false},
		{spelledNull[CaseInsensitive](), spelledNull[CaseInsensitive](), false},
		{kw("STABLE"), spelledUnknown[CaseInsensitive](), false},
		{spelledUnknown[CaseInsensitive](), spelledUnknown[CaseInsensitive](), false},
	} {
		for _, pair := range [][2]keywordValue{{c.a, c.b}, {c.b, c.a}} { // both ways
			got, d := pair[0].StringSemanticEquals(ctx, pair[1])
			if d.HasError() || got != c.want {
				t.Errorf("%s.StringSemanticEquals(%s) = %t (%v), want %t", pair[0], pair[1], got, d, c.want)
			}
			if got := pair[0].SameAs(pair[1].StringValue); got != c.want {
				t.Errorf("%s.SameAs(%s) = %t, want %t", pair[0], pair[1], got, c.want)
			}
		}
	}
	// a value of another type is an error, never "the same"
	if got, d := kw("a").StringSemanticEquals(ctx, types.StringValue("a")); got || !d.HasError() {
		t.Errorf("comparison with a plain string: %t, %v", got, d)
	}
}

func TestSpelled_exactEqualityAndType(t *testing.T) {
	ctx := context.Background()
	if kw("a").Equal(kw("A")) {
		t.Error("Equal is exact: a and A differ")
	}
	if !kw("a").Equal(kw("a")) || kw("a").Equal(types.StringValue("a")) {
		t.Error("Equal: same type and value only")
	}
	typ := SpelledType[CaseInsensitive]{}
	if !kw("a").Type(ctx).Equal(typ) || typ.Equal(types.StringType) || typ.Equal(SpelledType[firstWordCase]{}) {
		t.Error("the type of a Spelled[S] is SpelledType[S], and only that")
	}
	if !typ.TerraformType(ctx).Equal(tftypes.String) {
		t.Errorf("Terraform type %s, want a string", typ.TerraformType(ctx))
	}
	v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, "x"))
	if err != nil || !v.Equal(kw("x")) {
		t.Errorf("ValueFromTerraform = %v, %v", v, err)
	}
	v, err = typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
	if err != nil || !v.Equal(spelledUnknown[CaseInsensitive]()) {
		t.Errorf("ValueFromTerraform(unknown) = %v, %v", v, err)
	}
	sv, d := typ.ValueFromString(ctx, types.StringValue("y"))
	if d.HasError() || !sv.Equal(kw("y")) {
		t.Errorf("ValueFromString = %v, %v", sv, d)
	}
	if asSpelled[CaseInsensitive](types.StringNull()) != spelledNull[CaseInsensitive]() {
		t.Error("asSpelled of null")
	}
}

type firstWordCase struct{}

func (firstWordCase) Same(a, b string) bool { return a == b }

func TestSpelledList_semanticEquality(t *testing.T) {
	ctx := context.Background()
	null := asSpelledList[firstWordSpelling](types.ListNull(types.StringType))
	unknown := asSpelledList[firstWordSpelling](types.ListUnknown(types.StringType))
	for _, c := range []struct {
		a, b SpelledList[firstWordSpelling]
		want bool
	}{
		{strList("int x"), strList("int y"), true},
		{strList("int x"), strList("int x"), true},
		{strList("int x"), strList("text x"), false},
		{strList("int x"), null, false},
		{null, null, false},
		{strList("int x"), unknown, false},
	} {
		for _, pair := range [][2]SpelledList[firstWordSpelling]{{c.a, c.b}, {c.b, c.a}} {
			got, d := pair[0].ListSemanticEquals(ctx, pair[1])
			if d.HasError() || got != c.want {
				t.Errorf("%s.ListSemanticEquals(%s) = %t (%v), want %t", pair[0], pair[1], got, d, c.want)
			}
		}
	}
	typ := strList().Type(ctx)
	if !typ.Equal(SpelledListType[firstWordSpelling]{ListType: types.ListType{ElemType: types.StringType}}) {
		t.Errorf("type %s", typ)
	}
	raw, _ := strList("a b").ToTerraformValue(ctx)
	v, err := typ.ValueFromTerraform(ctx, raw)
	if err != nil || !v.Equal(strList("a b")) {
		t.Errorf("ValueFromTerraform = %v, %v", v, err)
	}
}

func TestSameByType(t *testing.T) {
	ctx := context.Background()
	str := func(v any) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	set := func(vs ...string) tftypes.Value {
		elems := make([]tftypes.Value, len(vs))
		for i, v := range vs {
			elems[i] = str(v)
		}
		return tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, elems)
	}
	kwType := SpelledType[CaseInsensitive]{}
	kwSet := types.SetType{ElemType: kwType}
	for _, c := range []struct {
		name string
		t    attr.Type
		a, b tftypes.Value
		want bool
	}{
		{"spelt otherwise", kwType, str("safe"), str("SAFE"), true},
		{"another value", kwType, str("safe"), str("UNSAFE"), false},
		{"a plain string spelt otherwise", types.StringType, str("safe"), str("SAFE"), false},
		{"a plain string, equal", types.StringType, str("safe"), str("safe"), true},
		{"no type, equal", nil, str("x"), str("x"), true},
		{"no type, different", nil, str("x"), str("X"), false},
		{"null", kwType, str(nil), str(nil), false},
		{"unknown", kwType, str(tftypes.UnknownValue), str("x"), false},
		{"set spelt otherwise", kwSet, set("create table", "ALTER TABLE"), set("alter table", "CREATE TABLE"), true},
		{"set with one more", kwSet, set("create table"), set("CREATE TABLE", "ALTER TABLE"), false},
		{"set with repeats", kwSet, set("create table", "CREATE TABLE"), set("Create Table"), true},
		{"set of plain strings", types.SetType{ElemType: types.StringType}, set("a"), set("A"), false},
		{"set, unknown element", kwSet, tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{str(tftypes.UnknownValue)}), set("a"), false},
	} {
		for _, pair := range [][2]tftypes.Value{{c.a, c.b}, {c.b, c.a}} {
			if got := SameByType(ctx, c.t, pair[0], pair[1]); got != c.want {
				t.Errorf("%s: SameByType(%s, %s) = %t, want %t", c.name, pair[0], pair[1], got, c.want)
			}
		}
	}
	listType := SpelledListType[firstWordSpelling]{ListType: types.ListType{ElemType: types.StringType}}
	a, _ := strList("int x").ToTerraformValue(ctx)
	b, _ := strList("int y").ToTerraformValue(ctx)
	d, _ := strList("text y").ToTerraformValue(ctx)
	if !SameByType(ctx, listType, a, b) || SameByType(ctx, listType, a, d) {
		t.Error("SameByType of lists: by the list's spelling")
	}
}

// testSchema holds one attribute of each kind KeepSpelling serves.
func testSchema() schema.Schema {
	keep := KeepSpelling()
	return schema.Schema{Attributes: map[string]schema.Attribute{
		"kw":    schema.StringAttribute{Optional: true, Computed: true, CustomType: SpelledType[CaseInsensitive]{}, PlanModifiers: []planmodifier.String{keep}},
		"plain": schema.StringAttribute{Optional: true, PlanModifiers: []planmodifier.String{keep}},
		"list":  schema.ListAttribute{Optional: true, ElementType: types.StringType, CustomType: SpelledListType[firstWordSpelling]{ListType: types.ListType{ElemType: types.StringType}}, PlanModifiers: []planmodifier.List{keep}},
		"set":   schema.SetAttribute{Optional: true, ElementType: SpelledType[CaseInsensitive]{}, PlanModifiers: []planmodifier.Set{keep}},
		"param": schema.StringAttribute{Required: true, CustomType: SpelledType[CaseInsensitive]{}, PlanModifiers: []planmodifier.String{RequiresReplaceUnlessSame("replace")}},
	}}
}

func testPlan(t *testing.T) tfsdk.Plan {
	t.Helper()
	s := testSchema()
	return tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}
}

func TestKeepSpelling_string(t *testing.T) {
	ctx := context.Background()
	plan := testPlan(t)
	for _, c := range []struct {
		name        string
		attr        string
		planned     types.String
		state       types.String
		want        types.String
		stateIsNull bool
	}{
		{"spelt otherwise: the state's", "kw", types.StringValue("sql"), types.StringValue("SQL"), types.StringValue("SQL"), false},
		{"another value: the plan's", "kw", types.StringValue("plpgsql"), types.StringValue("SQL"), types.StringValue("plpgsql"), false},
		{"equal", "kw", types.StringValue("sql"), types.StringValue("sql"), types.StringValue("sql"), false},
		{"unknown plan", "kw", types.StringUnknown(), types.StringValue("SQL"), types.StringUnknown(), false},
		{"null plan", "kw", types.StringNull(), types.StringValue("SQL"), types.StringNull(), false},
		{"create (no state)", "kw", types.StringValue("sql"), types.StringNull(), types.StringValue("sql"), true},
		{"a plain string is compared exactly", "plain", types.StringValue("sql"), types.StringValue("SQL"), types.StringValue("sql"), false},
	} {
		req := planmodifier.StringRequest{Path: path.Root(c.attr), Plan: plan, PlanValue: c.planned, ConfigValue: c.planned, StateValue: c.state}
		resp := &planmodifier.StringResponse{PlanValue: c.planned}
		KeepSpelling().PlanModifyString(ctx, req, resp)
		if resp.Diagnostics.HasError() || !resp.PlanValue.Equal(c.want) {
			t.Errorf("%s: planned %s (%v), want %s", c.name, resp.PlanValue, resp.Diagnostics, c.want)
		}
	}
}

func TestKeepSpelling_listAndSet(t *testing.T) {
	ctx := context.Background()
	plan := testPlan(t)
	list := func(ss ...string) types.List { return strList(ss...).ListValue }
	for _, c := range []struct {
		name                  string
		planned, state, wantL types.List
	}{
		{"spelt otherwise", list("int x"), list("int y"), list("int y")},
		{"another value", list("text x"), list("int y"), list("text x")},
		{"unknown", types.ListUnknown(types.StringType), list("int y"), types.ListUnknown(types.StringType)},
	} {
		req := planmodifier.ListRequest{Path: path.Root("list"), Plan: plan, PlanValue: c.planned, ConfigValue: c.planned, StateValue: c.state}
		resp := &planmodifier.ListResponse{PlanValue: c.planned}
		KeepSpelling().PlanModifyList(ctx, req, resp)
		if resp.Diagnostics.HasError() || !resp.PlanValue.Equal(c.wantL) {
			t.Errorf("list, %s: planned %s (%v), want %s", c.name, resp.PlanValue, resp.Diagnostics, c.wantL)
		}
	}
	set := func(ss ...string) types.Set {
		elems := make([]attr.Value, len(ss))
		for i, s := range ss {
			elems[i] = kw(s)
		}
		return types.SetValueMust(SpelledType[CaseInsensitive]{}, elems)
	}
	for _, c := range []struct {
		name                  string
		planned, state, wantS types.Set
	}{
		{"spelt otherwise", set("create table", "alter table"), set("ALTER TABLE", "CREATE TABLE"), set("ALTER TABLE", "CREATE TABLE")},
		{"one more", set("create table", "drop table"), set("CREATE TABLE"), set("create table", "drop table")},
		{"null state", set("create table"), types.SetNull(SpelledType[CaseInsensitive]{}), set("create table")},
	} {
		req := planmodifier.SetRequest{Path: path.Root("set"), Plan: plan, PlanValue: c.planned, ConfigValue: c.planned, StateValue: c.state}
		resp := &planmodifier.SetResponse{PlanValue: c.planned}
		KeepSpelling().PlanModifySet(ctx, req, resp)
		if resp.Diagnostics.HasError() || !resp.PlanValue.Equal(c.wantS) {
			t.Errorf("set, %s: planned %s (%v), want %s", c.name, resp.PlanValue, resp.Diagnostics, c.wantS)
		}
	}
}

func TestRequiresReplaceUnlessSame(t *testing.T) {
	ctx := context.Background()
	s := testSchema()
	objType := s.Type().TerraformType(ctx).(tftypes.Object)
	// a state and a plan (not null: an update)
	obj := func(param string) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for name, typ := range objType.AttributeTypes {
			vals[name] = tftypes.NewValue(typ, nil)
		}
		vals["param"] = tftypes.NewValue(tftypes.String, param)
		return tftypes.NewValue(objType, vals)
	}
	for _, c := range []struct {
		planned, state string
		unknown        bool
		want           bool
	}{
		{"Work_Mem", "work_mem", false, false},
		{"work_mem", "work_mem", false, false},
		{"temp_buffers", "work_mem", false, true},
		{"", "work_mem", true, true},
	} {
		planned := types.StringValue(c.planned)
		if c.unknown {
			planned = types.StringUnknown()
		}
		req := planmodifier.StringRequest{
			Path: path.Root("param"), PlanValue: planned, ConfigValue: planned, StateValue: types.StringValue(c.state),
			Plan: tfsdk.Plan{Schema: s, Raw: obj(c.planned)}, State: tfsdk.State{Schema: s, Raw: obj(c.state)},
		}
		resp := &planmodifier.StringResponse{PlanValue: planned}
		RequiresReplaceUnlessSame("replace").PlanModifyString(ctx, req, resp)
		if resp.RequiresReplace != c.want {
			t.Errorf("%q over %q: replace %t, want %t", c.planned, c.state, resp.RequiresReplace, c.want)
		}
	}
}

// A model field of a Spelled type reads a prior state as a string of that type.
func TestPriorSchemaSpelledField(t *testing.T) {
	type layout struct {
		Language keywordValue `tfsdk:"language"`
	}
	s := PriorSchema(reflect.TypeFor[layout]())
	a, ok := s.Attributes["language"].(schema.StringAttribute)
	if !ok || !a.Optional || a.CustomType == nil || !a.CustomType.Equal(SpelledType[CaseInsensitive]{}) {
		t.Fatalf("prior schema attribute %#v", s.Attributes["language"])
	}
}

// The model codec moves Spelled and SpelledList fields in and out of
// Terraform values as the framework's Get and Set do.
func TestModelCodecSpelledFields(t *testing.T) {
	ctx := context.Background()
	type model struct {
		KW    keywordValue                   `tfsdk:"kw"`
		Plain types.String                   `tfsdk:"plain"`
		List  SpelledList[firstWordSpelling] `tfsdk:"list"`
		Set   types.Set                      `tfsdk:"set"`
		Param keywordValue                   `tfsdk:"param"`
	}
	s := testSchema()
	in := model{KW: kw("Sql"), Plain: types.StringNull(), List: strList("int x"), Set: types.SetValueMust(SpelledType[CaseInsensitive]{}, []attr.Value{kw("a")}), Param: kw("work_mem")}
	raw, ok := EncodeModel(ctx, s.Type, &in)
	if !ok {
		t.Fatal("EncodeModel fell back")
	}
	var out model
	if !DecodeModel(ctx, s.Type, raw, &out) {
		t.Fatal("DecodeModel fell back")
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n got %#v\nwant %#v", out, in)
	}
	var viaGet model
	if d := (tfsdk.State{Schema: s, Raw: raw}).Get(ctx, &viaGet); d.HasError() || !reflect.DeepEqual(viaGet, in) {
		t.Errorf("the framework's Get: %#v, %v", viaGet, d)
	}
}

// Values of the spelling types, as the framework makes them (the provider
// sets the embedded value of a model's field).
func spelledValue[S Spelling](s string) Spelled[S] {
	return Spelled[S]{StringValue: basetypes.NewStringValue(s)}
}

func spelledNull[S Spelling]() Spelled[S] { return Spelled[S]{StringValue: basetypes.NewStringNull()} }

func spelledUnknown[S Spelling]() Spelled[S] {
	return Spelled[S]{StringValue: basetypes.NewStringUnknown()}
}

func asSpelled[S Spelling](v basetypes.StringValue) Spelled[S] { return Spelled[S]{StringValue: v} }

func asSpelledList[S ListSpelling](l basetypes.ListValue) SpelledList[S] {
	return SpelledList[S]{ListValue: l}
}
