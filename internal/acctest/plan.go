package acctest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// spawnedHeader heads the configurations of the terraform runs that start the
// built provider as a process of its own (PlanChanges, MigrationPlanEmpty).
const spawnedHeader = "terraform {\n  required_providers {\n    postgresql = { source = \"registry.terraform.io/pgtf/postgresql\" }\n  }\n}\n\nprovider \"postgresql\" {}\n"

// spawnedParallelism bounds how many resources those runs read or change at
// once: each spawned provider starts with empty pools, and at Terraform's
// default (10) it opens a connection per resource refreshed in parallel
// (about nine per plan over these small configurations), each a backend start
// of ~50 ms CPU on the test machine; two at a time reuse two.
const spawnedParallelism = "-parallelism=2"

// PlanChanges runs a real `terraform plan` with this provider (built once per
// test binary, as for MigrationPlanEmpty) in a fresh directory, over the
// configuration body (resources and import blocks; the provider block is
// added) and the seeded state file content state ("" = no state). It returns
// the addresses whose planned action is anything but a no-op (an import that
// changes nothing is a no-op) and the plan as Terraform prints it. It plans
// only: the objects stay, and the caller's state is not touched.
func PlanChanges(t *testing.T, body, state string) (changed []string, planText string, err error) {
	t.Helper()
	changed, _, planText, err = PlanWithPriorState(t, body, state)
	return changed, planText, err
}

// PlanWithPriorState is PlanChanges that also returns the prior state as the
// plan holds it (upgraded and refreshed): the attribute values of each
// resource instance, by address.
func PlanWithPriorState(t *testing.T, body, state string) (changed []string, prior map[string]map[string]any, planText string, err error) {
	t.Helper()
	r, err := PlanDetails(t, body, state)
	return r.Changed, r.Prior, r.Text, err
}

// PlanResult is what a plan run by PlanDetails or Workdir.PlanFile shows.
type PlanResult struct {
	// Changed are the addresses whose planned action is anything but a no-op
	// (an import that changes nothing is a no-op), with their actions.
	Changed []string
	// Imports are the addresses the plan imports.
	Imports []string
	// Prior is the prior state as the plan holds it (upgraded and refreshed):
	// the attribute values of each resource instance, by address.
	Prior map[string]map[string]any
	// Configured are the resources of the configuration: their type and the
	// values of the arguments written as constants (a nested block is a list
	// of such maps), by address.
	Configured map[string]ConfiguredResource
	// Text is the plan as Terraform prints it.
	Text string
}

// ConfiguredResource is one resource block of a configuration: its type and
// the values of the arguments it sets to constants.
type ConfiguredResource struct {
	Type   string
	Values map[string]any
}

// PlanDetails runs a real `terraform plan` as PlanChanges does and returns
// what the plan shows.
func PlanDetails(t *testing.T, body, state string) (PlanResult, error) {
	t.Helper()
	files := map[string]string{"main.tf": spawnedHeader + body}
	if state != "" {
		files["terraform.tfstate"] = state
	}
	tf, work, lookErr := spawnedDir(t, files)
	if lookErr != nil {
		return PlanResult{}, lookErr
	}
	r, err := planFile(tf, work, "-lock=false")
	_ = os.Remove(filepath.Join(work, "tfplan"))
	return r, err
}

// planFile plans in work into the file tfplan and decodes it.
func planFile(tf, work string, args ...string) (PlanResult, error) {
	out, runErr := runTerraform(tf, work, nil, append([]string{"plan", "-out=tfplan", "-no-color", "-input=false", spawnedParallelism}, args...)...)
	if runErr != nil {
		return PlanResult{Text: out}, fmt.Errorf("terraform plan: %w", runErr)
	}
	js, runErr := runTerraform(tf, work, nil, "show", "-json", "-no-color", "tfplan")
	if runErr != nil {
		return PlanResult{Text: out}, fmt.Errorf("terraform show -json: %w\n%s", runErr, js)
	}
	r, err := decodePlan(js)
	r.Text = out
	return r, err
}

