package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// upgradedDatabase is an upgraded database with cyrilgdn's usual values.
func upgradedDatabase(name, owner string) databaseModel {
	return databaseModel{
		ID: types.StringValue(name), OID: types.Int64Null(), Name: types.StringValue(name), Owner: types.StringValue(owner),
		Template: templateDatabase{StringValue: types.StringValue("template0")}, Encoding: encodingName{StringValue: types.StringValue("UTF8")},
		LCCollate: localeName{StringValue: types.StringValue("C.UTF-8")}, LCCtype: localeName{StringValue: types.StringValue("C.UTF-8")}, TablespaceName: types.StringValue("pg_default"),
		ConnectionLimit: types.Int64Value(-1), AllowConnections: types.BoolValue(true), IsTemplate: types.BoolValue(false),
		AlterObjectOwnership: types.BoolValue(false), ForceDrop: types.BoolValue(false),
	}
}

func TestUpgradeDatabaseV0Fixtures(t *testing.T) {
	full := upgradedDatabase("fx_db_full", "fx_db_owner")
	full.LCCollate, full.LCCtype = localeName{StringValue: types.StringValue("en_US.UTF-8")}, localeName{StringValue: types.StringValue("en_US.UTF-8")}
	full.ConnectionLimit, full.AlterObjectOwnership = types.Int64Value(10), types.BoolValue(true)

	imp := upgradedDatabase("fx_db_imp", "fx_db_imp_owner")
	imp.ConnectionLimit = types.Int64Value(7) // alter_object_ownership null after import -> false

	tpl := upgradedDatabase("fx_db_tpl", "postgres")
	tpl.Template.StringValue, tpl.AllowConnections, tpl.ConnectionLimit, tpl.IsTemplate = types.StringValue("template1"), types.BoolValue(false), types.Int64Value(0), types.BoolValue(true)
	latin1 := upgradedDatabase("fx_db_latin1", "postgres")
	latin1.Encoding.StringValue, latin1.LCCollate.StringValue, latin1.LCCtype.StringValue = types.StringValue("LATIN1"), types.StringValue("C"), types.StringValue("C")

	want := map[string]map[string]databaseModel{
		"database/full/terraform.tfstate":                      {"full": full},
		"database/full/terraform.refreshed.tfstate":            {"full": full},
		"database/import/terraform.tfstate":                    {"imp": imp},
		"database/minimal/terraform.tfstate":                   {"minimal": upgradedDatabase("fx_db_min", "postgres")},
		"database/template_flags/terraform.tfstate":            {"tpl": tpl, "latin1": latin1},
		"schema/owner_in_database/terraform.tfstate":           {"db": upgradedDatabase("fx_sch_db", "postgres")},
		"schema/owner_in_database/terraform.refreshed.tfstate": {"db": upgradedDatabase("fx_sch_db", "postgres")},
		"schema/import/terraform.tfstate":                      {"db": upgradedDatabase("fx_sch_imp_db", "postgres")},
		"extension/schema_version/terraform.tfstate":           {"db": upgradedDatabase("fx_ext_db", "postgres")},
	}
	// Before 1.23 there is no alter_object_ownership (the adapted cases do
	// not set it): the upgrade takes its default, false.
	adjust := func(version, file, name string, m *databaseModel) {
		if releaseBefore(version, "1.23.0") && name == "full" {
			m.AlterObjectOwnership = types.BoolValue(false)
		}
	}
	checkFixtureUpgradesBySet(t, NewDatabaseResource(), "postgresql_database", want, adjust)
}

func TestDatabaseSpellingEquality(t *testing.T) {
	for _, c := range []struct {
		a, b string
		enc  bool
		want bool
	}{
		{"utf8", "UTF8", true, true}, {"UTF-8", "UTF8", true, true}, {"LATIN1", "UTF8", true, false},
		{"en_US.UTF-8", "en_US.utf8", false, true}, {"C", "C", false, true}, {"C", "C.UTF-8", false, false},
		{"en_US.UTF-8", "de_DE.UTF-8", false, false},
	} {
		f := localeSpelling{}.Same
		if c.enc {
			f = encodingSpelling{}.Same
		}
		if got := f(c.a, c.b); got != c.want {
			t.Errorf("%q vs %q: got %v", c.a, c.b, got)
		}
	}
}
