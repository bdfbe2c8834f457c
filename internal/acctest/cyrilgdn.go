package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CyrilgdnVersion is the release of the community provider cyrilgdn/postgresql
// that the tests applying with it use (scripts/provider-fetch builds it).
const CyrilgdnVersion = "1.26.0"

// cyrilgdnHeader heads a configuration applied with cyrilgdn/postgresql.
const cyrilgdnHeader = "terraform {\n  required_providers {\n    postgresql = { source = \"registry.terraform.io/cyrilgdn/postgresql\" }\n  }\n}\n\nprovider \"postgresql\" {}\n"

// CyrilgdnBinary is the cyrilgdn/postgresql binary named by PGTF_CYRILGDN_BIN
// (scripts/run-tests sets it when scripts/provider-fetch has it). Without one
// the test skips, saying how to get it; with PGTF_REQUIRE_CYRILGDN=1 (CI when
// it has the binary) it fails instead, so that the check cannot silently go.
func CyrilgdnBinary(t *testing.T) string {
	t.Helper()
	p := os.Getenv("PGTF_CYRILGDN_BIN")
	why := ""
	if p == "" {
		why = "PGTF_CYRILGDN_BIN is not set"
	} else if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		why = fmt.Sprintf("PGTF_CYRILGDN_BIN=%s is not an executable file", p)
	}
	if why == "" {
		return p
	}
	msg := why + ": this check applies with cyrilgdn/postgresql " + CyrilgdnVersion +
		" itself (scripts/provider-fetch cyrilgdn " + CyrilgdnVersion + " builds it; scripts/run-tests sets the variable)"
	if os.Getenv("PGTF_REQUIRE_CYRILGDN") == "1" {
		t.Fatal(msg + "; PGTF_REQUIRE_CYRILGDN=1 forbids the skip")
	}
	t.Skip(msg)
	return ""
}

// CyrilgdnSwitch is the outcome of CyrilgdnApplyThenPlan.
type CyrilgdnSwitch struct {
	// State is the state file cyrilgdn/postgresql wrote (after its apply).
	State string
	// Changed lists the addresses whose planned action, with this provider
	// over that state, is anything but a no-op.
	Changed []string
	// Plan is the plan as Terraform printed it.
	Plan string
}

// CyrilgdnApplyThenPlan does what a user who switches does: it applies body
// (resources; the terraform and provider blocks are added, the provider
// configured from the environment) with the real cyrilgdn/postgresql binary
// bin, replaces the provider in the state (`terraform state replace-provider`)
// and plans with this provider (built once per test binary). The objects are
// destroyed with this provider when the test ends. cyrilgdn applies with
// -parallelism=1: several of its grants at once fail with "tuple concurrently
// updated" (its issue #178).
func CyrilgdnApplyThenPlan(t *testing.T, bin, body string) CyrilgdnSwitch {
	t.Helper()
	tf, err := TerraformPath()
	if err != nil {
		t.Fatal(err)
	}
	ours := providerBinaryDir(t)
	// dev_overrides wants a directory holding terraform-provider-postgresql
	theirs := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(theirs, "terraform-provider-postgresql")); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "terraformrc"), fmt.Sprintf(
		"provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/cyrilgdn/postgresql\" = %q\n    \"registry.terraform.io/pgtf/postgresql\" = %q\n  }\n  direct {}\n}\n",
		theirs, ours))
	writeFile(t, filepath.Join(work, "main.tf"), cyrilgdnHeader+body)
	applied := false
	t.Cleanup(func() {
		if !applied {
			if _, err := os.Stat(filepath.Join(work, "terraform.tfstate")); err != nil {
				return
			}
		}
		// with whichever provider the state names by now
		if b, err := os.ReadFile(filepath.Join(work, "terraform.tfstate")); err == nil && strings.Contains(string(b), "cyrilgdn/postgresql") {
			writeFile(t, filepath.Join(work, "main.tf"), cyrilgdnHeader+body)
		} else {
			writeFile(t, filepath.Join(work, "main.tf"), spawnedHeader+body)
		}
		if out, err := runTerraform(tf, work, nil, "destroy", "-auto-approve", "-no-color", "-input=false", "-parallelism=1"); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})
	out, err := runTerraform(tf, work, nil, "apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=1")
	applied = true
	if err != nil {
		t.Fatalf("terraform apply with cyrilgdn/postgresql: %v\n%s", err, out)
	}
	state, err := os.ReadFile(filepath.Join(work, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	res := CyrilgdnSwitch{State: string(state)}
	writeFile(t, filepath.Join(work, "main.tf"), spawnedHeader+body)
	if out, err := runTerraform(tf, work, nil, "state", "replace-provider", "-auto-approve", "-no-color",
		"registry.terraform.io/cyrilgdn/postgresql", "registry.terraform.io/pgtf/postgresql"); err != nil {
		t.Fatalf("terraform state replace-provider: %v\n%s", err, out)
	}
	res.Plan, err = runTerraform(tf, work, nil, "plan", "-out=tfplan", "-no-color", "-input=false", spawnedParallelism)
	if err != nil {
		t.Fatalf("terraform plan with this provider over cyrilgdn's state: %v\n%s", err, res.Plan)
	}
	js, err := runTerraform(tf, work, nil, "show", "-json", "-no-color", "tfplan")
	if err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, js)
	}
	changed, err := updatedAttributes(js)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Plan)
	}
	res.Changed = slices.Clip(changed)
	return res
}
