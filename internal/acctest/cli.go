package acctest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
)

// The CLI products acceptance tests run under (CLI.Product).
const (
	ProductTerraform = "Terraform"
	ProductOpenTofu  = "OpenTofu"
)

// CLIFeature is something a configuration or a test step needs from the
// Terraform or OpenTofu CLI under test, beyond what every supported CLI has.
type CLIFeature string

// Features gated by the CLI (cliFeatures says which releases have them).
const (
	// FeatureImportBlocks: `import` blocks (config-driven import), which
	// terraform-plugin-testing's ImportBlockWith* import kinds use.
	FeatureImportBlocks CLIFeature = "import blocks"
	// FeatureRemovedBlocks: `removed` blocks (forget an object, keep it).
	FeatureRemovedBlocks CLIFeature = "removed blocks"
	// FeatureMovedAcrossTypes: `moved` blocks from a resource of one type to
	// one of another type (the provider's MoveResourceState).
	FeatureMovedAcrossTypes CLIFeature = "moved blocks across resource types"
	// FeatureProviderFunctions: provider-defined functions (provider::name::f).
	FeatureProviderFunctions CLIFeature = "provider-defined functions"
	// FeatureEphemeralResources: ephemeral resources and ephemeral values.
	FeatureEphemeralResources CLIFeature = "ephemeral resources"
	// FeatureWriteOnlyArguments: write-only arguments (password_wo): the CLI
	// tells the provider it may send them, and keeps them out of plan and state.
	FeatureWriteOnlyArguments CLIFeature = "write-only arguments"
	// FeatureResourceIdentity: resource identity in state and plan.
	FeatureResourceIdentity CLIFeature = "resource identity"
	// FeatureImportBlockIdentity: `import` blocks with an identity argument
	// instead of id (plugin-testing's ImportBlockWithResourceIdentity).
	FeatureImportBlockIdentity CLIFeature = "import blocks with identity"
	// FeatureListResources: list resources (terraform query).
	FeatureListResources CLIFeature = "list resources"
	// FeatureActions: provider actions (action blocks, action_trigger).
	FeatureActions CLIFeature = "actions"
	// FeatureSchemaSensitivityInState: the CLI marks the attributes a provider
	// schema declares sensitive in the values it stores, so a state it writes
	// lists them in sensitive_attributes (hashicorp/terraform#34567). An older
	// CLI writes only the paths marked by the configuration, and plans an
	// in-place update with no attribute difference for an instance whose
	// stored sensitive paths differ from that: e.g. the cyrilgdn fixture states,
	// written by Terraform 1.11.4, planned by Terraform 1.5.7.
	FeatureSchemaSensitivityInState CLIFeature = "schema-sensitive attributes recorded in state"
)

// cliFeatures is the first release of each product with a feature; a product
// missing from a feature's entry has no release with it. The version numbers of
// OpenTofu and Terraform do not line up, so every gate goes through this table,
// never through a bare version comparison.
var cliFeatures = map[CLIFeature]map[string]string{
	FeatureImportBlocks:      {ProductTerraform: "1.5.0", ProductOpenTofu: "1.6.0"},
	FeatureRemovedBlocks:     {ProductTerraform: "1.7.0", ProductOpenTofu: "1.7.0"},
	FeatureProviderFunctions: {ProductTerraform: "1.8.0", ProductOpenTofu: "1.7.0"},
	// OpenTofu: the oldest release known to send MoveResourceState (1.11.3 does)
	FeatureMovedAcrossTypes:    {ProductTerraform: "1.8.0", ProductOpenTofu: "1.11.0"},
	FeatureEphemeralResources:  {ProductTerraform: "1.10.0", ProductOpenTofu: "1.11.0"},
	FeatureWriteOnlyArguments:  {ProductTerraform: "1.11.0", ProductOpenTofu: "1.11.0"},
	FeatureResourceIdentity:    {ProductTerraform: "1.12.0", ProductOpenTofu: "1.12.0"},
	FeatureImportBlockIdentity: {ProductTerraform: "1.12.0", ProductOpenTofu: "1.12.0"},
	FeatureListResources:       {ProductTerraform: "1.14.0"},
	FeatureActions:             {ProductTerraform: "1.14.0"},
	// Terraform: the release with hashicorp/terraform#34567; OpenTofu: the oldest
	// release this project tests (1.10.10) has it, as 1.12.6 does.
	FeatureSchemaSensitivityInState: {ProductTerraform: "1.8.0", ProductOpenTofu: "1.10.0"},
}

