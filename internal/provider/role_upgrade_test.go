package provider

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func strSet(v ...string) types.Set {
	elems := make([]attr.Value, len(v))
	for i, s := range v {
		elems[i] = types.StringValue(s)
	}
	return types.SetValueMust(types.StringType, elems)
}

func strList(v ...string) types.List {
	elems := make([]attr.Value, len(v))
	for i, s := range v {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}

// roleDefaults is what an upgraded role with every attribute at its default looks like.
func roleDefaults(name string) roleModel {
	return roleModel{
		ID: types.StringValue(name), OID: types.Int64Null(), Name: types.StringValue(name),
		roleAttributes: roleAttributes{
			Superuser: types.BoolValue(false), CreateDatabase: types.BoolValue(false), CreateRole: types.BoolValue(false),
			Inherit: types.BoolValue(true), Login: types.BoolValue(false), Replication: types.BoolValue(false),
			BypassRLS: types.BoolValue(false), ConnectionLimit: types.Int64Value(-1),
		},
		EncryptedPassword: types.BoolValue(true),
		Encrypted:         types.StringNull(), Password: types.StringNull(), PasswordDrift: types.StringValue("report"), PasswordWO: types.StringNull(),
		PasswordWOVersion: types.StringNull(), Roles: types.SetNull(types.StringType), SearchPath: strList(),
		ValidUntil: types.StringValue("infinity"), SkipDropRole: types.BoolValue(false), SkipReassignOwned: types.BoolValue(false),
		StatementTimeout: types.Int64Value(0), IdleInTransactionSessionTimeout: types.Int64Value(0), AssumeRole: types.StringValue(""),
	}
}

func TestUpgradeRoleV0Fixtures(t *testing.T) {
	app := roleDefaults("fx_role_app")
	app.Login = types.BoolValue(true)
	app.Password = types.StringValue("fx-app-pass-1")
	app.ConnectionLimit = types.Int64Value(5)
	app.ValidUntil = types.StringValue("2099-12-31 23:59:59+00")
	app.Roles = strSet("fx_role_group_a", "fx_role_group_b")
	app.SearchPath = strList("app", "$user", "public")
	app.StatementTimeout = types.Int64Value(30000)
	app.IdleInTransactionSessionTimeout = types.Int64Value(60000)
	app.AssumeRole = types.StringValue("fx_role_group_a")

	flags := roleDefaults("fx_role_flags")
	flags.CreateDatabase, flags.CreateRole, flags.Inherit = types.BoolValue(true), types.BoolValue(true), types.BoolValue(false)
	flags.Replication, flags.BypassRLS, flags.SkipReassignOwned = types.BoolValue(true), types.BoolValue(true), types.BoolValue(true)
	flags.Encrypted = types.StringValue("true")

	super := roleDefaults("fx_role_super")
	super.Superuser, super.Login, super.Password = types.BoolValue(true), types.BoolValue(true), types.StringValue("fx-super-pass-1")

	wo := roleDefaults("fx_role_wo")
	wo.Login, wo.ConnectionLimit, wo.PasswordWOVersion = types.BoolValue(true), types.Int64Value(2), types.StringValue("1")
	nopass := roleDefaults("fx_role_nopass")
	nopass.Login = types.BoolValue(true)

	imp := roleDefaults("fx_role_imp")
	imp.Login, imp.ConnectionLimit = types.BoolValue(true), types.Int64Value(3)
	imp.Roles = strSet("fx_role_imp_group")
	imp.SearchPath = strList("public")
	imp.StatementTimeout = types.Int64Value(1000)
	imp.ValidUntil = types.StringValue("2099-01-01 00:00:00+00")

	emptyRoles := func(m roleModel) roleModel { m.Roles = strSet(); return m }
	want := map[string]map[string]roleModel{
		"role/login_password_full/terraform.tfstate": {
			"app": app, "group_a": roleDefaults("fx_role_group_a"), "group_b": roleDefaults("fx_role_group_b"),
		},
		// After a refresh cyrilgdn writes [] for unset roles/search_path: roles stays an
		// (empty, computed) set, search_path stays [] (and a null one becomes []).
		"role/login_password_full/terraform.refreshed.tfstate": {
			"app": app, "group_a": emptyRoles(roleDefaults("fx_role_group_a")), "group_b": emptyRoles(roleDefaults("fx_role_group_b")),
		},
		"role/nologin_flags/terraform.tfstate": {"flags": flags, "quoted": roleDefaults("Fx-Mixed Case"), "super": super},
		// regression: search_path [] in a cyrilgdn state was upgraded to null, a one-off
		// diff after the migration for a configuration saying `search_path = []`
		"role/nologin_flags/terraform.refreshed.tfstate": {
			"flags": emptyRoles(flags), "quoted": emptyRoles(roleDefaults("Fx-Mixed Case")), "super": emptyRoles(super),
		},
		"role/password_wo/terraform.tfstate":           {"wo": wo, "nopass": nopass},
		"role/password_wo/terraform.refreshed.tfstate": {"wo": emptyRoles(wo), "nopass": emptyRoles(nopass)},
		"role/import/terraform.tfstate":                {"imp": imp, "group": roleDefaults("fx_role_imp_group")},
	}
	// Releases before 1.26 wrote password = "" for every role without a
	// password: upgraded to null, as 1.26 writes it (no diff against a
	// configuration without a password). They had no password_wo_version
	// (role/password_wo is adapted: no password_wo), and an import read the
	// role's verifier into password, which stays (see upgradeRoleV0).
	adjust := func(version, file, name string, m *roleModel) {
		if version == "1.26.0" {
			return
		}
		m.PasswordWOVersion = types.StringNull()
		if releaseBefore(version, "1.17.0") && name == "app" {
			m.AssumeRole = types.StringValue("") // no assume_role before 1.17 (the adapted case does not set it)
		}
		if file == "role/import/terraform.tfstate" && name == "imp" {
			m.Password = types.StringValue(fixtureAttr(t, version, file, "postgresql_role", name, "password"))
		}
	}
	checkFixtureUpgradesBySet(t, NewRoleResource(), "postgresql_role", want, adjust, cmp.AllowUnexported(roleModel{}))
}

// TestUpgradeRoleV0_regressionEmptyPasswordBefore126 guards issue 30: states
// written by cyrilgdn 1.25 and earlier hold password = "" for every role
// without a password, which upgraded as "" and showed, on the first plan
// after the switch, an update of every such role (`"" -> null`, hidden as
// sensitive).
func TestUpgradeRoleV0_regressionEmptyPasswordBefore126(t *testing.T) {
	n := 0
	for _, set := range fixtureSets[1:] {
		for _, file := range []string{"role/password_wo/terraform.tfstate", "role/nologin_flags/terraform.refreshed.tfstate", "grant/database_schema/terraform.tfstate"} {
			for _, inst := range loadSetInstances(t, set.dir, file, "postgresql_role") {
				var attrs map[string]any
				if err := json.Unmarshal(inst.Attributes, &attrs); err != nil {
					t.Fatal(err)
				}
				if attrs["password"] != "" {
					continue
				}
				n++
				var got roleModel
				runUpgrader(t, NewRoleResource(), inst, &got)
				if !got.Password.IsNull() {
					t.Errorf("%s %s %s: password %q upgraded to %s, want null", set.version, file, inst.Name, "", got.Password)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no role with password = \"\" in the fixtures of releases before 1.26")
	}
}

// fixtureAttr is a string attribute of the instance name of type typ in a
// fixture state of release version.
func fixtureAttr(t *testing.T, version, file, typ, name, attr string) string {
	t.Helper()
	for _, set := range fixtureSets {
		if set.version != version {
			continue
		}
		for _, inst := range loadSetInstances(t, set.dir, file, typ) {
			if inst.Name != name {
				continue
			}
			var attrs map[string]any
			if err := json.Unmarshal(inst.Attributes, &attrs); err != nil {
				t.Fatal(err)
			}
			s, _ := attrs[attr].(string)
			return s
		}
	}
	t.Fatalf("no %s.%s in %s of %s", typ, name, file, version)
	return ""
}

// TestUpgradeRoleV0_regressionEmptyPasswordConfigured126 guards a role that
// cyrilgdn 1.26.0 made from `password = ""` (the corpus case empty_password:
// modules spell "no password" so): 1.26 stores "" only then (null for a role
// without a password), and the upgrade made it null, as for the "" of every
// role of older releases, so the first plan after the switch updated the
// password. A 1.26 state (it has the password_wo_version key) keeps "".
func TestUpgradeRoleV0_regressionEmptyPasswordConfigured126(t *testing.T) {
	for _, inst := range recordedInstances(t, "role", "superuser", "postgresql_role") {
		if inst.Name != "empty_password" {
			continue
		}
		var got roleModel
		runUpgrader(t, NewRoleResource(), inst, &got)
		if got.Password.IsNull() || got.Password.ValueString() != "" {
			t.Fatalf(`password %s after the upgrade, want "" (as configured and as cyrilgdn 1.26 stored it)`, got.Password)
		}
		return
	}
	t.Fatal("no role empty_password in the recording")
}
