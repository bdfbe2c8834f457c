package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// MigrationView is one way of planning a fixture case: the case as one
// cyrilgdn release wrote it (its directory in that release's set), maybe with
// the configuration or the state spelled differently (Replace).
type MigrationView struct {
	// Name names the view's subtests, e.g. "1.26.0" or "1.19.0+search_path_empty".
	Name string
	// Dir is the case directory (main.tf, setup.sql, apply.sql, states; a file
	// missing there is read from its parent, where a type's cases share it).
	Dir string
	// StateFiles are the fixture states to plan over (default
	// terraform.tfstate), each in a subtest named after the file: the states a
	// fixture holds (as written by the apply, and after a refresh) describe the
	// same objects.
	StateFiles []string
	// Replace holds literal substitutions applied to every file of the view.
	Replace map[string]string
	// ConfigDir, when set, is the directory whose main.tf the view plans
	// (instead of Dir's): the configuration a user rewrote when the release
	// that wrote the state took another one (cyrilgdn before 1.19 spelled a
	// function's body otherwise), with Dir's objects and states.
	ConfigDir string
	// Expect lists the changes the plan must show, each "<address>.<attribute>":
	// an in-place update of exactly those attributes (what cyrilgdn's own plan
	// showed too, e.g. a configured attribute an import leaves null). Empty:
	// the plan must show no changes.
	Expect []string
	// Needs lists what the view's configuration needs from the CLI beyond what
	// every supported one has (write-only arguments, ...): the view skips on a
	// CLI without it.
	Needs []CLIFeature
	// RepairedIDs lists the resource addresses whose id in the fixture state is
	// wrong (a cyrilgdn bug) and is repaired by the upgrade, which the id check
	// (checkIDsKept) then does not hold against it.
	RepairedIDs []string
	// ByAdmin marks a fixture written by a provider connected as a
	// non-superuser admin (a set made with superuser = false): its apply.sql,
	// what that provider ran, is replayed as the admin of the current mode, so
	// that what the admin made is the admin's, as it was in the fixture's
	// cluster (setup.sql and teardown.sql still run as the superuser).
	ByAdmin bool
}

// MigrationOptions tunes MigrationPlanEmpty.
type MigrationOptions struct {
	// Views are the ways the case is planned. Views whose SQL (setup.sql,
	// apply.sql, teardown.sql) makes the same objects plan over one set of
	// them, created and destroyed once; a view whose configuration and state
	// are the same as an earlier one's (two releases that wrote the same state)
	// is not planned again.
	Views []MigrationView
	// ForgetBeforeDestroy lists resource addresses removed from the state
	// (terraform state rm) before the final destroy: objects shared with
	// other tests running in parallel, which must stay.
	ForgetBeforeDestroy []string
}

// The non-superuser admin (CREATEROLE CREATEDB) of the cluster the
// managed-mode fixture sets were made on, and its password
// (testdata/cyrilgdn-1.26.0-managed/README.md).
const (
	fixtureManagedAdmin    = "fx_managed_admin"
	fixtureManagedPassword = "fxmanagedpw"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// migrationView is a view with its files read and substituted.
type migrationView struct {
	MigrationView
	body    string   // main.tf without its terraform and provider blocks
	states  []string // the state files' content, in StateFiles order
	objects string   // what its SQL makes (objectsKey)
	scripts map[string]string
}

// MigrationPlanEmpty is the end-to-end migration check for one cyrilgdn
// fixture case (a directory with main.tf, setup.sql, apply.sql and states),
// as written by one or more cyrilgdn releases (the views): it recreates the
// objects the community provider made (setup.sql + apply.sql, as the
// superuser), and for each view and each of its states (a subtest per view
// and state file) seeds the state with the provider address replaced (as
// `terraform state replace-provider` does) and runs a real `terraform plan`
// with this provider, which must show no changes (or exactly the view's
// Expect). It then destroys everything (as the superuser) and runs
// teardown.sql.
//
// Fixture object names are fixed, so a case must not run twice at once.
func MigrationPlanEmpty(t *testing.T, opts MigrationOptions) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	PreCheck(t)
	under := CLIUnderTest(t)
	tf := under.Path
	bin := providerBinaryDir(t)

	var views []*migrationView
	for _, v := range opts.Views {
		if missing := missingFeatures(t, v.Needs); missing != "" {
			t.Logf("view %s skipped: the CLI lacks %s", v.Name, missing)
			continue
		}
		mv := readMigrationView(t, v)
		if !under.Supports(FeatureSchemaSensitivityInState) {
			// the fixtures were written by Terraform 1.11.4, which records the
			// schema's sensitive attributes; seed the state as this CLI writes it
			for i := range mv.states {
				mv.states[i] = withoutSchemaSensitivePaths(t, mv.states[i])
			}
		}
		views = append(views, mv)
	}
	if len(views) == 0 {
		t.Skip("no view of the case runs on this CLI")
	}
	// views over the same objects, in order of first appearance
	var groups [][]*migrationView
	for _, v := range views {
		placed := false
		for i, g := range groups {
			if g[0].objects == v.objects {
				groups[i] = append(g, v)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []*migrationView{v})
		}
	}
	planned := map[string]string{} // input key -> where it was planned
	for _, g := range groups {
		migrationGroup(t, tf, bin, g, opts, planned)
	}
}

