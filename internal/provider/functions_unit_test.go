package provider

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// runFunction calls f through the framework's Run, with the result slot typed
// from f's own definition, as the provider server does.
func runFunction(t *testing.T, f function.Function, args ...attr.Value) (attr.Value, *function.FuncError) {
	t.Helper()
	ctx := context.Background()
	var def function.DefinitionResponse
	f.Definition(ctx, function.DefinitionRequest{}, &def)
	var vresp function.DefinitionValidateResponse
	def.Definition.ValidateImplementation(ctx, function.DefinitionValidateRequest{FuncName: "f"}, &vresp)
	if vresp.Diagnostics.HasError() {
		t.Fatalf("invalid definition: %v", vresp.Diagnostics)
	}
	if len(args) != len(def.Definition.Parameters) {
		t.Fatalf("%d arguments for %d parameters", len(args), len(def.Definition.Parameters))
	}
	resp := function.RunResponse{Result: function.NewResultData(def.Definition.Return.GetType().ValueType(ctx))}
	f.Run(ctx, function.RunRequest{Arguments: function.NewArgumentsData(args)}, &resp)
	return resp.Result.Value(), resp.Error
}

func wantFuncError(t *testing.T, name string, err *function.FuncError, arg int64, contains string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one containing %q", name, contains)
		return
	}
	if err.FunctionArgument == nil || *err.FunctionArgument != arg {
		t.Errorf("%s: error %q names argument %v, want %d", name, err.Text, err.FunctionArgument, arg)
	}
	if !strings.Contains(err.Text, contains) {
		t.Errorf("%s: error %q does not contain %q", name, err.Text, contains)
	}
}

func TestFunctionDefinitionsDocumented(t *testing.T) {
	ctx := context.Background()
	names := map[string]bool{}
	for _, nf := range (&pgProvider{}).Functions(ctx) {
		f := nf()
		var meta function.MetadataResponse
		f.Metadata(ctx, function.MetadataRequest{}, &meta)
		if names[meta.Name] {
			t.Errorf("function %s listed twice", meta.Name)
		}
		names[meta.Name] = true
		var def function.DefinitionResponse
		f.Definition(ctx, function.DefinitionRequest{}, &def)
		d := def.Definition
		if d.Summary == "" || d.Description == "" || d.MarkdownDescription == "" {
			t.Errorf("%s: Summary, Description and MarkdownDescription must all be set", meta.Name)
		}
		for i, p := range d.Parameters {
			if p.GetName() == "" || p.GetDescription() == "" || p.GetMarkdownDescription() == "" {
				t.Errorf("%s: parameter %d needs a name, Description and MarkdownDescription", meta.Name, i)
			}
		}
	}
	for _, n := range []string{"quote_ident", "quote_literal", "scram_sha256_verifier", "parse_acl", "parse_acls", "format_acl", "format_acls"} {
		if !names[n] {
			t.Errorf("function %s is not registered", n)
		}
	}
}

func TestFunctionQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"app":                   `"app"`,
		"Mixed Case":            `"Mixed Case"`,
		`a"b`:                   `"a""b"`,
		`"`:                     `""""`,
		"ünïcødé":               `"ünïcødé"`,
		"x; DROP TABLE y; --":   `"x; DROP TABLE y; --"`,
		strings.Repeat("a", 63): `"` + strings.Repeat("a", 63) + `"`,
	} {
		got, err := runFunction(t, NewQuoteIdentFunction(), types.StringValue(in))
		if err != nil {
			t.Errorf("quote_ident(%q): %v", in, err)
			continue
		}
		if got != types.StringValue(want) || want != pgconn.QuoteIdent(in) {
			t.Errorf("quote_ident(%q) = %v, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"":                      "must not be empty",
		"a\x00b":                "must not contain a NUL byte",
		strings.Repeat("a", 64): "is 64 bytes long",
		strings.Repeat("é", 32): "is 64 bytes long",
	} {
		_, err := runFunction(t, NewQuoteIdentFunction(), types.StringValue(in))
		wantFuncError(t, "quote_ident("+in+")", err, 0, "name "+want)
	}
}

func TestFunctionQuoteLiteral(t *testing.T) {
	for in, want := range map[string]string{
		"":           `''`,
		"it's":       `'it''s'`,
		`back\slash`: `'back\slash'`,
		"''":         `''''''`,
		"ünï\ncødé":  "'ünï\ncødé'",
		`"double"`:   `'"double"'`,
	} {
		got, err := runFunction(t, NewQuoteLiteralFunction(), types.StringValue(in))
		if err != nil {
			t.Errorf("quote_literal(%q): %v", in, err)
			continue
		}
		if got != types.StringValue(want) || want != pgconn.QuoteLiteral(in) {
			t.Errorf("quote_literal(%q) = %v, want %s", in, got, want)
		}
	}
	_, err := runFunction(t, NewQuoteLiteralFunction(), types.StringValue("a\x00b"))
	wantFuncError(t, "quote_literal(NUL)", err, 0, "value must not contain a NUL byte")
}

func TestFunctionScramSHA256Verifier(t *testing.T) {
	// RFC 7677's example: password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations.
	want := "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU="
	got, err := runFunction(t, NewScramSHA256VerifierFunction(), types.StringValue("pencil"), types.StringValue("W22ZaJ0SNY7soEsUEjb6gQ=="), types.Int64Value(4096))
	if err != nil {
		t.Fatal(err)
	}
	if got != types.StringValue(want) {
		t.Fatalf("verifier = %v, want %s", got, want)
	}
	// Unicode passwords are SASLprep-normalised, as PostgreSQL does: U+00A0 (no-break space) maps to a space.
	a, _ := runFunction(t, NewScramSHA256VerifierFunction(), types.StringValue("pass\u00a0word"), types.StringValue("c2FsdA=="), types.Int64Value(1))
	b, _ := runFunction(t, NewScramSHA256VerifierFunction(), types.StringValue("pass word"), types.StringValue("c2FsdA=="), types.Int64Value(1))
	if a == nil || a != b {
		t.Errorf("SASLprep: %v != %v", a, b)
	}
	if v := a.(types.String).ValueString(); !strings.HasPrefix(v, "SCRAM-SHA-256$1:c2FsdA==$") || !pg.ScramVerifierMatches(v, "pass word") {
		t.Errorf("verifier %s", v)
	}

	cases := []struct {
		password, salt string
		iterations     int64
		arg            int64
		want           string
	}{
		{"", "c2FsdA==", 4096, 0, "password must not be empty"},
		{"a\x00b", "c2FsdA==", 4096, 0, "password must not contain a NUL byte"},
		{"pw", "not base64!", 4096, 1, "salt must be base64"},
		{"pw", "c2FsdA", 4096, 1, "salt must be base64"},
		{"pw", "", 4096, 1, "salt must not be empty"},
		{"pw", "c2FsdA==", 0, 2, "iterations must be between 1 and 2147483647"},
		{"pw", "c2FsdA==", -5, 2, "got -5"},
		{"pw", "c2FsdA==", math.MaxInt32 + 1, 2, "iterations must be between"},
	}
	for _, c := range cases {
		_, err := runFunction(t, NewScramSHA256VerifierFunction(), types.StringValue(c.password), types.StringValue(c.salt), types.Int64Value(c.iterations))
		wantFuncError(t, c.want, err, c.arg, c.want)
	}
}

func aclObject(t *testing.T, grantee string, grantor *string, privs, grantable []string) types.Object {
	t.Helper()
	list := func(ss []string) types.List {
		if ss == nil {
			return types.ListNull(types.StringType)
		}
		vs := make([]attr.Value, len(ss))
		for i, s := range ss {
			vs[i] = types.StringValue(s)
		}
		return types.ListValueMust(types.StringType, vs)
	}
	g := types.StringNull()
	if grantor != nil {
		g = types.StringValue(*grantor)
	}
	return types.ObjectValueMust(aclItemAttrTypes, map[string]attr.Value{
		"grantee": types.StringValue(grantee), "grantor": g, "privileges": list(privs), "grantable": list(grantable),
	})
}

func ptr(s string) *string { return &s }

func TestFunctionParseACL(t *testing.T) {
	cases := map[string]types.Object{
		"alice=arw/bob":    aclObject(t, "alice", ptr("bob"), []string{"INSERT", "SELECT", "UPDATE"}, []string{}),
		"=r/bob":           aclObject(t, "public", ptr("bob"), []string{"SELECT"}, []string{}),
		`"a b"=r*w/"c""d"`: aclObject(t, "a b", ptr(`c"d`), []string{"SELECT", "UPDATE"}, []string{"SELECT"}),
		`"ünï"=U*C/bob`:    aclObject(t, "ünï", ptr("bob"), []string{"CREATE", "USAGE"}, []string{"USAGE"}),
		"alice=r":          aclObject(t, "alice", nil, []string{"SELECT"}, []string{}),
		"o=m/o":            aclObject(t, "o", ptr("o"), []string{"MAINTAIN"}, []string{}),
	}
	for in, want := range cases {
		got, err := runFunction(t, NewParseACLFunction(), types.StringValue(in))
		if err != nil {
			t.Errorf("parse_acl(%q): %v", in, err)
			continue
		}
		if !got.Equal(want) {
			t.Errorf("parse_acl(%q) = %v, want %v", in, got, want)
		}
		// format_acl is its inverse.
		back, err := runFunction(t, NewFormatACLFunction(), got)
		if err != nil || back != types.StringValue(in) {
			t.Errorf("format_acl(parse_acl(%q)) = %v, %v", in, back, err)
		}
	}
	for in, want := range map[string]string{
		"":              `is not an aclitem`,
		"alice=rq/bob":  `invalid privilege letter 'q'`,
		"{alice=r/bob}": `an "=" after the grantee`,
		`"alice=r/bob`:  "unterminated",
	} {
		_, err := runFunction(t, NewParseACLFunction(), types.StringValue(in))
		wantFuncError(t, "parse_acl("+in+")", err, 0, want)
	}
}

func TestFunctionParseACLs(t *testing.T) {
	in := `{alice=arw/bob,=r/bob,"\"a b\"=r*/\"c\"\"d\""}`
	got, err := runFunction(t, NewParseACLsFunction(), types.StringValue(in))
	if err != nil {
		t.Fatal(err)
	}
	want := types.ListValueMust(types.ObjectType{AttrTypes: aclItemAttrTypes}, []attr.Value{
		aclObject(t, "alice", ptr("bob"), []string{"INSERT", "SELECT", "UPDATE"}, []string{}),
		aclObject(t, "public", ptr("bob"), []string{"SELECT"}, []string{}),
		aclObject(t, "a b", ptr(`c"d`), []string{"SELECT"}, []string{"SELECT"}),
	})
	if !got.Equal(want) {
		t.Fatalf("parse_acls = %v\nwant %v", got, want)
	}
	back, ferr := runFunction(t, NewFormatACLsFunction(), got)
	if ferr != nil || back != types.StringValue(in) {
		t.Fatalf("format_acls(parse_acls(x)) = %v, %v", back, ferr)
	}
	empty, ferr := runFunction(t, NewParseACLsFunction(), types.StringValue("{}"))
	if ferr != nil || len(empty.(types.List).Elements()) != 0 {
		t.Fatalf("parse_acls({}) = %v, %v", empty, ferr)
	}
	if s, _ := runFunction(t, NewFormatACLsFunction(), types.ListValueMust(types.ObjectType{AttrTypes: aclItemAttrTypes}, nil)); s != types.StringValue("{}") {
		t.Fatalf("format_acls([]) = %v", s)
	}
	for in, want := range map[string]string{
		"alice=r/bob":    `is not an aclitem[] text: an aclitem[] text must be enclosed`,
		"{alice=r/bob,}": "empty array element",
		"{a=r/b,c=q/b}":  "element 2",
		"{NULL}":         "NULL",
	} {
		_, err := runFunction(t, NewParseACLsFunction(), types.StringValue(in))
		wantFuncError(t, "parse_acls("+in+")", err, 0, want)
	}
}

func TestFunctionFormatACL(t *testing.T) {
	cases := []struct {
		in   types.Object
		want string
	}{
		{aclObject(t, "alice", ptr("bob"), []string{"UPDATE", "select", "INSERT"}, []string{}), "alice=arw/bob"},
		{aclObject(t, "public", ptr("bob"), []string{"USAGE"}, []string{}), "=U/bob"},
		{aclObject(t, "Alice", ptr("Bob"), []string{"TEMP", "CONNECT"}, []string{"connect"}), "Alice=Tc*/Bob"},
		{aclObject(t, "alice", nil, []string{"SELECT"}, nil), "alice=r"},
		{aclObject(t, "alice", ptr("bob"), nil, nil), "alice=/bob"},
		{aclObject(t, "a,b", ptr("bob"), []string{"ALTER SYSTEM", "SET"}, []string{"ALTER SYSTEM"}), `"a,b"=sA*/bob`},
	}
	for _, c := range cases {
		got, err := runFunction(t, NewFormatACLFunction(), c.in)
		if err != nil {
			t.Errorf("format_acl(%v): %v", c.in, err)
			continue
		}
		if d := cmp.Diff(types.StringValue(c.want), got); d != "" {
			t.Errorf("format_acl(%v) (-want +got):\n%s", c.in, d)
		}
	}
	bad := []struct {
		in   types.Object
		want string
	}{
		{aclObject(t, "", ptr("bob"), []string{"SELECT"}, nil), `grantee must not be empty (use "public" for PUBLIC)`},
		{aclObject(t, "alice", ptr(""), []string{"SELECT"}, nil), "grantor must not be empty"},
		{aclObject(t, "alice", ptr("public"), []string{"SELECT"}, nil), "grantor cannot be PUBLIC"},
		{aclObject(t, "alice", ptr("bob"), []string{"ALL"}, nil), `unknown privilege "ALL" in privileges`},
		{aclObject(t, "alice", ptr("bob"), []string{"SELECT"}, []string{"UPDATE"}), `grantable privilege "UPDATE" is not in privileges`},
		{aclObject(t, strings.Repeat("x", 64), ptr("bob"), nil, nil), "grantee is 64 bytes long"},
	}
	for _, c := range bad {
		_, err := runFunction(t, NewFormatACLFunction(), c.in)
		wantFuncError(t, c.want, err, 0, "acl: "+c.want)
	}
	list := types.ListValueMust(types.ObjectType{AttrTypes: aclItemAttrTypes}, []attr.Value{
		aclObject(t, "alice", ptr("bob"), []string{"SELECT"}, nil), aclObject(t, "alice", ptr("bob"), []string{"NOPE"}, nil),
	})
	_, err := runFunction(t, NewFormatACLsFunction(), list)
	wantFuncError(t, "format_acls", err, 0, `acls: element 2: unknown privilege "NOPE"`)
}
