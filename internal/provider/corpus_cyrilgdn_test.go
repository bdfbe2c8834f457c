package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The corpus over states cyrilgdn/postgresql wrote. TestAccCompatCorpus
// applies each corpus file with this provider; the claim to back is that a
// user who applied the same configuration with cyrilgdn and then switches
// sees no change. Two checks back it:
//
//   - TestAccCompatCorpus_cyrilgdnApply applies each corpus file with the real
//     cyrilgdn/postgresql 1.26.0 binary (PGTF_CYRILGDN_BIN, built by
//     scripts/provider-fetch), replaces the provider in the state and plans
//     with this provider: no change. With PGTF_CORPUS_RECORD=1 it also records
//     the state cyrilgdn wrote into testdata/corpus/cyrilgdn-1.26.0.
//   - TestAccCompatCorpus, everywhere (the binary cannot be built where the Go
//     module proxy is the only network: the proxy does not serve cyrilgdn's
//     source), plans once more before its plan-only step: over the objects it
//     applied, with the state cyrilgdn wrote for the same configuration (the
//     recording, names substituted) instead of its own. No change either.

// corpusRecordingDir holds the recordings: <type>.<admin mode>.json.
const corpusRecordingDir = "testdata/corpus/cyrilgdn-" + acctest.CyrilgdnVersion

// corpusRecording is the state cyrilgdn wrote for one corpus file in one
// admin mode, with the run's name prefix written @P@ and, in the managed
// mode, the admin's name @ADMIN@.
type corpusRecording struct {
	Provider   string            `json:"provider"`
	Terraform  string            `json:"terraform"`
	PostgreSQL string            `json:"postgresql"`
	Mode       string            `json:"mode"`
	Cases      []string          `json:"cases"`
	Excluded   map[string]string `json:"excluded,omitempty"` // case -> why cyrilgdn did not apply it
	State      json.RawMessage   `json:"state"`
}

func corpusRecordingPath(typ string) string {
	return filepath.Join(corpusRecordingDir, typ+"."+acctest.Mode()+".json")
}

// recordingPlaceholders maps the run's names to the recording's placeholders.
func recordingPlaceholders(n corpusNames) []string {
	r := []string{n.P, "@P@"}
	if acctest.Managed() {
		r = append(r, n.Admin, "@ADMIN@")
	}
	return r
}