func missingFeatures(t *testing.T, needs []CLIFeature) string {
	t.Helper()
	under := CLIUnderTest(t)
	for _, f := range needs {
		if !under.Supports(f) {
			return string(f)
		}
	}
	return ""
}

// readMigrationView reads the files of a view, substituted.
func readMigrationView(t *testing.T, v MigrationView) *migrationView {
	t.Helper()
	replacer := []string{"25433", os.Getenv("PGPORT"), "pgfixpw", superPassword(), "registry.terraform.io/cyrilgdn/postgresql", "registry.terraform.io/pgtf/postgresql"}
	if v.ByAdmin {
		// the admin of the fixture's cluster is the admin of the current mode here
		replacer = append(replacer, fixtureManagedAdmin, AdminUser(), fixtureManagedPassword, os.Getenv("PGPASSWORD"))
	}
	unused := map[string]bool{}
	for k, val := range v.Replace {
		replacer = append(replacer, k, val)
		unused[k] = true
	}
	sub := strings.NewReplacer(replacer...)
	// read returns a file of the case, else the one its type's cases share
	// (testdata/cyrilgdn/README.md), else "".
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(v.Dir, name))
		if os.IsNotExist(err) {
			b, err = os.ReadFile(filepath.Join(filepath.Dir(v.Dir), name))
		}
		if err != nil {
			if os.IsNotExist(err) {
				return ""
			}
			t.Fatal(err)
		}
		for k := range unused {
			if strings.Contains(string(b), k) {
				delete(unused, k)
			}
		}
		return sub.Replace(string(b))
	}
	mv := &migrationView{MigrationView: v, scripts: map[string]string{}}
	if len(mv.StateFiles) == 0 {
		mv.StateFiles = []string{"terraform.tfstate"}
	}
	mainTF := read("main.tf")
	if v.ConfigDir != "" {
		b, err := os.ReadFile(filepath.Join(v.ConfigDir, "main.tf"))
		if err != nil {
			t.Fatal(err)
		}
		mainTF = sub.Replace(string(b))
	}
	body, err := stripProviderHeader(mainTF)
	if err != nil {
		t.Fatalf("%s/main.tf: %v", v.Dir, err)
	}
	mv.body = body
	for _, f := range mv.StateFiles {
		mv.states = append(mv.states, read(f))
	}
	for _, f := range []string{"setup.sql", "apply.sql", "teardown.sql"} {
		mv.scripts[f] = read(f)
	}
	mv.objects = objectsKey(mv.scripts["setup.sql"] + "\n\\connect postgres\n" + mv.scripts["apply.sql"] + "\n\\connect postgres\n-- teardown\n" + mv.scripts["teardown.sql"])
	if v.ByAdmin {
		mv.objects = "by admin\n" + mv.objects
	}
	for k := range unused { // a substitution that matches nothing would silently test the unchanged fixture
		t.Fatalf("view %s: Replace %q occurs in no file of %s", v.Name, k, v.Dir)
	}
	return mv
}

// objectsKey identifies what a fixture's SQL makes: its statements with the
// database each runs in, sorted (the releases ran the same statements in
// different orders where they ran them in parallel).
func objectsKey(script string) string {
	db, section := "postgres", ""
	var stmts []string
	var chunk strings.Builder
	flush := func() {
		for _, s := range SplitSQL(chunk.String()) {
			s = optionsList.ReplaceAllStringFunc(strings.Join(strings.Fields(s), " "), sortedOptions)
			stmts = append(stmts, section+"\x00"+db+"\x00"+s)
		}
		chunk.Reset()
	}
	for _, line := range strings.Split(script, "\n") {
		l := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(l, `\connect `); ok {
			flush()
			db = strings.Trim(strings.TrimSpace(rest), `"`)
			continue
		}
		if l == "-- teardown" {
			flush()
			section = "teardown"
			continue
		}
		chunk.WriteString(line)
		chunk.WriteByte('\n')
	}
	flush()
	sort.Strings(stmts)
	return strings.Join(stmts, "\n")
}

