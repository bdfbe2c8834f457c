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
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// MigrationOptions tunes MigrationPlanEmpty.
type MigrationOptions struct {
	// StateFiles are the fixture states to plan over (default
	// terraform.tfstate), one after the other against the same objects, each
	// in a subtest named after the file: the states a fixture holds (as
	// written by the apply, and after a refresh) describe the same objects,
	// which are created and destroyed once.
	StateFiles []string
	// Replace holds extra literal substitutions applied to every fixture file.
	Replace map[string]string
	// ForgetBeforeDestroy lists resource addresses removed from the state
	// (terraform state rm) before the final destroy: objects shared with
	// other tests running in parallel, which must stay.
	ForgetBeforeDestroy []string
	// Needs lists what the case's configuration needs from the CLI beyond
	// what every supported one has (write-only arguments, ...): the case
	// skips on a CLI without it.
	Needs []CLIFeature
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// MigrationPlanEmpty is the end-to-end migration check for one cyrilgdn
// fixture case (a directory with main.tf, setup.sql, apply.sql and a state):
// it recreates the objects the community provider made (setup.sql +
// apply.sql, as the superuser), and for each of its states (a subtest per
// state file) seeds the state with the provider address replaced (as
// `terraform state replace-provider` does) and runs a real `terraform plan`
// with this provider, which must show no changes. It then destroys everything
// (as the superuser) and runs teardown.sql.
//
// Fixture object names are fixed, so a case must not run twice at once.
func MigrationPlanEmpty(t *testing.T, caseDir string, opts MigrationOptions) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	PreCheck(t)
	under := CLIUnderTest(t)
	tf := under.Path
	for _, f := range opts.Needs {
		RequireCLIFeature(t, f)
	}
	bin := providerBinaryDir(t)

	replacer := []string{"25433", os.Getenv("PGPORT"), "pgfixpw", superPassword(), "registry.terraform.io/cyrilgdn/postgresql", "registry.terraform.io/pgtf/postgresql"}
	for k, v := range opts.Replace {
		replacer = append(replacer, k, v)
	}
	sub := strings.NewReplacer(replacer...)
	unused := map[string]bool{}
	for k := range opts.Replace {
		unused[k] = true
	}
	// read returns a file of the case, else the one its type's cases share
	// (testdata/cyrilgdn/README.md), else "".
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(caseDir, name))
		if os.IsNotExist(err) {
			b, err = os.ReadFile(filepath.Join(filepath.Dir(caseDir), name))
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
	stateFiles := opts.StateFiles
	if len(stateFiles) == 0 {
		stateFiles = []string{"terraform.tfstate"}
	}

	work := t.TempDir()
	mainTF := read("main.tf")
	body, err := stripProviderHeader(mainTF)
	if err != nil {
		t.Fatalf("%s/main.tf: %v", caseDir, err)
	}
	writeFile(t, filepath.Join(work, "main.tf"), spawnedHeader+body)
	states := make([]string, len(stateFiles))
	for i, f := range stateFiles {
		states[i] = read(f)
		if !under.Supports(FeatureSchemaSensitivityInState) {
			// the fixtures were written by Terraform 1.11.4, which records the
			// schema's sensitive attributes; seed the state as this CLI writes it
			states[i] = withoutSchemaSensitivePaths(t, states[i])
		}
	}
	// the destroy at cleanup works from the state file in the directory
	writeFile(t, filepath.Join(work, "terraform.tfstate"), states[0])
	writeFile(t, filepath.Join(work, "terraformrc"), devOverrides(bin))

	superEnv := map[string]string{"PGUSER": superUser(), "PGPASSWORD": superPassword(), "PGSUPERUSER": "true"}
	t.Cleanup(func() {
		for _, addr := range opts.ForgetBeforeDestroy {
			if out, err := runTerraform(tf, work, superEnv, "state", "rm", addr); err != nil {
				t.Logf("terraform state rm %s (not in this case's state?): %v\n%s", addr, err, out)
			}
		}
		if out, err := runTerraform(tf, work, superEnv, "destroy", "-auto-approve", "-no-color", "-input=false", spawnedParallelism); err != nil {
			t.Errorf("destroy after the migration check failed: %v\n%s", err, out)
		}
		if td := read("teardown.sql"); td != "" {
			runSQLFile(t, td)
		}
	})
	runSQLFile(t, read("setup.sql"))
	runSQLFile(t, read("apply.sql"))
	for k := range unused { // a substitution that matches nothing would silently test the unchanged fixture
		t.Fatalf("MigrationOptions.Replace: %q occurs in no file of %s", k, caseDir)
	}

	for i, f := range stateFiles {
		t.Run(f, func(t *testing.T) {
			// a plan persists nothing: the file is the fixture's as seeded
			writeFile(t, filepath.Join(work, "terraform.tfstate"), states[i])
			out, err := runTerraform(tf, work, nil, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-out=tfplan", spawnedParallelism)
			if err != nil {
				if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 2 {
					t.Fatalf("terraform plan over the upgraded cyrilgdn state %s of %s shows changes:\n%s", f, caseDir, out)
				}
				t.Fatalf("terraform plan failed: %v\n%s", err, out)
			}
			checkIDsKept(t, tf, work, states[i])
		})
	}
}

// checkIDsKept compares the id of every resource instance of the plan in
// work (tfplan, after the upgrade and refresh) with the one in the seeded
// cyrilgdn state: anything that references an id (an output, a
// terraform_data trigger) must see no change after the migration.
func checkIDsKept(t *testing.T, tf, work, state string) {
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
		if w, ok := want[r.Address]; ok && r.Values["id"] != w {
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
	db := "postgres"
	var chunk strings.Builder
	flush := func() { // one connection per database switch, not per statement
		if stmts := SplitSQL(chunk.String()); len(stmts) > 0 {
			Exec(t, db, stmts...)
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
