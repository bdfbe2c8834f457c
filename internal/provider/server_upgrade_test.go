package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func strMap(kv ...string) types.Map {
	elems := map[string]attr.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		elems[kv[i]] = types.StringValue(kv[i+1])
	}
	return types.MapValueMust(types.StringType, elems)
}

func serverDefaults(name, fdw, owner string) serverModel {
	return serverModel{
		ID: types.StringValue(name), OID: types.Int64Null(), Database: types.StringNull(),
		ServerName: types.StringValue(name), FDWName: types.StringValue(fdw),
		ServerType: types.StringValue(""), ServerVersion: types.StringValue(""), ServerOwner: types.StringValue(owner),
		Options: types.MapNull(types.StringType), DropCascade: types.BoolValue(false),
		OptionsWO: types.MapNull(types.StringType), OptionsWOVersion: types.StringNull(), OptionsWONames: types.SetNull(types.StringType),
	}
}

func TestUpgradeServerV0Fixtures(t *testing.T) {
	full := serverDefaults("fx_srv_remote", "postgres_fdw", "fx_srv_owner")
	full.ServerType, full.ServerVersion, full.DropCascade = types.StringValue("postgresql"), types.StringValue("15"), types.BoolValue(true)
	full.Options = strMap("dbname", "remote_db", "fetch_size", "500", "host", "db.example.internal", "port", "5432")
	files := serverDefaults("fx_srv_files", "file_fdw", "postgres")
	filesRefreshed := files
	filesRefreshed.Options = strMap() // {} after a refresh, null after apply: the plan treats both as "none"
	umRemote := serverDefaults("fx_um_remote", "postgres_fdw", "postgres")
	umRemote.Options = strMap("dbname", "remote_db", "host", "db.example.internal")
	umNoopt := serverDefaults("fx_um_noopt_srv", "postgres_fdw", "postgres")
	umNooptRefreshed := umNoopt
	umNooptRefreshed.Options = strMap()

	want := map[string]map[string]serverModel{
		"server/postgres_fdw_full/terraform.tfstate":            {"remote": full},
		"server/postgres_fdw_full/terraform.refreshed.tfstate":  {"remote": full},
		"server/minimal/terraform.tfstate":                      {"files": files},
		"server/minimal/terraform.refreshed.tfstate":            {"files": filesRefreshed},
		"user_mapping/with_options/terraform.tfstate":           {"remote": umRemote},
		"user_mapping/with_options/terraform.refreshed.tfstate": {"remote": umRemote},
		"user_mapping/no_options/terraform.tfstate":             {"remote": umNoopt},
		"user_mapping/no_options/terraform.refreshed.tfstate":   {"remote": umNooptRefreshed},
	}
	checkFixtureUpgrades(t, NewServerResource(), "postgresql_server", want)
	// The import case has no state: cyrilgdn's import failed (its Read ignored the ID).
	checkImportFailedFixture(t, "server/import")
}

// checkImportFailedFixture asserts that an import fixture case recorded
// cyrilgdn's failed import (no state to upgrade); our import is tested by the
// acceptance tests.
func checkImportFailedFixture(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cyrilgdn", dir, "import-error.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Cannot import non-existent remote object") {
		t.Errorf("%s/import-error.txt does not record the failed import", dir)
	}
	if _, err := os.Stat(filepath.Join("testdata", "cyrilgdn", dir, "terraform.tfstate")); err == nil {
		t.Errorf("%s has a state file: add it to the upgrader test", dir)
	}
}