// decodePlan reads `terraform show -json` of a plan.
func decodePlan(js string) (PlanResult, error) {
	type resources struct {
		RootModule struct {
			Resources []struct {
				Address string         `json:"address"`
				Values  map[string]any `json:"values"`
			} `json:"resources"`
		} `json:"root_module"`
	}
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions   []string        `json:"actions"`
				Importing json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
		PriorState struct {
			Values resources `json:"values"`
		} `json:"prior_state"`
		Configuration struct {
			RootModule struct {
				Resources []struct {
					Address     string         `json:"address"`
					Type        string         `json:"type"`
					Expressions map[string]any `json:"expressions"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"configuration"`
	}
	// runTerraform merges stderr (the dev_overrides warning) into the output
	if i := strings.Index(js, `{"format_version"`); i > 0 {
		js = js[i:]
	}
	if j := strings.LastIndex(js, "}"); j >= 0 {
		js = js[:j+1]
	}
	var r PlanResult
	if jsonErr := json.Unmarshal([]byte(js), &plan); jsonErr != nil {
		return r, fmt.Errorf("decoding the plan: %w", jsonErr)
	}
	for _, rc := range plan.ResourceChanges {
		if !slices.Equal(rc.Change.Actions, []string{"no-op"}) {
			r.Changed = append(r.Changed, fmt.Sprintf("%s %v", rc.Address, rc.Change.Actions))
		}
		if len(rc.Change.Importing) > 0 && string(rc.Change.Importing) != "null" {
			r.Imports = append(r.Imports, rc.Address)
		}
	}
	r.Prior = map[string]map[string]any{}
	for _, res := range plan.PriorState.Values.RootModule.Resources {
		r.Prior[res.Address] = res.Values
	}
	r.Configured = map[string]ConfiguredResource{}
	for _, res := range plan.Configuration.RootModule.Resources {
		r.Configured[res.Address] = ConfiguredResource{Type: res.Type, Values: constants(res.Expressions)}
	}
	return r, nil
}

// constants turns the expressions of a configuration block (as `terraform
// show -json` renders them) into the values of those written as constants.
func constants(exprs map[string]any) map[string]any {
	out := map[string]any{}
	for name, e := range exprs {
		switch e := e.(type) {
		case map[string]any:
			if v, ok := e["constant_value"]; ok {
				out[name] = v
			}
		case []any: // a nested block
			var blocks []any
			for _, b := range e {
				if m, ok := b.(map[string]any); ok {
					blocks = append(blocks, constants(m))
				}
			}
			out[name] = blocks
		}
	}
	return out
}

// GenerateConfig runs a real `terraform query -generate-config-out` with this
// provider (as PlanChanges does) over the list blocks of query (a
// .tfquery.hcl body without the provider block) and returns the generated
// configuration: import blocks with identities and resource blocks.
// Terraform 1.14 and later.
func GenerateConfig(t *testing.T, query string) (string, error) {
	t.Helper()
	tf, work, lookErr := spawnedDir(t, map[string]string{"main.tf": spawnedHeader, "search.tfquery.hcl": query})
	if lookErr != nil {
		return "", lookErr
	}
	out, err := runTerraform(tf, work, nil, "query", "-generate-config-out=generated.tf", "-no-color")
	if err != nil {
		return "", fmt.Errorf("terraform query: %w\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(work, "generated.tf"))
	if err != nil {
		return "", fmt.Errorf("reading the generated configuration: %w\n%s", err, out)
	}
	return string(b), nil
}

// InvokeAction runs a real `terraform apply -invoke=<address>` with this
// provider (as PlanChanges does) over the configuration body (the provider
// block is added), which invokes that one action and changes nothing else,
// and returns what Terraform printed. Terraform 1.14 and later.
func InvokeAction(t *testing.T, body, address string) (string, error) {
	t.Helper()
	tf, work, err := spawnedDir(t, map[string]string{"main.tf": spawnedHeader + body})
	if err != nil {
		return "", err
	}
	out, err := runTerraform(tf, work, nil, "apply", "-invoke="+address, "-auto-approve", "-no-color", "-input=false")
	if err != nil {
		return out, fmt.Errorf("terraform apply -invoke=%s: %w\n%s", address, err, out)
	}
	return out, nil
}

// spawnedDir makes a directory holding files for a terraform run that starts
// the built provider (a CLI configuration with a dev override for it) and
// returns the CLI to run there.
func spawnedDir(t *testing.T, files map[string]string) (tf, work string, err error) {
	t.Helper()
	if tf, err = TerraformPath(); err != nil {
		return "", "", err
	}
	bin := providerBinaryDir(t)
	work = t.TempDir()
	for name, content := range files {
		writeFile(t, filepath.Join(work, name), content)
	}
	writeFile(t, filepath.Join(work, "terraformrc"), devOverrides(bin))
	return tf, work, nil
}

// devOverrides is a CLI configuration that runs the provider built in dir.
func devOverrides(dir string) string {
	return fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/pgtf/postgresql\" = %q\n  }\n  direct {}\n}\n", dir)
}

// Workdir is a Terraform working directory that runs the built provider (as
// PlanChanges does), for tests that need what plugin-testing does not show:
// the warnings a plan prints, or a state seeded by hand. Its objects are
// destroyed when the test ends.
type Workdir struct {
	t           *testing.T
	tf, dir     string
	parallelism string // terraform's -parallelism flag for its runs
}

// NewWorkdir makes an empty working directory.
func NewWorkdir(t *testing.T) *Workdir {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	tf, dir, err := spawnedDir(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := &Workdir{t: t, tf: tf, dir: dir, parallelism: spawnedParallelism}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err != nil {
			return
		}
		if out, err := runTerraform(tf, dir, nil, "destroy", "-auto-approve", "-no-color", "-input=false", w.parallelism); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})
	return w
}

// WithParallelism makes the runs of w change up to n resources at once (the
// default is 2), for tests of concurrent changes; it returns w.
func (w *Workdir) WithParallelism(n int) *Workdir {
	w.parallelism = fmt.Sprintf("-parallelism=%d", n)
	return w
}

// SetState seeds the state file.
func (w *Workdir) SetState(state string) {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "terraform.tfstate"), state)
}

