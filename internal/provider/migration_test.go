package provider

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// fixtureSet is a set of cyrilgdn/postgresql fixture states under testdata.
type fixtureSet struct {
	version, dir string
	// byAdmin: written by a provider connected as a non-superuser admin
	// (superuser = false), planned in the managed admin mode
	byAdmin bool
}

// name names the set's views (subtests).
func (s fixtureSet) name() string {
	if s.byAdmin {
		return s.version + "-managed"
	}
	return s.version
}

// fixtureSets are the sets of cyrilgdn/postgresql fixture states under
// testdata written by a superuser provider, one per release (same cases, same
// configurations but where a release lacks an argument or a resource; see each
// set's README.md), newest first.
var fixtureSets = []fixtureSet{
	{version: "1.26.0", dir: "cyrilgdn"},
	{version: "1.25.0", dir: "cyrilgdn-1.25.0"},
	{version: "1.22.0", dir: "cyrilgdn-1.22.0"},
	{version: "1.19.0", dir: "cyrilgdn-1.19.0"},
	{version: "1.18.0", dir: "cyrilgdn-1.18.0"},
	{version: "1.14.0", dir: "cyrilgdn-1.14.0"},
}

// migrationSets are the superuser sets a run plans: every one on PostgreSQL
// 15, where the fixtures were written; elsewhere the newest and the oldest
// (the releases between read through the same upgraders), unless
// PGTF_MIGRATION_ALL=1, to keep make test within its time (CONTRIBUTING,
// "Slow variants").
func migrationSets(t *testing.T) []fixtureSet {
	if os.Getenv("PGTF_MIGRATION_ALL") == "1" || acctest.ServerMajor(t) == 15 {
		return fixtureSets
	}
	return []fixtureSet{fixtureSets[0], fixtureSets[len(fixtureSets)-1]}
}

// managedFixtureSets are the sets written by a provider connected as a
// CREATEROLE CREATEDB non-superuser admin, as on AWS RDS, Cloud SQL or Azure
// (the cases such an admin can run; see the set's README.md).
var managedFixtureSets = []fixtureSet{
	{version: "1.26.0", dir: "cyrilgdn-1.26.0-managed", byAdmin: true},
}

// managedSkips are the cases the managed sets do not have, and why: what
// PostgreSQL reserves to superusers (or to roles with REPLICATION, which the
// managed admin, as the test cluster's, lacks).
var managedSkips = map[string]string{
	"publication/all_tables":                    "CREATE PUBLICATION ... FOR ALL TABLES needs superuser",
	"subscription/create_slot_false":            "CREATE SUBSCRIPTION needs superuser on PostgreSQL 15, where the set was made (pg_create_subscription came in 16)",
	"subscription/custom_slot_name":             "CREATE SUBSCRIPTION needs superuser on PostgreSQL 15, where the set was made (pg_create_subscription came in 16)",
	"subscription/import":                       "CREATE SUBSCRIPTION needs superuser on PostgreSQL 15, where the set was made (pg_create_subscription came in 16)",
	"replication_slot/pgoutput_in_database":     "replication slots need superuser or REPLICATION, which the managed admin lacks",
	"replication_slot/test_decoding_default_db": "replication slots need superuser or REPLICATION, which the managed admin lacks",
	"replication_slot/import":                   "replication slots need superuser or REPLICATION, which the managed admin lacks",
	"physical_replication_slot/basic":           "replication slots need superuser or REPLICATION, which the managed admin lacks",
	"physical_replication_slot/import":          "replication slots need superuser or REPLICATION, which the managed admin lacks",
	"extension/cascade":                         "earthdistance is not a trusted extension (only a superuser may create it), and no trusted contrib extension depends on another",
}