// writeCorpusRecording records the state cyrilgdn wrote for run.
func writeCorpusRecording(t *testing.T, typ, bin string, run corpusRun, n corpusNames, state string) {
	t.Helper()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	rec := corpusRecording{
		Provider:   fmt.Sprintf("cyrilgdn/postgresql %s (binary sha256 %s)", acctest.CyrilgdnVersion, hex.EncodeToString(sum[:])),
		Terraform:  acctest.CLIUnderTest(t).String(),
		PostgreSQL: acctest.QueryString(t, "", "SELECT current_setting('server_version')"),
		Mode:       acctest.Mode(),
		Excluded:   map[string]string{},
	}
	rec.Terraform = rec.Terraform[:strings.LastIndex(rec.Terraform, " (")] // not the machine's path
	for _, c := range run.cases {
		if why := c.cyrilgdnFailure(); why != "" {
			rec.Excluded[c.name] = why
			continue
		}
		rec.Cases = append(rec.Cases, c.name)
	}
	for name, why := range run.skipped {
		rec.Excluded[name] = "not run in the recording: " + why
	}
	rec.State = json.RawMessage(strings.NewReplacer(recordingPlaceholders(n)...).Replace(state))
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(corpusRecordingDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corpusRecordingPath(typ), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s", corpusRecordingPath(typ))
}

var topResource = regexp.MustCompile(`(?m)^resource\s+"([a-z0-9_]+)"\s+"([A-Za-z0-9_-]+)"`)

// stateFor keeps the managed resources of state that body declares.
func stateFor(t *testing.T, state, body string) string {
	t.Helper()
	want := map[string]bool{}
	for _, m := range topResource.FindAllStringSubmatch(body, -1) {
		want[m[1]+"."+m[2]] = true
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(state), &s); err != nil {
		t.Fatalf("recorded state: %v", err)
	}
	var kept []any
	resources, _ := s["resources"].([]any)
	for _, r := range resources {
		m, _ := r.(map[string]any)
		if m["mode"] == "managed" && want[fmt.Sprint(m["type"], ".", m["name"])] {
			kept = append(kept, r)
		}
	}
	s["resources"] = kept
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// corpusSwitchUpdates are the updates the first plan after the switch shows
// for a corpus case, "<address>.<attribute>" -> why (the migration guide's
// "What the first plan can show" lists them).
var corpusSwitchUpdates = map[string]string{
	// as the migration case grant/table_objects_all_tables+objects_empty (issue 41)
	"postgresql_grant.all_tables_empty.objects": "`objects = []` over the null cyrilgdn stores: one in-place update from null to [], which runs no SQL",
}

// corpusReplayStep is the check over the recorded cyrilgdn state (see above),
// for the PreConfig of the step after the apply: the objects exist by then.
func corpusReplayStep(t *testing.T, typ string, run corpusRun, n corpusNames) func() {
	t.Helper()
	b, err := os.ReadFile(corpusRecordingPath(typ))
	if err != nil {
		t.Fatalf("no state cyrilgdn wrote for the %s corpus in the %s admin mode (%v): record it with "+
			"TF_ACC=1 PGTF_CORPUS_RECORD=1 PGTF_CYRILGDN_BIN=$(scripts/provider-fetch cyrilgdn %s) go test -run '^TestAccCompatCorpus_cyrilgdnApply$/^%s$' ./internal/provider/",
			typ, acctest.Mode(), err, acctest.CyrilgdnVersion, typ)
	}
	var rec corpusRecording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", corpusRecordingPath(typ), err)
	}
	if len(rec.Cases) == 0 {
		t.Logf("%s: cyrilgdn applied no case of this file: no plan over its state", corpusRecordingPath(typ))
		return func() {}
	}
	var missing []string
	for _, c := range run.cases {
		if !slices.Contains(rec.Cases, c.name) {
			if why, ok := rec.Excluded[c.name]; ok {
				t.Logf("case %s: not planned over a cyrilgdn state: %s", c.name, why)
			} else {
				missing = append(missing, c.name)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Fatalf("%s does not hold cases %s: record it again (see corpus_cyrilgdn_test.go)", corpusRecordingPath(typ), strings.Join(missing, ", "))
	}
	body := renderCorpus(t, run.body(func(c corpusCase) bool { return slices.Contains(rec.Cases, c.name) }), n)
	ph := recordingPlaceholders(n)
	back := make([]string, len(ph))
	for i := 0; i < len(ph); i += 2 {
		back[i], back[i+1] = ph[i+1], ph[i]
	}
	// what `terraform state replace-provider` does at the switch
	back = append(back, "registry.terraform.io/cyrilgdn/postgresql", "registry.terraform.io/pgtf/postgresql")
	state := stateFor(t, strings.NewReplacer(back...).Replace(string(rec.State)), body)
	return func() {
		changed, plan, err := acctest.PlanChanges(t, body, state)
		if err != nil {
			t.Fatalf("plan over the state cyrilgdn wrote (%s): %v\n%s", corpusRecordingPath(typ), err, plan)
		}
		changed = slices.DeleteFunc(changed, func(c string) bool {
			addr, ok := strings.CutSuffix(c, " [update]")
			why, expected := corpusSwitchUpdates[addr+".objects"]
			if ok && expected {
				t.Logf("%s: the expected update: %s", addr, why)
			}
			return ok && expected
		})
		if len(changed) > 0 {
			t.Fatalf("plan over the state cyrilgdn wrote (%s) shows changes %v:\n%s", corpusRecordingPath(typ), changed, plan)
		}
	}
}

// TestAccCompatCorpus_cyrilgdnApply applies each corpus file with the real
// cyrilgdn/postgresql, switches the state to this provider and expects an
// empty plan (see above). Types run in parallel, as in TestAccCompatCorpus.
func TestAccCompatCorpus_cyrilgdnApply(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	bin := acctest.CyrilgdnBinary(t)
	record := os.Getenv("PGTF_CORPUS_RECORD") == "1"
	known := record || os.Getenv("PGTF_CORPUS_KNOWN") != ""
	forEachCorpusType(t, func(t *testing.T, typ, file string, ct corpusType) {
		run := selectCorpus(t, file, known)
		n := newCorpusNames()
		if ct.setup != nil {
			ct.setup(t, n)
		}
		applicable := 0
		body := renderCorpus(t, run.body(func(c corpusCase) bool {
			if why := c.cyrilgdnFailure(); why != "" {
				t.Logf("case %s not applied with cyrilgdn: %s", c.name, why)
				return false
			}
			applicable++
			return true
		}), n)
		if applicable == 0 {
			if record {
				writeCorpusRecording(t, typ, bin, run, n, `{"resources": []}`)
			}
			t.Skip("cyrilgdn can apply no case of this file here")
		}
		sw := acctest.CyrilgdnApplyThenPlan(t, bin, body)
		if record {
			writeCorpusRecording(t, typ, bin, run, n, sw.State)
		}
		sw.Changed = slices.DeleteFunc(sw.Changed, func(c string) bool {
			why, ok := corpusSwitchUpdates[c]
			if ok {
				t.Logf("%s: the expected update: %s", c, why)
			}
			return ok
		})
		if len(sw.Changed) > 0 {
			t.Fatalf("after the switch from cyrilgdn/postgresql %s, the plan shows changes %v:\n%s", acctest.CyrilgdnVersion, sw.Changed, sw.Plan)
		}
	})
}

// recordedInstances are the instances of resource type typ in the state
// cyrilgdn wrote for corpus file file in admin mode mode (names as recorded:
// @P@ for the prefix).
func recordedInstances(t *testing.T, file, mode, typ string) []fixtureInstance {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusRecordingDir, file+"."+mode+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec corpusRecording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "state"), rec.State, 0o600); err != nil {
		t.Fatal(err)
	}
	var out []fixtureInstance
	for _, inst := range stateInstances(t, filepath.Join(dir, "state")) {
		if inst.Type == typ {
			out = append(out, inst)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s in the %s recording of %s", typ, mode, file)
	}
	return out
}
