package provider

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Issue 41, item 3: modules output whole grants (`output "g" { value =
// postgresql_grant.x }`). cyrilgdn/postgresql stores an unset objects and
// columns as null; the upgrade made them [], so after the switch every such
// output planned a change (null -> []) although nothing changed. A state seeded
// as cyrilgdn writes it (schema version 0, its outputs included) must plan no
// change at all: no resource change, no output change.
func TestAccGrant_regressionWholeResourceOutputMoves(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("gout")
	db, role := base+"_db", base+"_r"
	acctest.OwnerRole(t, role)
	acctest.Database(t, db, acctest.AdminUser())
	acctest.AdminExec(t, db, "CREATE SCHEMA app", "CREATE TABLE app.t1 (a int)", "CREATE TABLE app.t2 (a int)", "CREATE SEQUENCE app.s1",
		"GRANT CONNECT ON DATABASE "+acctest.QI(db)+" TO "+acctest.QI(role),
		"GRANT USAGE ON SCHEMA app TO "+acctest.QI(role),
		"GRANT SELECT ON ALL TABLES IN SCHEMA app TO "+acctest.QI(role),
		"GRANT USAGE ON SEQUENCE app.s1 TO "+acctest.QI(role))
	// what cyrilgdn 1.26 writes for these grants (testdata/cyrilgdn/grant/*)
	grants := map[string]map[string]any{
		"db": {"columns": nil, "database": db, "id": role + "_" + db + "_database", "object_type": "database", "objects": nil,
			"privileges": []string{"CONNECT"}, "role": role, "schema": nil, "with_grant_option": false},
		"usage": {"columns": nil, "database": db, "id": role + "_" + db + "_app_schema", "object_type": "schema", "objects": nil,
			"privileges": []string{"USAGE"}, "role": role, "schema": "app", "with_grant_option": false},
		"tables": {"columns": nil, "database": db, "id": role + "_" + db + "_app_table", "object_type": "table", "objects": nil,
			"privileges": []string{"SELECT"}, "role": role, "schema": "app", "with_grant_option": false},
		"s1": {"columns": nil, "database": db, "id": role + "_" + db + "_app_sequence_s1", "object_type": "sequence", "objects": []string{"s1"},
			"privileges": []string{"USAGE"}, "role": role, "schema": "app", "with_grant_option": false},
	}
	body := fmt.Sprintf(`
resource "postgresql_grant" "db" {
  database    = %[1]q
  role        = %[2]q
  object_type = "database"
  privileges  = ["CONNECT"]
}
resource "postgresql_grant" "usage" {
  database    = %[1]q
  schema      = "app"
  role        = %[2]q
  object_type = "schema"
  privileges  = ["USAGE"]
}
resource "postgresql_grant" "tables" {
  database    = %[1]q
  schema      = "app"
  role        = %[2]q
  object_type = "table"
  privileges  = ["SELECT"]
}
resource "postgresql_grant" "s1" {
  database    = %[1]q
  schema      = "app"
  role        = %[2]q
  object_type = "sequence"
  objects     = ["s1"]
  privileges  = ["USAGE"]
}
output "db" { value = postgresql_grant.db }
output "usage" { value = postgresql_grant.usage }
output "tables" { value = postgresql_grant.tables }
output "s1" { value = postgresql_grant.s1 }
`, db, role)
	w := acctest.NewWorkdir(t)
	w.SetState(cyrilgdnGrantState(t, grants))
	if out, changes := w.Plan(body); changes {
		t.Fatalf("the plan over cyrilgdn's state shows changes (resources or outputs):\n%s", out)
	}
}

// cyrilgdnGrantState is a state file as cyrilgdn/postgresql 1.26 (Terraform
// 1.11) writes it for postgresql_grant resources with the attributes given,
// each with a root output of the same name holding the whole resource (as a
// module's `output "x" { value = postgresql_grant.x }`), the provider address
// replaced (terraform state replace-provider).
func cyrilgdnGrantState(t *testing.T, grants map[string]map[string]any) string {
	t.Helper()
	objectType := []any{"object", map[string]any{
		"columns": []any{"set", "string"}, "database": "string", "id": "string", "object_type": "string", "objects": []any{"set", "string"},
		"privileges": []any{"set", "string"}, "role": "string", "schema": "string", "with_grant_option": "bool",
	}}
	outputs := map[string]any{}
	var resources []any
	for name, attrs := range grants {
		outputs[name] = map[string]any{"value": attrs, "type": objectType}
		resources = append(resources, map[string]any{
			"mode": "managed", "type": "postgresql_grant", "name": name,
			"provider": `provider["registry.terraform.io/pgtf/postgresql"]`,
			"instances": []any{map[string]any{
				"schema_version": 0, "attributes": attrs, "sensitive_attributes": []any{}, "private": "bnVsbA==",
			}},
		})
	}
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "6f6c1d8e-7a53-4c1e-9b7e-3d2f1c0b9a87",
		"outputs": outputs, "resources": resources, "check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A fresh grant's whole-resource output is stable: after the apply, plans show
// no output change, with objects and columns unset or [] (the state records []).
func TestAccGrant_wholeResourceOutputStable(t *testing.T) {
	f := newAdditiveFixture()
	config := func(objects string) string {
		return f.prefix() + acctest.Resource("postgresql_grant", "x", "role", "postgresql_role.g.name", "database", "local.db", "schema", "local.schema",
			"object_type", `"table"`, "objects", objects, "columns", objects, "privileges", `["SELECT"]`) +
			acctest.Resource("postgresql_grant", "db", "role", "postgresql_role.g.name", "database", "local.db", "object_type", `"database"`, "privileges", `["CONNECT"]`) +
			"output \"x\" { value = postgresql_grant.x }\noutput \"db\" { value = postgresql_grant.db }\n"
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); f.setup(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, f.grantee),
		Steps: []resource.TestStep{
			{Config: config("")},
			{Config: config(""), PlanOnly: true},
			{Config: config("[]"), PlanOnly: true},
		},
	})
}
