package acctest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// ProviderLogToFile makes the in-process provider under test write its own
// tflog output at TRACE (its own logs, the framework's and terraform-plugin-go's;
// Terraform CLI and the test harness write nothing) to a file for the rest of
// the test, and returns that file's path. terraform-plugin-testing serves the
// provider with the tfsdklog test sink, which reads TF_LOG and
// TF_LOG_PATH_MASK when a step starts the provider. t.Setenv: the test must
// not be parallel. The file is kept when the test fails.
func ProviderLogToFile(t *testing.T) string {
	t.Helper()
	// kept when the test fails, for reading
	dir, err := os.MkdirTemp("", "pgtf-provider-log-") //nolint:usetesting // t.TempDir cannot be kept for reading after a failure
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			_ = os.RemoveAll(dir)
		}
	})
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", dir+"/%s.log")
	t.Setenv("TF_ACC_LOG", "OFF")                 // Terraform CLI: not the provider's log
	t.Setenv("TF_LOG_SDK_HELPER_RESOURCE", "OFF") // the test harness (it logs each step's configuration)
	t.Setenv("TF_ACC_LOG_PATH", "")
	t.Setenv("TF_LOG_PATH", "")
	return dir + "/" + strings.ReplaceAll(t.Name(), "/", "__") + ".log"
}

// SecretForms are the spellings of secret that can appear in a log: as is, and
// inside an SQL string constant (single quotes doubled).
func SecretForms(secret string) []string {
	forms := []string{secret}
	if q := strings.ReplaceAll(secret, "'", "''"); q != secret {
		forms = append(forms, q)
	}
	return forms
}

// FileContainsAny reports which of the secrets (in any of their SecretForms)
// occur in the file at path, by name.
func FileContainsAny(t *testing.T, path string, secrets map[string]string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	var found []string
	for name, s := range secrets {
		for _, f := range SecretForms(s) {
			if strings.Contains(string(b), f) {
				found = append(found, fmt.Sprintf("%s (%q)", name, f))
				break
			}
		}
	}
	return found
}

// FileContains reports whether the file at path contains s.
func FileContains(t *testing.T, path, s string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return strings.Contains(string(b), s)
}