// Apply applies the configuration body (the provider block is added) and
// returns what Terraform printed; an error fails the test.
func (w *Workdir) Apply(body string) string {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), spawnedHeader+body)
	out, err := runTerraform(w.tf, w.dir, nil, "apply", "-auto-approve", "-no-color", "-input=false", w.parallelism)
	if err != nil {
		w.t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	return out
}

// TryApply applies the configuration body (the provider block is added) with
// extra CLI arguments (e.g. "-parallelism=20"; the default is
// spawnedParallelism) and returns what Terraform printed and its error: for a
// test that expects an apply to fail, or counts how often it does.
func (w *Workdir) TryApply(body string, args ...string) (string, error) {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), spawnedHeader+body)
	return runTerraform(w.tf, w.dir, nil, append([]string{"apply", "-auto-approve", "-no-color", "-input=false", parallelismOf(args)}, args...)...)
}

// Destroy destroys what the state holds, with extra CLI arguments as TryApply
// takes them, and returns what Terraform printed and its error.
func (w *Workdir) Destroy(args ...string) (string, error) {
	w.t.Helper()
	return runTerraform(w.tf, w.dir, nil, append([]string{"destroy", "-auto-approve", "-no-color", "-input=false", parallelismOf(args)}, args...)...)
}

// parallelismOf is spawnedParallelism unless args set -parallelism (a later
// flag wins: the CLI reads the last one).
func parallelismOf(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "-parallelism=") {
			return a
		}
	}
	return spawnedParallelism
}

// Plan plans the configuration body and returns what Terraform printed
// (warnings included) and whether the plan has changes; an error fails the
// test.
func (w *Workdir) Plan(body string) (out string, changes bool) {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), spawnedHeader+body)
	out, err := runTerraform(w.tf, w.dir, nil, "plan", "-detailed-exitcode", "-no-color", "-input=false", w.parallelism)
	if err == nil {
		return out, false
	}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 2 {
		return out, true
	}
	w.t.Fatalf("terraform plan: %v\n%s", err, out)
	return out, false
}

// Dir is the working directory's path.
func (w *Workdir) Dir() string { return w.dir }

// SetConfig writes the configuration body (the provider block is added)
// without running anything.
func (w *Workdir) SetConfig(body string) {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), spawnedHeader+body)
}

// Run runs the CLI with args in the working directory and returns what it
// printed and its error, without failing the test: for tests that judge the
// outcome themselves (the random walk of internal/walk runs apply and plan
// at -parallelism 20, which Apply and Plan do not). A plan's exit code 2
// (-detailed-exitcode: changes) is an *exec.ExitError.
func (w *Workdir) Run(args ...string) (string, error) {
	return runTerraform(w.tf, w.dir, nil, args...)
}

// PlanFile plans the configuration body (the provider block is added) into
// the directory's plan file, for ApplyPlan, and returns what it shows; an
// error fails the test.
func (w *Workdir) PlanFile(body string) PlanResult {
	w.t.Helper()
	writeFile(w.t, filepath.Join(w.dir, "main.tf"), spawnedHeader+body)
	r, err := planFile(w.tf, w.dir)
	if err != nil {
		w.t.Fatalf("%v\n%s", err, r.Text)
	}
	return r
}

// ApplyPlan applies the plan PlanFile saved and returns what Terraform
// printed; an error fails the test.
func (w *Workdir) ApplyPlan() string {
	w.t.Helper()
	out, err := runTerraform(w.tf, w.dir, nil, "apply", "-no-color", "-input=false", spawnedParallelism, "tfplan")
	if err != nil {
		w.t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	return out
}

// Forget removes the state, so that the objects it holds are not destroyed
// when the test ends (the test drops them itself).
func (w *Workdir) Forget() {
	w.t.Helper()
	if err := os.Remove(filepath.Join(w.dir, "terraform.tfstate")); err != nil && !errors.Is(err, os.ErrNotExist) {
		w.t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(w.dir, "terraform.tfstate.backup"))
}