// migrationCases are the fixture cases over which a real `terraform plan`
// with this provider must show no changes, in the states of every release
// that has the case (testdata/cyrilgdn*/README.md). Every case with a state
// is here. Where cyrilgdn's own plan after an import is not empty, because
// the configuration sets a config-only attribute the import leaves null
// (alter_object_ownership, drop_cascade, ...) or a password the 1.26 import
// does not read, expect lists that one in-place update (it runs no SQL but
// the password's), by release ("" for every release); the plan must show
// exactly it. Cases with a refreshed state are checked in both shapes, and
// every release's states over one set of objects, where the releases' SQL
// made the same objects.
//
// A variant plans the same fixture with literal substitutions (replace): the
// configuration or the state spelled differently, as cyrilgdn users write it.
var migrationCases = []struct {
	dir      string
	replace  map[string]string // substitutions for the case and its variants
	variants []migrationVariant
	expect   map[string][]string // release ("" = any) -> the updates the plan must show
	// variantExpect: variant name -> the updates the plan of that variant must show (every release)
	variantExpect map[string][]string
	minMajor      int // the fixture needs PostgreSQL minMajor or later, because of why
	why           string
	needs         map[string][]acctest.CLIFeature // release -> what its configuration needs from the CLI
	// repairedIDs are resources whose fixture id (by release, "" for every
	// one) is a cyrilgdn bug or an old format that the upgrade repairs
	repairedIDs map[string][]string
	// configFrom names, by release, the set whose configuration of the case
	// plans that release's state: where the release took a configuration that
	// later ones refuse, the configuration its users rewrite
	configFrom map[string]string
}{
	{dir: "role/login_password_full"},
	// cyrilgdn stores an unset search_path as null after create and [] after a
	// refresh; a configuration saying `search_path = []` must not see a diff either.
	{dir: "role/nologin_flags", variants: []migrationVariant{{name: "search_path_empty", replace: map[string]string{
		`name = "Fx-Mixed Case"`: "name = \"Fx-Mixed Case\"\n  search_path = []",
		// (the line after the name: main.tf's alignment differs between the sets)
		"\"fx_role_flags\"\n": "\"fx_role_flags\"\n  search_path = []\n",
	}}}},
	{dir: "role/password_wo", needs: map[string][]acctest.CLIFeature{"1.26.0": {acctest.FeatureWriteOnlyArguments}}},
	// 1.26 leaves the password null at import: the configured one is planned
	// (as cyrilgdn plans it). Older releases read the verifier, which the
	// configured password matches: no change.
	{dir: "role/import", expect: map[string][]string{"1.26.0": {"postgresql_role.imp.password"}}},
	// database/full uses the en_US.UTF-8 locale; C.UTF-8 exists everywhere and exercises the same path.
	{dir: "database/full", replace: map[string]string{"en_US.UTF-8": "C.UTF-8"}},
	// `DEFAULT` (the server's default, as cyrilgdn documents it): cyrilgdn
	// records template as configured and the other four as the server has them.
	{dir: "database/minimal", variants: []migrationVariant{{name: "default_keyword", replace: map[string]string{
		`name = "fx_db_min"`: "name = \"fx_db_min\"\n  template = \"DEFAULT\"\n  encoding = \"DEFAULT\"\n  lc_collate = \"DEFAULT\"\n" +
			"  lc_ctype = \"default\"\n  tablespace_name = \"DEFAULT\"",
		`"template": "template0"`: `"template": "DEFAULT"`,
	}}}},
	{dir: "database/template_flags"},
	{dir: "database/import", expect: map[string][]string{
		"1.26.0": {"postgresql_database.imp.alter_object_ownership"}, "1.25.0": {"postgresql_database.imp.alter_object_ownership"},
	}},
	{dir: "schema/owner_in_database"}, {dir: "schema/policy_deprecated"}, {dir: "schema/quoted_cascade"},
	{dir: "schema/import", expect: map[string][]string{"": {"postgresql_schema.imp.drop_cascade"}}},
	{dir: "extension/schema_version"}, {dir: "extension/minimal"}, {dir: "extension/cascade"},
	{dir: "extension/import", expect: map[string][]string{"": {"postgresql_extension.imp.drop_cascade"}}},
	// Modules set one schema on every grant of a for_each, database grants included, and
	// "" for none: cyrilgdn ignored both there (and stored them); so must the upgrade and the plan.
	{dir: "grant/database_schema", variants: []migrationVariant{{name: "schema_ignored", replace: map[string]string{
		"  object_type = \"database\"\n  privileges  = [\"CONNECT\", \"CREATE\", \"TEMPORARY\"]": "  object_type = \"database\"\n  schema      = \"public\"\n  privileges  = [\"CONNECT\", \"CREATE\", \"TEMPORARY\"]",
		"  role        = \"public\"\n  object_type = \"database\"":                               "  role        = \"public\"\n  schema      = \"\"\n  object_type = \"database\"",
		"\"role\": \"fx_gr_app\",\n            \"schema\": null,":                                "\"role\": \"fx_gr_app\",\n            \"schema\": \"public\",",
		"\"role\": \"public\",\n            \"schema\": null,":                                   "\"role\": \"public\",\n            \"schema\": \"\",",
	}}}},
	{dir: "grant/sequence_function_column"}, {dir: "grant/fdw_server_revoke"},
	// `objects = []` (and `columns = []`) is the common cyrilgdn spelling of "every
	// table"; the state holds null for them (cyrilgdn's SDK stores no empty set),
	// or [] (as other cyrilgdn writes leave it). The upgrade keeps the null, so that
	// the grant's whole-resource outputs do not move where objects is unset (issue
	// 41); a configured `[]` over it then plans one in-place update from null to
	// [], which runs no SQL (Terraform accepts no other plan of a configured []
	// over a null).
	{dir: "grant/table_objects_all_tables", variants: []migrationVariant{
		{name: "objects_empty", replace: map[string]string{
			"privileges        = [\"SELECT\"]\n  with_grant_option = true": "objects           = []\n  columns           = []\n  privileges        = [\"SELECT\"]\n  with_grant_option = true",
		}},
		// (columns came in 1.19: older states have no such key)
		{name: "state_empty", since: "1.19.0", replace: map[string]string{`"objects": null`: `"objects": []`, `"columns": null`: `"columns": []`}},
		{name: "objects_and_state_empty", since: "1.19.0", replace: map[string]string{
			"privileges        = [\"SELECT\"]\n  with_grant_option = true": "objects           = []\n  columns           = []\n  privileges        = [\"SELECT\"]\n  with_grant_option = true",
			`"objects": null`: `"objects": []`, `"columns": null`: `"columns": []`,
		}},
	}, variantExpect: map[string][]string{"objects_empty": {"postgresql_grant.tables_all.columns", "postgresql_grant.tables_all.objects"}}},
	{dir: "default_privileges/with_schema"}, {dir: "default_privileges/no_schema"}, {dir: "default_privileges/public_schema_type"},
	{dir: "grant_role/basic", minMajor: 14, why: "it grants the predefined role pg_read_all_data"}, {dir: "grant_role/with_admin_option"},
	// Before 1.19 a function's body held everything after the return type
	// (`AS $$ ... $$ LANGUAGE sql IMMUTABLE`), which 1.19 and later, as this
	// provider, refuse: the 1.18 states plan under the configuration written
	// for 1.26 (the same functions), and their ids ("fn"."fx_add"(integer,
	// integer), without the database) become 1.19's.
	{dir: "function/sql_with_args", configFrom: legacyFunctionConfig, repairedIDs: map[string][]string{"1.18.0": {"postgresql_function.add"}}},
	{dir: "function/plpgsql_minimal", configFrom: legacyFunctionConfig, repairedIDs: map[string][]string{"1.18.0": {"postgresql_function.noop"}}},
	{dir: "function/out_args_security_definer", configFrom: legacyFunctionConfig, repairedIDs: map[string][]string{"1.18.0": {"postgresql_function.stats"}}},
	{dir: "function/import"},
	{dir: "publication/all_tables"}, {dir: "publication/tables_list"},
	// cyrilgdn's import leaves the id "fx_pub_db." (its bug); the upgrade makes
	// it "fx_pub_db.fx_pub_imp", as cyrilgdn's create writes it.
	{dir: "publication/import", expect: map[string][]string{"": {"postgresql_publication.imp.drop_cascade"}}, repairedIDs: map[string][]string{"": {"postgresql_publication.imp"}}},
	{dir: "subscription/create_slot_false"}, {dir: "subscription/custom_slot_name"}, {dir: "subscription/import"},
	{dir: "replication_slot/pgoutput_in_database"}, {dir: "replication_slot/test_decoding_default_db"}, {dir: "replication_slot/import"},
	{dir: "physical_replication_slot/basic"}, {dir: "physical_replication_slot/import"},
	{dir: "server/postgres_fdw_full"}, {dir: "server/minimal"},
	{dir: "user_mapping/with_options"}, {dir: "user_mapping/no_options"},
	{dir: "security_label/role_label"}, {dir: "security_label/schema_table_label"},
}

