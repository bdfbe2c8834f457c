package provider

import (
	"bytes"
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

func TestUpgradeGrantV0Fixtures(t *testing.T) {
	ctx := context.Background()
	g := func(role, db, schema, ot string, objects, columns, privs []string, wgo bool) grantModel {
		m := grantModel{
			Role: types.StringValue(role), Database: types.StringValue(db), Schema: tfkit.StringOrNull(schema), ObjectType: types.StringValue(ot),
			// unset objects/columns (null in cyrilgdn's state) stay null
			Objects: setOrNull(objects), Columns: setOrNull(columns),
			Privileges: tfkit.StringSet(privs), WithGrantOption: types.BoolValue(wgo),
		}
		m.ID = types.StringValue(m.id(ctx))
		return m
	}
	db := "fx_grant_db"
	dbSchema := map[string]grantModel{
		"db":            g("fx_gr_app", db, "", "database", nil, nil, []string{"CONNECT", "CREATE", "TEMPORARY"}, false),
		"db_public":     g("public", db, "", "database", nil, nil, []string{"CONNECT"}, false),
		"schema":        g("fx_gr_app", db, "app", "schema", nil, nil, []string{"CREATE", "USAGE"}, true),
		"schema_public": g("public", db, "app", "schema", nil, nil, []string{"USAGE"}, false),
	}
	fdw := map[string]grantModel{
		"fdw":                g("fx_gr_fdw", db, "", "foreign_data_wrapper", []string{"postgres_fdw"}, nil, []string{"USAGE"}, false),
		"revoke_legacy":      g("fx_gr_legacy", db, "app", "table", []string{"t2"}, nil, []string{}, false), // privileges = [] stored as null
		"revoke_public_exec": g("public", db, "app", "function", []string{"f_now"}, nil, []string{}, false),
		"server":             g("fx_gr_fdw", db, "", "foreign_server", []string{"fx_grant_srv"}, nil, []string{"USAGE"}, true),
	}
	seq := map[string]grantModel{
		"cols":        g("fx_gr_cols", db, "app", "column", []string{"t1"}, []string{"id", "name"}, []string{"UPDATE"}, false),
		"func":        g("fx_gr_exec", db, "app", "function", []string{"f_add"}, nil, []string{"EXECUTE"}, false),
		"func_all":    g("fx_gr_exec_all", db, "app", "function", nil, nil, []string{"EXECUTE"}, true),
		"proc":        g("fx_gr_proc", db, "app", "procedure", []string{"p_noop"}, nil, []string{"EXECUTE"}, false),
		"seq_all":     g("fx_gr_seq_all", db, "app", "sequence", nil, nil, []string{"UPDATE", "USAGE"}, false),
		"seq_objects": g("fx_gr_seq", db, "app", "sequence", []string{"s1"}, nil, []string{"SELECT", "USAGE"}, false),
	}
	// cyrilgdn's refresh wrote [] for func_all (it counted the procedure); the
	// upgraded state keeps that, and our first refresh reads EXECUTE again.
	seqRefreshed := map[string]grantModel{}
	for k, v := range seq {
		seqRefreshed[k] = v
	}
	seqRefreshed["func_all"] = g("fx_gr_exec_all", db, "app", "function", nil, nil, []string{}, true)
	tables := map[string]grantModel{
		"tables_all":     g("fx_gr_reader", db, "app", "table", nil, nil, []string{"SELECT"}, true),
		"tables_objects": g("fx_gr_writer", db, "app", "table", []string{"t1", "t2"}, nil, []string{"DELETE", "INSERT", "SELECT", "UPDATE"}, false),
		"view_public":    g("public", db, "app", "table", []string{"v1"}, nil, []string{"SELECT"}, false),
	}
	want := map[string]map[string]grantModel{
		"grant/database_schema/terraform.tfstate":                    dbSchema,
		"grant/database_schema/terraform.refreshed.tfstate":          dbSchema,
		"grant/fdw_server_revoke/terraform.tfstate":                  fdw,
		"grant/fdw_server_revoke/terraform.refreshed.tfstate":        fdw,
		"grant/sequence_function_column/terraform.tfstate":           seq,
		"grant/sequence_function_column/terraform.refreshed.tfstate": seqRefreshed,
		"grant/table_objects_all_tables/terraform.tfstate":           tables,
		"grant/table_objects_all_tables/terraform.refreshed.tfstate": tables,
	}
	checkFixtureUpgrades(t, NewGrantResource(), "postgresql_grant", want)
}

// setOrNull is the set of v, or null for none (what cyrilgdn stores for an
// unset or empty objects/columns).
func setOrNull(v []string) types.Set {
	if v == nil {
		return types.SetNull(types.StringType)
	}
	return tfkit.StringSet(v)
}

// cyrilgdn stores an unset objects/columns as null (its SDK stores no empty
// set, so `objects = []` is null too), or [] where another write left it:
// the upgrade keeps either as it is, so that a whole-resource output of the
// grant does not move after the switch (issue 41; the plan keeps the null
// while objects stays unset, tfkit.UnsetSetPlan). Before the fix null became
// [], and `output "g" { value = postgresql_grant.x }` changed.
func TestUpgradeGrantV0_regressionWholeResourceOutputMoves(t *testing.T) {
	for _, inst := range loadFixtureInstances(t, "grant/table_objects_all_tables/terraform.tfstate", "postgresql_grant") {
		if inst.Name != "tables_all" {
			continue
		}
		if !bytes.Contains(inst.Attributes, []byte(`"objects": null`)) || !bytes.Contains(inst.Attributes, []byte(`"columns": null`)) {
			t.Fatalf("fixture changed: %s", inst.Attributes)
		}
		empty := inst
		empty.Attributes = bytes.ReplaceAll(bytes.ReplaceAll(inst.Attributes, []byte(`"objects": null`), []byte(`"objects": []`)), []byte(`"columns": null`), []byte(`"columns": []`))
		for name, in := range map[string]fixtureInstance{"null": inst, "empty": empty} {
			t.Run(name, func(t *testing.T) {
				var got grantModel
				runUpgrader(t, NewGrantResource(), in, &got)
				for attr, v := range map[string]types.Set{"objects": got.Objects, "columns": got.Columns} {
					if v.IsUnknown() || (name == "null") != v.IsNull() || len(v.Elements()) != 0 {
						t.Errorf("%s upgraded to %s, want the state's %s", attr, v, name)
					}
				}
			})
		}
		return
	}
	t.Fatal("no tables_all instance")
}

func TestUpgradeDefaultPrivilegesV0Fixtures(t *testing.T) {
	dp := func(role, owner, schema, ot string, privs []string, wgo bool) defaultPrivilegesModel {
		m := defaultPrivilegesModel{
			Role: types.StringValue(role), Database: types.StringValue("fx_dp_db"), Owner: types.StringValue(owner),
			Schema: tfkit.StringOrNull(schema), ObjectType: types.StringValue(ot), Privileges: tfkit.StringSet(privs), WithGrantOption: types.BoolValue(wgo),
		}
		m.ID = types.StringValue(m.id())
		return m
	}
	noSchema := map[string]defaultPrivilegesModel{
		"functions": dp("fx_dp_user", "fx_dp_owner", "", "function", []string{"EXECUTE"}, false),
		"tables":    dp("fx_dp_user", "fx_dp_owner", "", "table", []string{"DELETE", "INSERT", "SELECT", "UPDATE"}, false),
		"types":     dp("fx_dp_user", "fx_dp_owner", "", "type", []string{"USAGE"}, false),
	}
	publicSchema := map[string]defaultPrivilegesModel{
		"public_tables":      dp("public", "fx_dp_owner", "app", "table", []string{"SELECT"}, false),
		"revoke_public_exec": dp("public", "fx_dp_owner", "", "function", []string{}, false), // privileges = [] stored as null
		"schemas":            dp("fx_dp_creator", "fx_dp_owner", "", "schema", []string{"CREATE", "USAGE"}, false),
	}
	withSchema := map[string]defaultPrivilegesModel{
		"sequences": dp("fx_dp_reader", "fx_dp_owner", "app", "sequence", []string{"SELECT", "USAGE"}, true),
		"tables":    dp("fx_dp_reader", "fx_dp_owner", "app", "table", []string{"SELECT"}, false),
	}
	want := inBothStates(map[string]map[string]defaultPrivilegesModel{
		"default_privileges/no_schema": noSchema, "default_privileges/public_schema_type": publicSchema, "default_privileges/with_schema": withSchema,
	})
	checkFixtureUpgrades(t, NewDefaultPrivilegesResource(), "postgresql_default_privileges", want)
}

func TestUpgradeGrantRoleV0Fixtures(t *testing.T) {
	gr := func(role, grantRole string, admin bool) grantRoleModel {
		m := grantRoleModel{Role: types.StringValue(role), GrantRole: types.StringValue(grantRole), WithAdminOption: types.BoolValue(admin),
			InheritOption: types.BoolNull(), SetOption: types.BoolNull()}
		m.ID = types.StringValue(m.id())
		return m
	}
	basic := map[string]grantRoleModel{"basic": gr("fx_gro_member", "fx_gro_group", false), "builtin": gr("fx_gro_member", "pg_read_all_data", false)}
	admin := map[string]grantRoleModel{"admin": gr("fx_gro_admin_member", "fx_gro_admin_group", true), "monitor": gr("fx_gro_admin_member", "pg_monitor", false)}
	want := inBothStates(map[string]map[string]grantRoleModel{"grant_role/basic": basic, "grant_role/with_admin_option": admin})
	checkFixtureUpgrades(t, NewGrantRoleResource(), "postgresql_grant_role", want)
}

// cyrilgdn ignored a schema on database grants and read "" as none; the
// state holds what the configuration says, and so must the upgraded one (the
// id leaving it out), or the first plan would show a change.
func TestUpgradeGrantV0_regressionSchemaOnDatabaseGrant(t *testing.T) {
	for _, inst := range loadFixtureInstances(t, "grant/database_schema/terraform.tfstate", "postgresql_grant") {
		if inst.Name != "db" {
			continue
		}
		for _, schema := range []string{"public", ""} {
			in := inst
			in.Attributes = bytes.Replace(inst.Attributes, []byte(`"schema": null`), []byte(`"schema": "`+schema+`"`), 1)
			var got grantModel
			runUpgrader(t, NewGrantResource(), in, &got)
			if got.Schema.IsNull() || got.Schema.ValueString() != schema {
				t.Errorf("schema %q upgraded to %s", schema, got.Schema)
			}
			if got.ID.ValueString() != "fx_gr_app_fx_grant_db_database" {
				t.Errorf("schema %q: id %s", schema, got.ID)
			}
		}
		return
	}
	t.Fatal("no db instance")
}
