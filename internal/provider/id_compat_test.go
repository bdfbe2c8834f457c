package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// cyrilgdnStateFiles lists the state files of every cyrilgdn fixture set
// under testdata (testdata/cyrilgdn*/<type>/<case>/*.tfstate).
func cyrilgdnStateFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "cyrilgdn*", "*", "*", "*.tfstate"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture states: %v", err)
	}
	return files
}

// stateInstances reads every managed instance of a state file.
func stateInstances(t *testing.T, file string) []fixtureInstance {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				IndexKey      any             `json:"index_key"`
				SchemaVersion int64           `json:"schema_version"`
				Attributes    json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var out []fixtureInstance
	for _, r := range st.Resources {
		if r.Mode != "managed" || !strings.HasPrefix(r.Type, "postgresql_") {
			continue
		}
		for _, i := range r.Instances {
			name := r.Name
			if i.IndexKey != nil {
				b, _ := json.Marshal(i.IndexKey)
				name += "[" + string(b) + "]"
			}
			out = append(out, fixtureInstance{Type: r.Type, Name: name, SchemaVersion: i.SchemaVersion, Attributes: i.Attributes})
		}
	}
	return out
}

// Before the fix the upgraders of postgresql_grant, postgresql_default_privileges
// and postgresql_grant_role replaced cyrilgdn's id by a JSON object, so
// everything that referenced `.id` (a terraform_data trigger, an output) was
// replaced or changed after the migration. Every instance of every cyrilgdn
// fixture state must keep its id through the upgrade (but a publication
// imported by cyrilgdn, whose id lacks the name, a cyrilgdn bug that its next
// refresh repairs: it gets the repaired id).
func TestUpgradeV0_regressionIDDiffersFromCyrilgdn(t *testing.T) {
	ctx := context.Background()
	factories := map[string]func() resource.Resource{}
	for _, f := range New("test")().Resources(ctx) {
		var resp resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		factories[resp.TypeName] = f
	}
	n := 0
	for _, file := range cyrilgdnStateFiles(t) {
		for _, inst := range stateInstances(t, file) {
			t.Run(file+"/"+inst.Type+"."+inst.Name, func(t *testing.T) {
				f, ok := factories[inst.Type]
				if !ok {
					t.Fatalf("%s is not served", inst.Type)
				}
				var attrs map[string]any
				if err := json.Unmarshal(inst.Attributes, &attrs); err != nil {
					t.Fatal(err)
				}
				want, _ := attrs["id"].(string)
				if inst.Type == "postgresql_publication" && strings.HasSuffix(want, ".") {
					want += attrs["name"].(string)
				}
				if _, _, _, _, err := parseFunctionID(want); inst.Type == "postgresql_function" && err != nil {
					// before 1.19: "schema"."name"(types), without the database; the
					// upgrade writes the id 1.19 and later write (as 1.19's refresh did)
					want = fmt.Sprintf("%s.%s.%s%s", attrs["database"], attrs["schema"], attrs["name"], want[functionArgsStart(want):])
				}
				st := upgradeInstance(t, f(), inst)
				var got types.String
				if diags := st.GetAttribute(ctx, path.Root("id"), &got); diags.HasError() {
					t.Fatal(diags)
				}
				if got.ValueString() != want {
					t.Errorf("upgraded id %q, cyrilgdn's %q", got.ValueString(), want)
				}
			})
			n++
		}
	}
	if n == 0 {
		t.Fatal("no instances")
	}
}