// legacyFunctionConfig: the 1.18 function cases plan under 1.26's configuration.
var legacyFunctionConfig = map[string]string{"1.18.0": "cyrilgdn"}

// migrationVariant is a case spelled differently: name and substitutions,
// for the states of release since and later ("": every release).
type migrationVariant struct {
	name    string
	replace map[string]string
	since   string
}

// registeredTypes lists the resource type names the provider serves.
func registeredTypes() map[string]bool {
	out := map[string]bool{}
	p := New("test")()
	for _, f := range p.Resources(context.Background()) {
		var resp resource.MetadataResponse
		f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		out[resp.TypeName] = true
	}
	return out
}

// fdwCasesMu serialises the server and user_mapping cases (see below).
var fdwCasesMu sync.Mutex

// TestAccMigration_cyrilgdn recreates the objects of each fixture case, seeds
// its states, as each release wrote them (provider address replaced), and
// expects an empty plan. Cases of one resource type run one after the other
// (they share object names); types run in parallel. As superuser it plans the
// sets a superuser provider wrote; in the managed admin mode, the sets a
// non-superuser admin wrote (managedFixtureSets), and for roles those of the
// superuser sets as well (reading a role needs no privilege).
func TestAccMigration_cyrilgdn(t *testing.T) {
	types := registeredTypes()
	byType := map[string][]int{}
	var order []string
	for i, c := range migrationCases {
		typ := strings.SplitN(c.dir, "/", 2)[0]
		if _, ok := byType[typ]; !ok {
			order = append(order, typ)
		}
		byType[typ] = append(byType[typ], i)
	}
	for _, typ := range order {
		t.Run(typ, func(t *testing.T) {
			if !types["postgresql_"+typ] {
				t.Fatalf("postgresql_%s has migration cases but is not served by this provider (not registered in Resources?)", typ)
			}
			sets := migrationSets(t)
			if acctest.Managed() {
				sets = managedFixtureSets
				if typ == "role" {
					sets = append(slices.Clone(managedFixtureSets), fixtureSets...)
				}
			}
			t.Parallel()
			for _, i := range byType[typ] {
				c := migrationCases[i]
				views := migrationViews(sets, c.dir, c.replace, c.variants, c.expect, c.variantExpect, c.needs)
				for i := range views {
					release := strings.TrimSuffix(strings.SplitN(views[i].Name, "+", 2)[0], "-managed")
					views[i].RepairedIDs = append(slices.Clone(c.repairedIDs[""]), c.repairedIDs[release]...)
					if from, ok := c.configFrom[release]; ok && !views[i].ByAdmin {
						views[i].ConfigDir = filepath.Join("testdata", from, c.dir)
					}
				}
				if len(views) == 0 {
					if why, ok := managedSkips[c.dir]; ok && acctest.Managed() {
						t.Run(strings.TrimPrefix(c.dir, typ+"/"), func(t *testing.T) { t.Skip(why) })
						continue
					}
					t.Errorf("%s: no release has a state for this case", c.dir)
					continue
				}
				t.Run(strings.TrimPrefix(c.dir, typ+"/"), func(t *testing.T) {
					if typ == "security_label" {
						skipWithoutDummyLabelProvider(t)
					}
					if c.minMajor > 0 {
						acctest.SkipBelow(t, c.minMajor, c.why)
					}
					if missing := unservedTypes(t, c.dir, types); len(missing) > 0 {
						t.Fatalf("the case also needs %s, not served by this provider (not registered in Resources?)", strings.Join(missing, ", "))
					}
					opts := acctest.MigrationOptions{Views: views}
					if typ == "server" || typ == "user_mapping" {
						// Their postgres_fdw extension lives in database postgres, where
						// foreign servers of other tests running in parallel depend on it:
						// leave it installed, and run these cases one at a time.
						opts.ForgetBeforeDestroy = []string{"postgresql_extension.postgres_fdw"}
						fdwCasesMu.Lock()
						defer fdwCasesMu.Unlock()
					}
					acctest.MigrationPlanEmpty(t, opts)
				})
			}
		})
	}
}

