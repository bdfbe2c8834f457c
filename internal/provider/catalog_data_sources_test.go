package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

func TestAccCatalogDataSources(t *testing.T) {
	db := acctest.RandName("dsdb")
	str := knownvalue.StringExact
	table := func(schema, name, typ string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"schema_name": str(schema), "object_name": str(name), "table_type": str(typ)})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck: func() {
			acctest.PreCheck(t)
			acctest.Database(t, db, acctest.AdminUser())
			// created as the admin role, so both admin modes see them in information_schema
			acctest.Exec(t, db, "SET ROLE "+pgconn.QuoteIdent(acctest.AdminUser()),
				"CREATE SCHEMA app_one", "CREATE SCHEMA app_two", "CREATE SCHEMA other",
				"CREATE TABLE app_one.t_a (id int)", "CREATE TABLE app_one.t_b (id int)",
				"CREATE VIEW app_two.v_x AS SELECT 1 AS one", "CREATE TABLE other.t_c (id int)",
				"CREATE SEQUENCE app_one.seq_1", "CREATE SEQUENCE other.seq_2 AS integer", "CREATE SEQUENCE other.nope")
		},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.Config(`
data "postgresql_schemas" "all" {
  database = %[1]q
}
data "postgresql_schemas" "like" {
  database          = %[1]q
  like_any_patterns = ["app\\_%%"]
}
data "postgresql_schemas" "sys" {
  database               = %[1]q
  include_system_schemas = true
  regex_pattern          = "^(pg_catalog|information_schema)$"
}
data "postgresql_schemas" "injection" {
  database          = %[1]q
  like_any_patterns = ["%%' OR 1=1 --"]
}
data "postgresql_tables" "filtered" {
  database              = %[1]q
  schemas               = ["app_one", "app_two"]
  like_all_patterns     = ["%%\\_%%"]
  not_like_all_patterns = ["%%b"]
}
data "postgresql_tables" "views" {
  database    = %[1]q
  table_types = ["VIEW"]
}
data "postgresql_tables" "injection" {
  database      = %[1]q
  regex_pattern = "' OR 1=1 --"
}
data "postgresql_sequences" "seq" {
  database          = %[1]q
  like_any_patterns = ["seq%%"]
}
data "postgresql_sequences" "other" {
  database = %[1]q
  schemas  = ["other"]
}
data "postgresql_role" "admin" {
  name = %[2]q
}
data "postgresql_database" "db" {
  name = %[1]q
}`, db, acctest.AdminUser()),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.postgresql_schemas.all", tfjsonpath.New("schemas"), knownvalue.SetExact([]knownvalue.Check{str("app_one"), str("app_two"), str("other"), str("public")})),
					statecheck.ExpectKnownValue("data.postgresql_schemas.like", tfjsonpath.New("schemas"), knownvalue.SetExact([]knownvalue.Check{str("app_one"), str("app_two")})),
					statecheck.ExpectKnownValue("data.postgresql_schemas.sys", tfjsonpath.New("schemas"), knownvalue.SetExact([]knownvalue.Check{str("information_schema"), str("pg_catalog")})),
					statecheck.ExpectKnownValue("data.postgresql_schemas.injection", tfjsonpath.New("schemas"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue("data.postgresql_tables.filtered", tfjsonpath.New("tables"), knownvalue.ListExact([]knownvalue.Check{
						table("app_one", "t_a", "BASE TABLE"), table("app_two", "v_x", "VIEW")})),
					statecheck.ExpectKnownValue("data.postgresql_tables.views", tfjsonpath.New("tables"), knownvalue.ListExact([]knownvalue.Check{table("app_two", "v_x", "VIEW")})),
					statecheck.ExpectKnownValue("data.postgresql_tables.injection", tfjsonpath.New("tables"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue("data.postgresql_sequences.seq", tfjsonpath.New("sequences"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"schema_name": str("app_one"), "object_name": str("seq_1"), "data_type": str("bigint")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{"schema_name": str("other"), "object_name": str("seq_2"), "data_type": str("integer")}),
					})),
					statecheck.ExpectKnownValue("data.postgresql_sequences.other", tfjsonpath.New("sequences"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue("data.postgresql_role.admin", tfjsonpath.New("login"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.postgresql_role.admin", tfjsonpath.New("superuser"), knownvalue.Bool(!acctest.Managed())),
					statecheck.ExpectKnownValue("data.postgresql_database.db", tfjsonpath.New("owner"), str(acctest.AdminUser())),
					statecheck.ExpectKnownValue("data.postgresql_database.db", tfjsonpath.New("encoding"), str("UTF8")),
					statecheck.ExpectKnownValue("data.postgresql_database.db", tfjsonpath.New("allow_connections"), knownvalue.Bool(true)),
				},
			},
			{
				Config:      acctest.Config(`data "postgresql_role" "missing" { name = "tfacc_no_such_role" }`),
				ExpectError: regexp.MustCompile(`Role\s+not\s+found`),
			},
			{
				Config:      acctest.Config(`data "postgresql_database" "missing" { name = "tfacc_no_such_db" }`),
				ExpectError: regexp.MustCompile(`Database\s+not\s+found`),
			},
		},
	})
}
