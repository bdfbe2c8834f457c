package provider

import (
	"reflect"
	"testing"
)

// The order of cyrilgdn's sets, as its fixture ids show it
// (`..._column_t1_name_id`, `..._table_t1_t2`).
func TestSDKSetOrder(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"id", "name"}, []string{"name", "id"}},
		{[]string{"t2", "t1"}, []string{"t1", "t2"}},
		{nil, nil},
	} {
		if got := sdkSetOrder(c.in); !reflect.DeepEqual(got, c.want) && len(got)+len(c.want) > 0 {
			t.Errorf("sdkSetOrder(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGrantID(t *testing.T) {
	for _, c := range []struct {
		role, db, schema, ot string
		objects, columns     []string
		want                 string
	}{
		{"fx_gr_cols", "fx_grant_db", "app", "column", []string{"t1"}, []string{"id", "name"}, "fx_gr_cols_fx_grant_db_app_column_t1_name_id"},
		{"fx_gr_app", "fx_grant_db", "", "database", nil, nil, "fx_gr_app_fx_grant_db_database"},
		{"fx_gr_app", "fx_grant_db", "public", "database", nil, nil, "fx_gr_app_fx_grant_db_database"}, // cyrilgdn ignores a database grant's schema
		{"fx_gr_fdw", "fx_grant_db", "", "foreign_server", []string{"fx_grant_srv"}, nil, "fx_gr_fdw_fx_grant_db_foreign_server_fx_grant_srv"},
		{"fx_gr_reader", "fx_grant_db", "app", "table", nil, nil, "fx_gr_reader_fx_grant_db_app_table"},
		{"app", "db", "", "parameter", []string{"work_mem"}, nil, "app_db_parameter_work_mem"},
	} {
		if got := grantID(c.role, c.db, c.schema, c.ot, c.objects, c.columns); got != c.want {
			t.Errorf("grantID(%q, %q, %q, %q, %q, %q) = %q, want %q", c.role, c.db, c.schema, c.ot, c.objects, c.columns, got, c.want)
		}
	}
}

func TestUnderscoreSplits(t *testing.T) {
	got := underscoreSplits("a_b__c", 2)
	want := [][]string{{"a", "b__c"}, {"a_b", "_c"}, {"a_b_", "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("underscoreSplits = %q, want %q", got, want)
	}
	if got := underscoreSplits("abc", 2); got != nil {
		t.Errorf("underscoreSplits(abc, 2) = %q, want none", got)
	}
}

func TestUnderscoreWords(t *testing.T) {
	for _, c := range []struct {
		s          string
		names      []string
		signatures bool
		want       [][]string
	}{
		{"t1_t2", []string{"t1", "t2", "t3"}, false, [][]string{{"t1", "t2"}}},
		{"a_b_c", []string{"a", "b", "c", "a_b", "b_c"}, false, [][]string{{"a", "b", "c"}, {"a", "b_c"}, {"a_b", "c"}}},
		{"f(integer, my_type)_g", []string{"f", "g"}, true, [][]string{{"f(integer, my_type)", "g"}}},
		{"f(integer)", []string{"f"}, false, nil},
		{"t1_x", []string{"t1"}, false, nil},
	} {
		if got := underscoreWords(c.s, namesAt(c.names, c.signatures)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("underscoreWords(%q, %q) = %q, want %q", c.s, c.names, got, c.want)
		}
	}
}