// CLI is the Terraform or OpenTofu binary acceptance tests run.
type CLI struct {
	Path    string
	Product string // ProductTerraform or ProductOpenTofu
	Version *version.Version
}

func (c CLI) String() string { return fmt.Sprintf("%s %s (%s)", c.Product, c.Version, c.Path) }

// Supports reports whether the CLI has feature f (an unknown feature: no).
func (c CLI) Supports(f CLIFeature) bool {
	from, ok := cliFeatures[f][c.Product]
	if !ok {
		return false
	}
	// a prerelease of the first version with the feature counts (1.14.0-rc1)
	return c.Version.Core().GreaterThanOrEqual(version.Must(version.NewVersion(from)))
}

// Requirement says which releases have feature f, for skip messages.
func Requirement(f CLIFeature) string {
	s := ""
	for _, p := range []string{ProductTerraform, ProductOpenTofu} {
		if s != "" {
			s += ", "
		}
		if from, ok := cliFeatures[f][p]; ok {
			s += p + " >= " + from
		} else {
			s += "no " + p + " release"
		}
	}
	return s
}

// TerraformPath is the CLI binary tests run: TF_ACC_TERRAFORM_PATH when set
// (as for terraform-plugin-testing), else terraform on PATH.
func TerraformPath() (string, error) {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		return "", fmt.Errorf("terraform not found on PATH (or set TF_ACC_TERRAFORM_PATH)")
	}
	return p, nil
}

var (
	clis        sync.Map // path → CLI: one `version` per binary and test process
	cliHeaderRe = regexp.MustCompile(`^(Terraform|OpenTofu) v(\S+)`)
)

// DetectCLI asks the binary at path what it is (`<path> version`: its first
// line names the product and version).
func DetectCLI(path string) (CLI, error) {
	if c, ok := clis.Load(path); ok {
		return c.(CLI), nil
	}
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return CLI{}, fmt.Errorf("%s version: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := cliHeaderRe.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, err := version.NewVersion(m[2])
		if err != nil {
			return CLI{}, fmt.Errorf("%s version: %q: %w", path, m[2], err)
		}
		c := CLI{Path: path, Product: m[1], Version: v}
		clis.Store(path, c)
		return c, nil
	}
	return CLI{}, fmt.Errorf("%s version: no \"Terraform vX\" or \"OpenTofu vX\" line in %q", path, out)
}

// CLIUnderTest is the CLI acceptance tests run (see TerraformPath); it fails
// the test when there is none or it does not say what it is.
func CLIUnderTest(t *testing.T) CLI {
	t.Helper()
	p, err := TerraformPath()
	if err != nil {
		t.Fatal(err)
	}
	c, err := DetectCLI(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// CLISkipLogEnv names the environment variable that, when set, is a file to
// which RequireCLIFeature appends one line per test it skips: the test's name,
// the feature and the CLI, separated by tabs. The test scripts read it to tell
// a skip for want of a CLI feature from every other skip exactly (make test
// fails on one when it runs the newest CLI: scripts/test-versions).
const CLISkipLogEnv = "PGTF_CLI_SKIP_LOG"

var cliSkipLogMu sync.Mutex

// RequireCLIFeature skips the test when the CLI under test lacks feature f,
// saying which releases have it, and records the skip in the file named by
// PGTF_CLI_SKIP_LOG when it is set. Without TF_ACC it does nothing:
// acceptance tests skip anyway, and unit runs need no CLI.
func RequireCLIFeature(t *testing.T, f CLIFeature) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		return
	}
	if _, ok := cliFeatures[f]; !ok {
		t.Fatalf("RequireCLIFeature: unknown feature %q (add it to cliFeatures)", f)
	}
	if c := CLIUnderTest(t); !c.Supports(f) {
		if err := recordCLISkip(os.Getenv(CLISkipLogEnv), t.Name(), f, c); err != nil {
			t.Fatalf("recording the skip in %s: %v", CLISkipLogEnv, err)
		}
		t.Skipf("needs %s (%s); the CLI under test is %s %s", f, Requirement(f), c.Product, c.Version)
	}
}

// recordCLISkip appends "test<TAB>feature<TAB>product version<TAB>admin mode"
// to the file at path (nothing when path is empty).
func recordCLISkip(path, test string, f CLIFeature, c CLI) error {
	if path == "" {
		return nil
	}
	cliSkipLogMu.Lock()
	defer cliSkipLogMu.Unlock()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644) //nolint:gosec // a test log the caller names
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(fh, "%s\t%s\t%s %s\t%s\n", test, f, c.Product, c.Version, Mode()); err != nil {
		_ = fh.Close()
		return err
	}
	return fh.Close()
}
