package acctest

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeCLI writes an executable that prints out for `version` (as the real
// CLIs do: the product and version on the first line).
func fakeCLI(t *testing.T, out string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n[ \"$1\" = version ] || exit 3\nprintf '%s\\n' '"+out+"'\n"), 0o755); err != nil { //nolint:gosec // an executable test double
		t.Fatal(err)
	}
	return p
}

func TestDetectCLIAndFeatures(t *testing.T) {
	cases := []struct {
		out      string
		product  string
		version  string
		has, not []CLIFeature
	}{
		{"Terraform v1.5.7\non linux_amd64", ProductTerraform, "1.5.7",
			[]CLIFeature{FeatureImportBlocks},
			[]CLIFeature{FeatureRemovedBlocks, FeatureProviderFunctions, FeatureWriteOnlyArguments, FeatureResourceIdentity, FeatureListResources}},
		{"Terraform v1.11.4\non linux_amd64", ProductTerraform, "1.11.4",
			[]CLIFeature{FeatureRemovedBlocks, FeatureProviderFunctions, FeatureEphemeralResources, FeatureWriteOnlyArguments},
			[]CLIFeature{FeatureResourceIdentity, FeatureImportBlockIdentity, FeatureListResources, FeatureActions}},
		// a prerelease of the first release with a feature has it
		{"Terraform v1.14.0-rc1\non linux_amd64", ProductTerraform, "1.14.0-rc1",
			[]CLIFeature{FeatureResourceIdentity, FeatureImportBlockIdentity, FeatureListResources, FeatureActions}, nil},
		// OpenTofu's numbers do not line up with Terraform's
		{"OpenTofu v1.10.10\non linux_amd64", ProductOpenTofu, "1.10.10",
			[]CLIFeature{FeatureImportBlocks, FeatureRemovedBlocks, FeatureProviderFunctions},
			[]CLIFeature{FeatureEphemeralResources, FeatureWriteOnlyArguments, FeatureResourceIdentity, FeatureListResources}},
		{"OpenTofu v1.12.6\non linux_amd64", ProductOpenTofu, "1.12.6",
			[]CLIFeature{FeatureEphemeralResources, FeatureWriteOnlyArguments, FeatureResourceIdentity, FeatureImportBlockIdentity},
			[]CLIFeature{FeatureListResources, FeatureActions}},
		// a warning ahead of the version line (a missing CLI configuration file) is skipped
		{"There are some problems with the CLI configuration:\nTerraform v1.16.4\non linux_amd64", ProductTerraform, "1.16.4",
			[]CLIFeature{FeatureListResources}, nil},
	}
	for _, c := range cases {
		t.Run(c.product+" "+c.version, func(t *testing.T) {
			cli, err := DetectCLI(fakeCLI(t, c.out))
			if err != nil {
				t.Fatal(err)
			}
			if cli.Product != c.product || cli.Version.Original() != c.version {
				t.Fatalf("got %s %s, want %s %s", cli.Product, cli.Version.Original(), c.product, c.version)
			}
			for _, f := range c.has {
				if !cli.Supports(f) {
					t.Errorf("%s should support %s", cli, f)
				}
			}
			for _, f := range c.not {
				if cli.Supports(f) {
					t.Errorf("%s should not support %s", cli, f)
				}
			}
		})
	}
}

func TestDetectCLIErrors(t *testing.T) {
	if _, err := DetectCLI(fakeCLI(t, "something else v1.2.3")); err == nil {
		t.Error("an unrecognised version line must be an error")
	}
	if _, err := DetectCLI(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing binary must be an error")
	}
}

func TestCLIFeatureTableComplete(t *testing.T) {
	for _, f := range []CLIFeature{FeatureImportBlocks, FeatureRemovedBlocks, FeatureProviderFunctions, FeatureEphemeralResources,
		FeatureWriteOnlyArguments, FeatureResourceIdentity, FeatureImportBlockIdentity, FeatureListResources, FeatureActions} {
		if _, ok := cliFeatures[f]; !ok {
			t.Errorf("%s is missing from cliFeatures", f)
		}
	}
	if got, want := Requirement(FeatureActions), "Terraform >= 1.14.0, no OpenTofu release"; got != want {
		t.Errorf("Requirement(actions) = %q, want %q", got, want)
	}
}

func TestTerraformPathPrefersTFAccTerraformPath(t *testing.T) {
	t.Setenv("TF_ACC_TERRAFORM_PATH", "/opt/tofu/tofu")
	if p, err := TerraformPath(); err != nil || p != "/opt/tofu/tofu" {
		t.Fatalf("TerraformPath() = %q, %v", p, err)
	}
}

// RequireCLIFeature records each skip for want of a feature in PGTF_CLI_SKIP_LOG
// (the scripts fail make test on one), and records nothing when the CLI has it.
func TestRequireCLIFeature_recordsSkips(t *testing.T) {
	log := filepath.Join(t.TempDir(), "cli-skips")
	t.Setenv("TF_ACC", "1")
	t.Setenv("PGTF_ADMIN_MODE", ModeManaged)
	t.Setenv(CLISkipLogEnv, log)
	t.Setenv("TF_ACC_TERRAFORM_PATH", fakeCLI(t, "Terraform v1.11.4\non linux_amd64"))
	t.Run("lacking", func(t *testing.T) {
		RequireCLIFeature(t, FeatureActions)
		t.Error("RequireCLIFeature did not skip a test whose CLI lacks the feature")
	})
	t.Run("having", func(t *testing.T) {
		RequireCLIFeature(t, FeatureWriteOnlyArguments)
	})
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if want := "TestRequireCLIFeature_recordsSkips/lacking\tactions\tTerraform 1.11.4\tmanaged\n"; string(b) != want {
		t.Errorf("skip log: got %q, want %q", b, want)
	}
}