// optionsList is an OPTIONS (...) list of a foreign server or user mapping,
// whose entries cyrilgdn wrote in Go's random map order.
var optionsList = regexp.MustCompile(`OPTIONS \([^()]*\)`)

// sortedOptions sorts the entries of an OPTIONS list (values without commas,
// as in the fixtures).
func sortedOptions(list string) string {
	inner := strings.TrimSuffix(strings.TrimPrefix(list, "OPTIONS ("), ")")
	entries := strings.Split(inner, ",")
	for i := range entries {
		entries[i] = strings.TrimSpace(entries[i])
	}
	sort.Strings(entries)
	return "OPTIONS (" + strings.Join(entries, ", ") + ")"
}

// versionLine is a configuration's provider version constraint, which differs
// between the releases' copies of one case.
var versionLine = regexp.MustCompile(`(?m)^\s*version\s*=\s*"[0-9.]+"\s*$|^#.*$`)

// migrationGroup creates the objects of views (which share them), plans each
// view's states, then destroys the objects.
func migrationGroup(t *testing.T, tf, bin string, views []*migrationView, opts MigrationOptions, planned map[string]string) {
	t.Helper()
	first := views[0]
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "terraformrc"), devOverrides(bin))
	// the destroy runs as the superuser, but for what the admin made
	destroyEnv := map[string]string{"PGUSER": superUser(), "PGPASSWORD": superPassword(), "PGSUPERUSER": "true"}
	if first.ByAdmin {
		// what the admin made, the admin destroys: a superuser's REVOKE does not take
		// back a privilege the admin granted (on a wrapper it does not own, say)
		destroyEnv = nil // the environment: the admin of the managed mode
	}
	defer func() { // also when a step fails the test (runtime.Goexit runs deferred calls)
		// the destroy works from the first view's configuration and state
		writeFile(t, filepath.Join(work, "main.tf"), spawnedHeader+first.body)
		writeFile(t, filepath.Join(work, "terraform.tfstate"), first.states[0])
		for _, addr := range opts.ForgetBeforeDestroy {
			if out, err := runTerraform(tf, work, destroyEnv, "state", "rm", addr); err != nil {
				t.Logf("terraform state rm %s (not in this case's state?): %v\n%s", addr, err, out)
			}
		}
		if out, err := runTerraform(tf, work, destroyEnv, "destroy", "-auto-approve", "-no-color", "-input=false", spawnedParallelism); err != nil {
			t.Errorf("destroy after the migration check failed: %v\n%s", err, out)
		}
		if td := first.scripts["teardown.sql"]; td != "" {
			runSQLFile(t, td)
		}
	}()
	runSQLFile(t, first.scripts["setup.sql"])
	if first.ByAdmin {
		runSQLFileAs(t, first.scripts["apply.sql"], AdminExec)
	} else {
		runSQLFile(t, first.scripts["apply.sql"])
	}

	for _, v := range views {
		t.Run(v.Name, func(t *testing.T) {
			for i, f := range v.StateFiles {
				key := versionLine.ReplaceAllString(v.body, "") + "\x00" + stateResources(t, v.states[i]) + "\x00" + strings.Join(v.Expect, ",")
				if where, ok := planned[key]; ok {
					t.Logf("%s: the same configuration and state as %s, planned there", f, where)
					continue
				}
				planned[key] = v.Name + "/" + f
				t.Run(f, func(t *testing.T) {
					writeFile(t, filepath.Join(work, "main.tf"), spawnedHeader+v.body)
					writeFile(t, filepath.Join(work, "terraform.tfstate"), v.states[i])
					planMigration(t, tf, work, v, f)
				})
			}
		})
	}
}

// stateResources is a state's resources, the part of it a plan reads (not the
// lineage, serial or Terraform version).
func stateResources(t *testing.T, state string) string {
	t.Helper()
	var s struct {
		Resources json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &s); err != nil {
		t.Fatalf("fixture state: %v", err)
	}
	return string(s.Resources)
}

