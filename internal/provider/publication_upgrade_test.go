package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradePublicationV0Fixtures(t *testing.T) {
	pub := func(db, name, owner string) publicationModel {
		return publicationModel{
			ID: types.StringValue(db + "." + name), OID: types.Int64Null(), Name: types.StringValue(name), Database: types.StringValue(db),
			Owner: types.StringValue(owner), Tables: strSet(), Schemas: strSet(), AllTables: types.BoolValue(false),
			PublishParam: strList("insert", "update", "delete", "truncate"), PublishViaPartitionRootParam: types.BoolValue(false),
			PublishGeneratedColumnsParam: types.StringNull(), DropCascade: types.BoolValue(false),
		}
	}
	all := pub("fx_pub_db", "fx_pub_all", "postgres")
	all.AllTables, all.PublishParam = types.BoolValue(true), strList("insert", "update")
	all.Tables = strSet("app.t2", "public.measurements_2025", "public.t1")

	// cyrilgdn's import leaves the id as "fx_pub_db."; the upgrader repairs it.
	imp := pub("fx_pub_db", "fx_pub_imp", "postgres")
	imp.Tables, imp.PublishParam = strSet("public.t1"), strList("insert", "delete")

	some := pub("fx_pub_db", "fx_pub_some", "fx_pub_owner")
	some.Tables = strSet("app.t2", "public.measurements", "public.t1")
	some.PublishViaPartitionRootParam, some.DropCascade = types.BoolValue(true), types.BoolValue(true)

	want := map[string]map[string]publicationModel{
		"publication/all_tables/terraform.tfstate":  {"all": all},
		"publication/import/terraform.tfstate":      {"imp": imp},
		"publication/tables_list/terraform.tfstate": {"some": some, "empty": pub("postgres", "fx_pub_empty", "postgres")},
	}
	checkFixtureUpgrades(t, NewPublicationResource(), "postgresql_publication", want)
}
