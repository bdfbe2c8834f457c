package pg

import "testing"

func f(v float64) *float64 { return &v }

func TestSettingValuesEqual(t *testing.T) {
	workMem := &SettingInfo{Name: "work_mem", Type: "integer", Unit: "kB", Min: f(64), Max: f(2147483647)}
	timeout := &SettingInfo{Name: "statement_timeout", Type: "integer", Unit: "ms", Min: f(0), Max: f(2147483647)}
	naptime := &SettingInfo{Name: "autovacuum_naptime", Type: "integer", Unit: "s"}
	ro := &SettingInfo{Name: "default_transaction_read_only", Type: "bool"}
	iso := &SettingInfo{Name: "IntervalStyle", Type: "enum", EnumVals: []string{"postgres", "iso_8601"}}
	dateStyle := &SettingInfo{Name: "DateStyle", Type: "string"}
	cost := &SettingInfo{Name: "random_page_cost", Type: "real"}
	for _, c := range []struct {
		info       *SettingInfo
		param      string
		a, b       string
		equal      bool
		checkValue string // "" = valid
	}{
		{workMem, "work_mem", "64MB", "65536kB", true, ""},
		{workMem, "work_mem", "1GB", "1024MB", true, ""},
		{workMem, "work_mem", "64MB", "65536", true, ""},
		{workMem, "work_mem", "64MB", "64mb", false, ""}, // units are case-sensitive in PostgreSQL
		{workMem, "work_mem", "64MB", "32MB", false, ""},
		{timeout, "statement_timeout", "1min", "60000", true, ""},
		{timeout, "statement_timeout", "30s", "30000ms", true, ""},
		{timeout, "statement_timeout", "1h", "60min", true, ""},
		{naptime, "autovacuum_naptime", "1min", "60", true, ""},
		{ro, "default_transaction_read_only", "on", "TRUE", true, ""},
		{ro, "default_transaction_read_only", "yes", "1", true, ""},
		{ro, "default_transaction_read_only", "off", "on", false, ""},
		{iso, "IntervalStyle", "ISO_8601", "iso_8601", true, ""},
		{dateStyle, "DateStyle", "ISO, MDY", "iso, mdy", true, ""},
		{cost, "random_page_cost", "1.1", "1.10", true, ""},
		{nil, "search_path", `app, "$user", public`, `app,"$user",public`, true, ""},
		{nil, "app.tenant", "acme", "ACME", false, ""},
	} {
		if got := SettingValuesEqual(c.info, c.param, c.a, c.b); got != c.equal {
			t.Errorf("SettingValuesEqual(%s, %q, %q) = %t, want %t", c.param, c.a, c.b, got, c.equal)
		}
	}
	for _, c := range []struct {
		info  *SettingInfo
		value string
		bad   bool
	}{
		{ro, "maybe", true}, {ro, "o", true}, {ro, "of", false}, {ro, "t", false},
		{iso, "sideways", true}, {iso, " Postgres ", false},
		{timeout, "-5", true}, {timeout, "3000000000", true}, {timeout, "30s", false},
		{workMem, "32kB", true}, {workMem, "lots", false}, // unknown syntax: the server decides
		{workMem, "0x100", false},
	} {
		if got := c.info.checkValue(c.value); (got != "") != c.bad {
			t.Errorf("checkValue(%s, %q) = %q, want bad=%t", c.info.Name, c.value, got, c.bad)
		}
	}
}