// planMigration plans the seeded state in work and checks the plan against
// the view's Expect.
func planMigration(t *testing.T, tf, work string, v *migrationView, f string) {
	t.Helper()
	// a plan persists nothing: the file is the fixture's as seeded
	out, err := runTerraform(tf, work, nil, "plan", "-out=tfplan", "-detailed-exitcode", "-no-color", "-input=false", spawnedParallelism)
	if err == nil || exitCode(err) == 2 {
		checkIDsKept(t, tf, work, v.states[slices.Index(v.StateFiles, f)], v.RepairedIDs)
	}
	if err == nil {
		if len(v.Expect) > 0 {
			t.Fatalf("terraform plan over the upgraded cyrilgdn state %s of %s shows no changes; expected updates of %s", f, v.Dir, strings.Join(v.Expect, ", "))
		}
		return
	}
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("terraform plan failed: %v\n%s", err, out)
	}
	if len(v.Expect) == 0 {
		t.Fatalf("terraform plan over the upgraded cyrilgdn state %s of %s shows changes:\n%s", f, v.Dir, out)
	}
	js, err := runTerraform(tf, work, nil, "show", "-json", "-no-color", "tfplan")
	if err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, js)
	}
	got, err := updatedAttributes(js)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := slices.Clone(v.Expect)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("terraform plan over the upgraded cyrilgdn state %s of %s: planned %s, expected updates of %s only:\n%s",
			f, v.Dir, strings.Join(got, ", "), strings.Join(want, ", "), out)
	}
}

