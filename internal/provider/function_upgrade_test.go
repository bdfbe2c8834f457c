package provider

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func fnArg(name, typ, mode, def string) functionArgModel {
	return functionArgModel{Name: types.StringValue(name), Type: types.StringValue(typ), Mode: types.StringValue(mode), Default: types.StringValue(def)}
}

func fnDefaults(db, schema, name, body string) functionModel {
	return functionModel{
		OID: types.Int64Null(), Name: types.StringValue(name), Schema: types.StringValue(schema), Database: types.StringValue(db),
		Arg: newFunctionArgList(nil), Returns: sqlTypeName{StringValue: types.StringValue("void")}, Language: keyword{StringValue: types.StringValue("plpgsql")}, Body: functionBody{StringValue: types.StringValue(body)},
		Volatility: keyword{StringValue: types.StringValue("VOLATILE")}, Parallel: keyword{StringValue: types.StringValue("UNSAFE")}, Strict: types.BoolValue(false),
		SecurityDefiner: types.BoolValue(false), DropCascade: types.BoolValue(false),
	}
}

func TestUpgradeFunctionV0Fixtures(t *testing.T) {
	imp := fnDefaults("postgres", "public", "fx_fn_imp", "SELECT x * 2")
	imp.ID = types.StringValue("postgres.public.fx_fn_imp(integer)")
	imp.Arg = newFunctionArgList([]functionArgModel{fnArg("x", "integer", "IN", "")})
	imp.Returns.StringValue, imp.Language.StringValue, imp.Volatility.StringValue = types.StringValue("integer"), types.StringValue("sql"), types.StringValue("IMMUTABLE")

	stats := fnDefaults("postgres", "public", "fx_stats", "BEGIN\n  label := upper(label);\n  SELECT sum(v) INTO total FROM unnest(vals) AS v;\nEND;\n")
	stats.ID = types.StringValue("postgres.public.fx_stats(text,integer[])")
	stats.Arg = newFunctionArgList([]functionArgModel{fnArg("label", "text", "INOUT", ""), fnArg("total", "bigint", "OUT", ""), fnArg("vals", "integer[]", "VARIADIC", "")})
	stats.Returns.StringValue, stats.Volatility.StringValue = types.StringValue("record"), types.StringValue("STABLE")
	stats.SecurityDefiner, stats.DropCascade = types.BoolValue(true), types.BoolValue(true)

	noop := fnDefaults("postgres", "public", "fx_noop", "BEGIN\n  PERFORM 1;\nEND;\n")
	noop.ID = types.StringValue("postgres.public.fx_noop()")

	add := fnDefaults("fx_fn_db", "fn", "fx_add", "SELECT a + b")
	add.ID = types.StringValue("fx_fn_db.fn.fx_add(integer,integer)")
	add.Arg = newFunctionArgList([]functionArgModel{fnArg("a", "integer", "IN", ""), fnArg("b", "integer", "IN", "1")})
	add.Returns.StringValue, add.Language.StringValue, add.Volatility.StringValue = types.StringValue("integer"), types.StringValue("sql"), types.StringValue("IMMUTABLE")
	add.Strict, add.Parallel.StringValue = types.BoolValue(true), types.StringValue("SAFE")

	want := map[string]map[string]functionModel{
		"function/import/terraform.tfstate":                    {"imp": imp},
		"function/out_args_security_definer/terraform.tfstate": {"stats": stats},
		"function/plpgsql_minimal/terraform.tfstate":           {"noop": noop},
		"function/sql_with_args/terraform.tfstate":             {"add": add},
		// 1.18: the refresh rewrote the id of a function made without a schema
		"function/plpgsql_minimal/terraform.refreshed.tfstate": {"noop": noop},
	}
	// Before 1.21 there are no volatility, parallel, strict nor
	// security_definer (the adapted cases do not set them, and cyrilgdn made
	// the functions without them): the upgrade takes their defaults. Before
	// 1.19 the body held all of it (the adapted cases say it there: the same
	// functions as 1.26's), and the upgrade reads it from there: the function's
	// source as the AS string has it (a heredoc's starts with its newline).
	adjust := func(version, _, _ string, m *functionModel) {
		if releaseBefore(version, "1.19.0") && m.Language.ValueString() == "plpgsql" {
			m.Body.StringValue = types.StringValue("\n" + m.Body.ValueString())
		}
		if version == "1.19.0" {
			m.Volatility.StringValue, m.Parallel.StringValue = types.StringValue("VOLATILE"), types.StringValue("UNSAFE")
			m.Strict, m.SecurityDefiner = types.BoolValue(false), types.BoolValue(false)
		}
	}
	checkFixtureUpgradesBySet(t, NewFunctionResource(), "postgresql_function", want, adjust)
}