// migrationViews are the views of a case: for every release that has a state
// of it, the case as written, then each variant.
func migrationViews(sets []fixtureSet, dir string, replace map[string]string, variants []migrationVariant, expect, variantExpect map[string][]string, needs map[string][]acctest.CLIFeature) []acctest.MigrationView {
	var views []acctest.MigrationView
	for _, set := range sets {
		caseDir := filepath.Join("testdata", set.dir, dir)
		var states []string
		for _, state := range []string{"terraform.tfstate", "terraform.refreshed.tfstate"} {
			if _, err := os.Stat(filepath.Join(caseDir, state)); err == nil {
				states = append(states, state)
			}
		}
		if len(states) == 0 {
			continue
		}
		exp, ok := expect[set.version]
		if !ok {
			exp = expect[""]
		}
		base := acctest.MigrationView{Name: set.name(), Dir: caseDir, StateFiles: states, Replace: replace, Expect: exp, Needs: needs[set.version], ByAdmin: set.byAdmin}
		views = append(views, base)
		for _, v := range variants {
			if v.since != "" && releaseBefore(set.version, v.since) {
				continue
			}
			view := base
			view.Name = set.name() + "+" + v.name
			view.Replace = maps.Clone(replace)
			if view.Replace == nil {
				view.Replace = map[string]string{}
			}
			maps.Copy(view.Replace, v.replace)
			if e, ok := variantExpect[v.name]; ok {
				view.Expect = e
			}
			views = append(views, view)
		}
	}
	return views
}