// exitCode is the exit status of a command that failed, -1 when it did not run.
func exitCode(err error) int {
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// updatedAttributes lists what a plan (terraform show -json) changes, as
// "<address>.<attribute>" for an in-place update and "<address> <actions>"
// for any other action, sorted.
func updatedAttributes(js string) ([]string, error) {
	// runTerraform merges stderr (the dev_overrides warning) into the output
	if i := strings.Index(js, `{"format_version"`); i > 0 {
		js = js[i:]
	}
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions      []string       `json:"actions"`
				Before       map[string]any `json:"before"`
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.NewDecoder(strings.NewReader(js)).Decode(&plan); err != nil {
		return nil, fmt.Errorf("decoding the plan: %w", err)
	}
	var out []string
	for _, rc := range plan.ResourceChanges {
		c := rc.Change
		switch {
		case slices.Equal(c.Actions, []string{"no-op"}):
		case slices.Equal(c.Actions, []string{"update"}):
			for k, after := range c.After {
				if !reflect.DeepEqual(c.Before[k], after) || c.AfterUnknown[k] == true {
					out = append(out, rc.Address+"."+k)
				}
			}
		default:
			out = append(out, fmt.Sprintf("%s %v", rc.Address, c.Actions))
		}
	}
	sort.Strings(out)
	return out, nil
}

// checkIDsKept compares the id of every resource instance of the plan in
// work (tfplan, after the upgrade and refresh) with the one in the seeded
// cyrilgdn state: anything that references an id (an output, a
// terraform_data trigger) must see no change after the migration.
func checkIDsKept(t *testing.T, tf, work, state string, repaired []string) {
	t.Helper()
	js, err := runTerraform(tf, work, nil, "show", "-json", "-no-color", "tfplan")
	if err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, js)
	}
	if i := strings.Index(js, `{"format_version"`); i > 0 { // stderr (the dev_overrides warning) comes first
		js = js[i:]
	}
	if j := strings.LastIndex(js, "}"); j >= 0 {
		js = js[:j+1]
	}
	var plan struct {
		PriorState struct {
			Values struct {
				RootModule struct {
					Resources []struct {
						Address string         `json:"address"`
						Values  map[string]any `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
	}
	if err := json.Unmarshal([]byte(js), &plan); err != nil {
		t.Fatalf("decoding the plan: %v", err)
	}
	var seeded struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				IndexKey   any            `json:"index_key"`
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &seeded); err != nil {
		t.Fatalf("decoding the seeded state: %v", err)
	}
	want := map[string]any{}
	for _, r := range seeded.Resources {
		if r.Mode != "managed" || !strings.HasPrefix(r.Type, "postgresql_") {
			continue
		}
		for _, i := range r.Instances {
			addr := r.Type + "." + r.Name
			if i.IndexKey != nil {
				k, _ := json.Marshal(i.IndexKey)
				addr += "[" + string(k) + "]"
			}
			want[addr] = i.Attributes["id"]
		}
	}
	for _, r := range plan.PriorState.Values.RootModule.Resources {
		if w, ok := want[r.Address]; ok && r.Values["id"] != w && !slices.Contains(repaired, r.Address) {
			t.Errorf("%s: id %v after the upgrade and refresh, cyrilgdn's was %v", r.Address, r.Values["id"], w)
		}
	}
}

// withoutSchemaSensitivePaths empties every instance's sensitive_attributes, as a
// CLI without FeatureSchemaSensitivityInState writes them for a configuration
// that marks nothing sensitive itself (no fixture configuration does).
func withoutSchemaSensitivePaths(t *testing.T, state string) string {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal([]byte(state), &s); err != nil {
		t.Fatalf("fixture state: %v", err)
	}
	resources, _ := s["resources"].([]any)
	for _, r := range resources {
		instances, _ := r.(map[string]any)["instances"].([]any)
		for _, i := range instances {
			i.(map[string]any)["sensitive_attributes"] = []any{}
		}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func superUser() string {
	if u := os.Getenv("PGTF_SUPERUSER"); u != "" {
		return u
	}
	return os.Getenv("PGUSER")
}

func superPassword() string {
	if u := os.Getenv("PGTF_SUPERUSER"); u != "" {
		return os.Getenv("PGTF_SUPERUSER_PASSWORD")
	}
	return os.Getenv("PGPASSWORD")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// stripProviderHeader removes the terraform and provider blocks the fixture
// configuration starts with, keeping the resources.
func stripProviderHeader(mainTF string) (string, error) {
	lines := strings.Split(mainTF, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, `provider "postgresql"`) {
			start = i
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("no provider block")
	}
	for j := start + 1; j < len(lines); j++ {
		if lines[j] == "}" {
			return strings.Join(lines[j+1:], "\n"), nil
		}
	}
	return "", fmt.Errorf("unterminated provider block")
}

func runTerraform(tf, dir string, extraEnv map[string]string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf, args...)
	cmd.Dir = dir
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(dir, "terraformrc"), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	for k, v := range extraEnv {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// providerBinaryDir builds the provider once per test binary into a temporary
// directory (under the test cluster's directory when there is one).
func providerBinaryDir(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		base := os.Getenv("PGTF_TESTDB_DIR")
		// Shared by every test of the run (sync.Once), so not t.TempDir; it lives in the test cluster's directory.
		buildDir, buildErr = os.MkdirTemp(base, "provider-bin-") //nolint:usetesting // see above
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(buildDir, "terraform-provider-postgresql"), ".")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building the provider: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildDir
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// runSQLFile runs a fixture SQL file as the superuser: statements one by one
// (CREATE DATABASE cannot run in a multi-statement string), honouring
// `\connect db` lines.
func runSQLFile(t *testing.T, content string) {
	t.Helper()
	runSQLFileAs(t, content, Exec)
}

// runSQLFileAs is runSQLFile with exec running the statements (Exec: as the
// superuser, AdminExec: as the admin of the current mode).
func runSQLFileAs(t *testing.T, content string, exec func(t *testing.T, db string, stmts ...string)) {
	t.Helper()
	db := "postgres"
	var chunk strings.Builder
	flush := func() { // one connection per database switch, not per statement
		if stmts := SplitSQL(chunk.String()); len(stmts) > 0 {
			exec(t, db, stmts...)
		}
		chunk.Reset()
	}
	for _, line := range strings.Split(content, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), `\connect `); ok {
			flush()
			db = strings.Trim(strings.TrimSpace(rest), `"`)
			continue
		}
		chunk.WriteString(line)
		chunk.WriteByte('\n')
	}
	flush()
}

// SplitSQL splits a script into statements at top-level semicolons, keeping
// quoted strings, quoted identifiers, dollar-quoted bodies and comments intact.
func SplitSQL(script string) []string {
	var out []string
	var cur strings.Builder
	emit := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		if s == "" {
			return
		}
		// drop statements made only of comments
		onlyComments := true
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
				onlyComments = false
			}
		}
		if !onlyComments {
			out = append(out, s)
		}
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '-' && i+1 < len(script) && script[i+1] == '-':
			j := strings.IndexByte(script[i:], '\n')
			if j < 0 {
				j = len(script) - i
			}
			cur.WriteString(script[i : i+j])
			i += j - 1
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(script) {
				if script[j] == c {
					if j+1 < len(script) && script[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			cur.WriteString(script[i:min(j+1, len(script))])
			i = j
		case c == '$':
			m := dollarTag.FindString(script[i:])
			if m == "" {
				cur.WriteByte(c)
				continue
			}
			end := strings.Index(script[i+len(m):], m)
			if end < 0 {
				cur.WriteString(script[i:])
				i = len(script)
				continue
			}
			stop := i + len(m) + end + len(m)
			cur.WriteString(script[i:stop])
			i = stop - 1
		case c == ';':
			emit()
		default:
			cur.WriteByte(c)
		}
	}
	emit()
	return out
}

var dollarTag = regexp.MustCompile(`^\$[A-Za-z_]*\$`)

// Superuser is the test cluster's superuser and its password (whatever the
// admin mode), for helpers that connect themselves and report errors instead
// of failing the test.
func Superuser() (user, password string) { return superUser(), superPassword() }