func TestParseFunctionID(t *testing.T) {
	for id, want := range map[string][]string{
		"postgres.public.f()":                         {"postgres", "public", "f"},
		"db.s.f(integer, numeric(10,2))":              {"db", "s", "f", "integer", "numeric(10,2)"},
		"postgres.public.fx_stats(text,integer[])":    {"postgres", "public", "fx_stats", "text", "integer[]"},
		`postgres.public.name.with.dots("char",text)`: {"postgres", "public", "name.with.dots", `"char"`, "text"},
		`"my.db".public."f(x) ""y"""(integer)`:        {"my.db", "public", `f(x) "y"`, "integer"},
		`postgres."a.b".f_"q"()`:                      {"postgres", "a.b", `f_"q"`},
	} {
		db, s, n, args, err := parseFunctionID(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if d := cmp.Diff(want, append([]string{db, s, n}, args...)); d != "" {
			t.Errorf("%s: %s", id, d)
		}
	}
	for _, bad := range []string{"f()", "db.f()", "db.s.f", "db.s.f(a,,b)", `db."s.f"()`, `db.s."f()`} {
		if _, _, _, _, err := parseFunctionID(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestUpgradeFunctionV0_regressionLegacyBodyBefore119 guards the upgrade of
// states written by cyrilgdn before 1.19 (testdata/cyrilgdn-1.18.0): there
// `body` held everything after the return type (`AS $$ ... $$ LANGUAGE sql
// IMMUTABLE`), with no language (nor volatility, strict, parallel, security),
// and the id lacked the database (`"fn"."fx_add"(integer,integer)`). The
// upgrade kept that body and that id: the function then had language plpgsql
// and a body that is not its source, and a refresh could not find it by id.
func TestUpgradeFunctionV0_regressionLegacyBodyBefore119(t *testing.T) {
	n := 0
	for _, file := range []string{"function/sql_with_args/terraform.tfstate", "function/out_args_security_definer/terraform.tfstate", "function/plpgsql_minimal/terraform.tfstate"} {
		for _, inst := range loadSetInstances(t, "cyrilgdn-1.18.0", file, "postgresql_function") {
			var got functionModel
			runUpgrader(t, NewFunctionResource(), inst, &got)
			n++
			if strings.HasPrefix(strings.TrimSpace(got.Body.ValueString()), "AS") || strings.Contains(got.Body.ValueString(), "LANGUAGE") {
				t.Errorf("%s: body %q is still the text after RETURNS", file, got.Body.ValueString())
			}
			if _, _, _, _, err := parseFunctionID(got.ID.ValueString()); err != nil {
				t.Errorf("%s: id %q: %v", file, got.ID.ValueString(), err)
			}
			if file == "function/sql_with_args/terraform.tfstate" {
				want := map[string]string{"language": "sql", "volatility": "IMMUTABLE", "parallel": "SAFE", "body": "SELECT a + b", "id": "fx_fn_db.fn.fx_add(integer,integer)"}
				gotVals := map[string]string{"language": got.Language.ValueString(), "volatility": got.Volatility.ValueString(), "parallel": got.Parallel.ValueString(), "body": got.Body.ValueString(), "id": got.ID.ValueString()}
				if d := cmp.Diff(want, gotVals); d != "" || !got.Strict.ValueBool() {
					t.Errorf("%s: (-want +got) %s strict=%v", file, d, got.Strict)
				}
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d functions in the 1.18.0 states, want 3", n)
	}
}

// TestUpgradeFunctionV0_regressionUnnamedArgumentTypeLost guards a state
// cyrilgdn 1.26.0 wrote for a function with an argument without a name (the
// corpus case unnamed_argument): its read stores the argument's type as "".
// Upgraded as such, the next refresh looked the function up as
// unnamed_arg() and, not finding it, planned to create it again.
func TestUpgradeFunctionV0_regressionUnnamedArgumentTypeLost(t *testing.T) {
	for _, inst := range recordedInstances(t, "function", "superuser", "postgresql_function") {
		if inst.Name != "unnamed" {
			continue
		}
		if !strings.Contains(string(inst.Attributes), `"type": ""`) {
			t.Fatalf("the recorded state no longer shows cyrilgdn's lost type: %s", inst.Attributes)
		}
		var got functionModel
		runUpgrader(t, NewFunctionResource(), inst, &got)
		args, _ := functionArgModels(got.Arg.ListValue)
		if len(args) != 1 || args[0].Type.ValueString() != "text" {
			t.Fatalf("upgraded arguments %v, want one of type text (from the id %s)", args, got.ID)
		}
		return
	}
	t.Fatal("no function unnamed in the recording")
}
