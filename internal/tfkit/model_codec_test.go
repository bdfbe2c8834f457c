package tfkit

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestModelCodec_workaroundTiedToFramework119 fails when go.mod moves terraform-plugin-framework past
// v1.19: check whether the framework still needs the workaround of model_codec.go, then
// remove it or raise the version checked here.
func TestModelCodec_workaroundTiedToFramework119(t *testing.T) {
	if v, past := frameworkPast119(t); past {
		t.Errorf("go.mod requires terraform-plugin-framework %s, past v1.19: check whether the workaround of model_codec.go (the model codec: the framework v1.19 walks a model's struct tags and compiles a regular expression per field on every Get and Set; a codec built once per model type does the conversion) is still needed (remove it if not), then update this test", v)
	}
}

// frameworkPast119 reports the terraform-plugin-framework version go.mod
// requires, and whether it is past v1.19 (the workarounds of
// protocol_server.go and model_codec.go are tied to v1.19).
func frameworkPast119(t *testing.T) (string, bool) {
	t.Helper()
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/hashicorp/terraform-plugin-framework v(\d+)\.(\d+)\.\S+`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod requires no github.com/hashicorp/terraform-plugin-framework")
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	return fmt.Sprintf("v%d.%d", major, minor), major > 1 || major == 1 && minor > 19
}
