package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestUpgradeUserMappingV0Fixtures(t *testing.T) {
	um := func(user, server string, opts types.Map) userMappingModel {
		return userMappingModel{
			ID: types.StringValue(user + "." + server), OID: types.Int64Null(), Database: types.StringNull(),
			ServerName: types.StringValue(server), UserName: types.StringValue(user), Options: opts,
			OptionsWO: types.MapNull(types.StringType), OptionsWOVersion: types.StringNull(), OptionsWONames: types.SetNull(types.StringType),
		}
	}
	local := um("fx_um_local", "fx_um_remote", strMap("password", "fx-remote-pass-1", "user", "remote_user"))
	pgMap := um("postgres", "fx_um_noopt_srv", strMap("user", "postgres"))
	want := map[string]map[string]userMappingModel{
		"user_mapping/with_options/terraform.tfstate":           {"local": local},
		"user_mapping/with_options/terraform.refreshed.tfstate": {"local": local},
		"user_mapping/no_options/terraform.tfstate": {
			"plain": um("fx_um_plain", "fx_um_noopt_srv", types.MapNull(types.StringType)), "postgres": pgMap,
		},
		// {} after a refresh: kept, the plan treats null and {} alike
		"user_mapping/no_options/terraform.refreshed.tfstate": {
			"plain": um("fx_um_plain", "fx_um_noopt_srv", strMap()), "postgres": pgMap,
		},
	}
	checkFixtureUpgrades(t, NewUserMappingResource(), "postgresql_user_mapping", want)
	checkImportFailedFixture(t, "user_mapping/import")
}