// unservedTypes lists the resource types the case's main.tf declares that the
// provider does not serve (yet), such as postgresql_extension in a server case.
func unservedTypes(t *testing.T, dir string, served map[string]bool) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cyrilgdn", dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, m := range resourceTypeRe.FindAllStringSubmatch(string(b), -1) {
		if !served[m[1]] && !slices.Contains(missing, m[1]) {
			missing = append(missing, m[1])
		}
	}
	return missing
}

var resourceTypeRe = regexp.MustCompile(`(?m)^resource\s+"([a-z0-9_]+)"`)

// TestMigrationCases_served is the unit-test half of TestAccMigration_cyrilgdn's
// guard: every resource type a migration case uses must be served by the
// provider, so that an accidentally unregistered resource fails instead of
// hiding its cases.
func TestMigrationCases_served(t *testing.T) {
	served := registeredTypes()
	for _, c := range migrationCases {
		typ := "postgresql_" + strings.SplitN(c.dir, "/", 2)[0]
		if !served[typ] {
			t.Errorf("%s: %s is not served by the provider", c.dir, typ)
		}
		if missing := unservedTypes(t, c.dir, served); len(missing) > 0 {
			t.Errorf("%s: also needs %s, not served by the provider", c.dir, strings.Join(missing, ", "))
		}
	}
}

// TestMigrationCases_managedCoverage: in the managed admin mode every
// migration case plans a state a non-superuser admin wrote, or skips with the
// reason PostgreSQL gives (managedSkips), and no case does both.
func TestMigrationCases_managedCoverage(t *testing.T) {
	known := map[string]bool{}
	for _, c := range migrationCases {
		known[c.dir] = true
		views := migrationViews(managedFixtureSets, c.dir, nil, nil, nil, nil, nil)
		_, skip := managedSkips[c.dir]
		switch {
		case len(views) == 0 && !skip:
			t.Errorf("%s: no managed-mode state and no reason in managedSkips", c.dir)
		case len(views) > 0 && skip:
			t.Errorf("%s: has a managed-mode state, and a reason in managedSkips", c.dir)
		}
	}
	for dir := range managedSkips {
		if !known[dir] {
			t.Errorf("managedSkips names %s, which is no migration case", dir)
		}
	}
}
