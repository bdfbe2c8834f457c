package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fixtureInstance is one resource instance of a fixture state file.
type fixtureInstance struct {
	Type          string
	Name          string
	SchemaVersion int64
	Attributes    json.RawMessage
}

// loadFixtureInstances reads every instance of resource type typ from a state
// file under testdata/cyrilgdn (path relative to it, e.g. "role/import/terraform.tfstate").
func loadFixtureInstances(t *testing.T, rel, typ string) []fixtureInstance {
	t.Helper()
	return loadSetInstances(t, "cyrilgdn", rel, typ)
}

// loadSetInstances reads every instance of resource type typ from a state
// file of the fixture set in testdata/<set> (path relative to it).
func loadSetInstances(t *testing.T, set, rel, typ string) []fixtureInstance {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", set, rel))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
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
		if r.Mode != "managed" || r.Type != typ {
			continue
		}
		for _, i := range r.Instances {
			out = append(out, fixtureInstance{Type: r.Type, Name: r.Name, SchemaVersion: i.SchemaVersion, Attributes: i.Attributes})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s instance in %s", typ, rel)
	}
	return out
}

// runUpgrader runs res's upgrader for the instance's schema version over its
// raw JSON attributes, as the framework does, and decodes the result into out.
func runUpgrader(t *testing.T, res resource.Resource, inst fixtureInstance, out any) {
	t.Helper()
	st := upgradeInstance(t, res, inst)
	if diags := st.Get(context.Background(), out); diags.HasError() {
		t.Fatalf("decoding upgraded %s.%s: %v", inst.Type, inst.Name, diags)
	}
}

// upgradeInstance runs res's upgrader for the instance's schema version over
// its raw JSON attributes, as the framework does, and returns the state.
func upgradeInstance(t *testing.T, res resource.Resource, inst fixtureInstance) tfsdk.State {
	t.Helper()
	ctx := context.Background()
	up, ok := res.(resource.ResourceWithUpgradeState)
	if !ok {
		t.Fatalf("%T has no UpgradeState", res)
	}
	u, ok := up.UpgradeState(ctx)[inst.SchemaVersion]
	if !ok {
		t.Fatalf("%T has no upgrader for version %d", res, inst.SchemaVersion)
	}
	if u.PriorSchema == nil {
		t.Fatalf("upgrader for version %d has no PriorSchema", inst.SchemaVersion)
	}
	priorType := u.PriorSchema.Type().TerraformType(ctx)
	raw, err := tftypes.ValueFromJSONWithOpts(inst.Attributes, priorType, tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: false})
	if err != nil {
		t.Fatalf("decoding %s.%s with the prior schema: %v", inst.Type, inst.Name, err)
	}
	var sresp resource.SchemaResponse
	res.Schema(ctx, resource.SchemaRequest{}, &sresp)
	req := resource.UpgradeStateRequest{State: &tfsdk.State{Raw: raw, Schema: *u.PriorSchema}, RawState: &tfprotov6.RawState{JSON: inst.Attributes}}
	resp := resource.UpgradeStateResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}}
	u.StateUpgrader(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("upgrading %s.%s: %v", inst.Type, inst.Name, resp.Diagnostics)
	}
	if !resp.State.Raw.IsFullyKnown() {
		t.Fatalf("upgraded %s.%s has unknown values", inst.Type, inst.Name)
	}
	return resp.State
}

// inBothStates expects the same upgraded instances from the state of each
// fixture directory and from its refreshed state.
func inBothStates[M any](byDir map[string]map[string]M) map[string]map[string]M {
	want := make(map[string]map[string]M, 2*len(byDir))
	for dir, exp := range byDir {
		want[dir+"/terraform.tfstate"] = exp
		want[dir+"/terraform.refreshed.tfstate"] = exp
	}
	return want
}

// checkFixtureUpgrades runs res's upgrader, in a subtest each, over every
// instance of resource type typ in the fixture states that want names (paths
// under a fixture set, e.g. "role/import/terraform.tfstate"), in every set
// that has the case (fixtureSets: the states of every cyrilgdn release), and
// compares the result with the expectation want holds for the instance's
// name. A state file of those cases that want does not name fails the test.
func checkFixtureUpgrades[M any](t *testing.T, res resource.Resource, typ string, want map[string]map[string]M, opts ...cmp.Option) {
	t.Helper()
	checkFixtureUpgradesBySet(t, res, typ, want, nil, opts...)
}

// checkFixtureUpgradesBySet is checkFixtureUpgrades where a release's states
// upgrade to something else: adjust (when not nil) changes the expectation
// for the instance name of a file of release version.
func checkFixtureUpgradesBySet[M any](t *testing.T, res resource.Resource, typ string, want map[string]map[string]M, adjust func(version, file, name string, m *M), opts ...cmp.Option) {
	t.Helper()
	dirs := map[string]bool{}
	for file := range want {
		dirs[filepath.Dir(file)] = true
	}
	for _, set := range fixtureSets {
		for dir := range dirs {
			if _, err := os.Stat(filepath.Join("testdata", set.dir, dir)); err != nil {
				continue // the release has no such case (e.g. a resource it lacks)
			}
			for _, state := range []string{"terraform.tfstate", "terraform.refreshed.tfstate"} {
				file := dir + "/" + state
				if _, err := os.Stat(filepath.Join("testdata", set.dir, file)); err != nil {
					continue
				}
				byName, ok := want[file]
				if !ok {
					t.Errorf("%s/%s: no expectation for this state file", set.version, file)
					continue
				}
				for _, inst := range loadSetInstances(t, set.dir, file, typ) {
					t.Run(set.version+"/"+file+"/"+inst.Name, func(t *testing.T) {
						exp, ok := byName[inst.Name]
						if !ok {
							t.Fatalf("no expectation for %s", inst.Name)
						}
						if adjust != nil {
							adjust(set.version, file, inst.Name, &exp)
						}
						var got M
						runUpgrader(t, res, inst, &got)
						if d := cmp.Diff(exp, got, opts...); d != "" {
							t.Errorf("upgraded state differs (-want +got):\n%s", d)
						}
					})
				}
			}
		}
	}
}

// Every version-0 upgrader has a prior schema (deriving one panics on a
// model it cannot describe).
func TestEveryResourceUpgraderHasPriorSchema(t *testing.T) {
	ctx := context.Background()
	for _, f := range (&pgProvider{}).Resources(ctx) {
		res := f()
		up, ok := res.(resource.ResourceWithUpgradeState)
		if !ok {
			t.Errorf("%T has no UpgradeState", res)
			continue
		}
		for v, u := range up.UpgradeState(ctx) {
			if u.PriorSchema == nil || len(u.PriorSchema.Attributes) == 0 {
				t.Errorf("%T: the upgrader from version %d has no prior schema", res, v)
			}
		}
	}
}

// releaseBefore reports whether cyrilgdn release version (a fixture set's) is
// older than release than.
func releaseBefore(version, than string) bool {
	parse := func(v string) (out [3]int) {
		for i, p := range strings.SplitN(v, ".", 3) {
			out[i], _ = strconv.Atoi(p)
		}
		return out
	}
	a, b := parse(version), parse(than)
	return slices.Compare(a[:], b[:]) < 0
}
