package pg

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLegacyFunctionBody(t *testing.T) {
	def := func(body, lang string) LegacyFunctionBody {
		return LegacyFunctionBody{Body: body, Language: lang, Volatility: "VOLATILE", Parallel: "UNSAFE"}
	}
	allOpts := def("SELECT a + b", "sql")
	allOpts.Volatility, allOpts.Strict, allOpts.Parallel = "IMMUTABLE", true, "SAFE"
	definer := def("\nBEGIN\n  RETURN 1;\nEND;\n", "plpgsql")
	definer.Volatility, definer.SecurityDefiner = "STABLE", true
	for text, want := range map[string]LegacyFunctionBody{
		// cyrilgdn 1.18.0's documented example
		"AS $$\nBEGIN\n    RETURN i + 1;\nEND;\n$$ LANGUAGE plpgsql;\n":   def("\nBEGIN\n    RETURN i + 1;\nEND;\n", "plpgsql"),
		"AS $$SELECT a + b$$ LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE": allOpts,
		"as 'select a + b' language SQL returns null on null input immutable parallel safe": func() LegacyFunctionBody {
			m := allOpts
			m.Body = "select a + b"
			return m
		}(),
		"LANGUAGE plpgsql STABLE EXTERNAL SECURITY DEFINER AS $body$\nBEGIN\n  RETURN 1;\nEND;\n$body$": definer,
		"AS 'it''s' LANGUAGE 'sql' CALLED ON NULL INPUT -- comment\n;":                                  def("it's", "sql"),
		"/* c */ AS $$ $$ LANGUAGE \"plpgsql\" SECURITY INVOKER PARALLEL RESTRICTED": func() LegacyFunctionBody {
			m := def(" ", "plpgsql")
			m.Parallel = "RESTRICTED"
			return m
		}(),
	} {
		got, ok := ParseLegacyFunctionBody(text)
		if !ok {
			t.Errorf("%q: not read", text)
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", text, d)
		}
	}
	for _, text := range []string{
		"SELECT a + b",                        // the function's source, as 1.19+ write it
		"BEGIN\n  PERFORM 1;\nEND;\n",         // likewise
		"AS $$SELECT 1$$",                     // no language
		"AS $$SELECT 1$$ LANGUAGE sql COST 5", // not describable
		"AS 'obj', 'sym' LANGUAGE c",
		"AS $$SELECT 1$$ LANGUAGE sql SET search_path = public",
		"AS $$SELECT 1$$ LANGUAGE sql; DROP TABLE x",
		"AS E'x' LANGUAGE sql",
		"AS $$unterminated LANGUAGE sql",
		"",
	} {
		if got, ok := ParseLegacyFunctionBody(text); ok {
			t.Errorf("%q: read as %+v, want not read", text, got)
		}
	}
}
