package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"

	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The compatibility corpus (issue 30): configurations written the way
// cyrilgdn/postgresql users write them, from its documentation, examples and
// tests and from the modules that wrap it: every argument spelling and
// combination it accepts, deprecated ones included. testdata/corpus/<type>.tf
// holds the cases of postgresql_<type>: each applied with this provider must
// plan empty. The other half, states written by every cyrilgdn release planned
// empty after the switch, is TestAccMigration_cyrilgdn.
//
// A corpus file is a text/template over corpusNames ({{.P}} is a random
// prefix for object names). Lines before the first case are shared by its
// cases (roles they act on). A case starts with a line `# case: <name>`;
// among the comment lines that follow it are its directives:
//
//	# known-issue: <defect, and whose fix>  skipped unless PGTF_CORPUS_KNOWN=1
//	# superuser-only: <why>                  skipped in the managed admin mode
//	# min-pg: <major>                        skipped on older servers
//	# needs: write-only                      skipped on a CLI without write-only arguments
//	# cyrilgdn-fails: <why>                  cyrilgdn/postgresql cannot apply it: left out of
//	                                         the checks over its state (corpus_cyrilgdn_test.go)
//	# cyrilgdn-fails-managed: <why>          the same, in the managed admin mode only
//
// then its resource blocks (names unique in the file), which may refer to the
// shared ones but not to another case's. All the cases of a file are one
// configuration: one apply, then one plan-only step (a refresh and a plan
// with a fresh provider), so the corpus costs a few Terraform runs per type.

// corpusNames are the names the corpus templates see.
type corpusNames struct {
	P     string // random prefix, unique per run
	Admin string // the provider's role
	// Conninfo reaches database <P>_pub of the test cluster (subscriptions)
	Conninfo string
}

// corpusCase is one case of a corpus file.
type corpusCase struct {
	name          string
	hcl           string
	knownIssue    string
	superuserOnly string
	minMajor      int
	needs         []acctest.CLIFeature
	cyrilgdnFails string
	// cyrilgdnFailsManaged: cyrilgdn cannot apply it as a non-superuser
	cyrilgdnFailsManaged string
}

// cyrilgdnFailure is why cyrilgdn/postgresql cannot apply the case in the
// current admin mode ("" when it can).
func (c corpusCase) cyrilgdnFailure() string {
	if c.cyrilgdnFails == "" && acctest.Managed() {
		return c.cyrilgdnFailsManaged
	}
	return c.cyrilgdnFails
}

var corpusDirective = regexp.MustCompile(`^# (known-issue|superuser-only|min-pg|needs|cyrilgdn-fails|cyrilgdn-fails-managed): *(.*)$`)

// parseCorpus splits a corpus file into its shared part and its cases.
func parseCorpus(text string) (shared string, cases []corpusCase, err error) {
	var cur *corpusCase
	var sb strings.Builder
	directives := false
	flush := func() {
		if cur == nil {
			shared = sb.String()
		} else {
			cur.hcl = sb.String()
			cases = append(cases, *cur)
		}
		sb.Reset()
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		if name, ok := strings.CutPrefix(line, "# case: "); ok {
			flush()
			name = strings.TrimSpace(name)
			if name == "" || seen[name] {
				return "", nil, fmt.Errorf("line %d: case name %q empty or repeated", i+1, name)
			}
			seen[name] = true
			cur = &corpusCase{name: name}
			directives = true
			sb.WriteString(line + "\n")
			continue
		}
		if cur != nil && directives {
			if m := corpusDirective.FindStringSubmatch(line); m != nil {
				switch m[1] {
				case "known-issue":
					cur.knownIssue = m[2]
				case "superuser-only":
					cur.superuserOnly = m[2]
				case "cyrilgdn-fails":
					cur.cyrilgdnFails = m[2]
				case "cyrilgdn-fails-managed":
					cur.cyrilgdnFailsManaged = m[2]
				case "min-pg":
					if cur.minMajor, err = strconv.Atoi(m[2]); err != nil {
						return "", nil, fmt.Errorf("line %d: min-pg: %w", i+1, err)
					}
				case "needs":
					if m[2] != "write-only" {
						return "", nil, fmt.Errorf("line %d: unknown need %q", i+1, m[2])
					}
					cur.needs = append(cur.needs, acctest.FeatureWriteOnlyArguments)
				}
				sb.WriteString(line + "\n")
				continue
			}
			if !strings.HasPrefix(line, "#") {
				directives = false // directives are the comment lines before the first block
			}
		}
		sb.WriteString(line + "\n")
	}
	flush()
	for _, c := range cases {
		if !strings.Contains(c.hcl, "\nresource ") {
			return "", nil, fmt.Errorf("case %s has no resource block", c.name)
		}
	}
	return shared, cases, nil
}

// corpusType is what a corpus file needs beyond its configuration.
type corpusType struct {
	// skip, when set, skips the whole file (admin mode, missing server module).
	skip func(t *testing.T)
	// setup creates, before the apply, the objects the provider has no
	// resource for (a database {{.P}} with tables, functions...), and
	// registers their cleanup.
	setup func(t *testing.T, n corpusNames)
	// serial: the file's cases share server-wide objects with other tests
	// (postgres_fdw in database postgres), so it runs alone.
	serial bool
}

var corpusTypes = map[string]corpusType{
	"role":     {},
	"database": {},
	"schema":   {setup: func(t *testing.T, n corpusNames) { acctest.Database(t, n.P, acctest.AdminUser()) }},
	"grant": {setup: func(t *testing.T, n corpusNames) {
		acctest.Database(t, n.P, acctest.AdminUser())
		acctest.AdminExec(t, n.P,
			"CREATE SCHEMA app",
			"CREATE TABLE app.t1 (id int, name text)", "CREATE TABLE app.t2 (id int)", "CREATE VIEW app.v1 AS SELECT id FROM app.t1",
			"CREATE SEQUENCE app.s1", "CREATE SEQUENCE app.s2",
			"CREATE FUNCTION app.f1(a integer, b text) RETURNS integer LANGUAGE sql AS 'SELECT a'",
			"CREATE FUNCTION app.f2() RETURNS void LANGUAGE sql AS ''",
			"CREATE PROCEDURE app.p1(a integer) LANGUAGE sql AS ''",
			"CREATE SCHEMA other", "CREATE TABLE other.t1 (id int)",
			"CREATE FUNCTION other.f1(v character varying, n numeric, t timestamp with time zone) RETURNS integer LANGUAGE sql AS 'SELECT 1'")
		// as a managed service has it: the wrapper installed, usable by the admin
		acctest.Exec(t, n.P, "CREATE EXTENSION postgres_fdw",
			"GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO "+acctest.QI(n.Admin)+" WITH GRANT OPTION")
		acctest.AdminExec(t, n.P, "CREATE SERVER srv FOREIGN DATA WRAPPER postgres_fdw")
	}},
	"default_privileges": {setup: func(t *testing.T, n corpusNames) {
		acctest.Database(t, n.P, acctest.AdminUser())
		acctest.AdminExec(t, n.P, "CREATE SCHEMA app", "CREATE SCHEMA other")
	}},
	"grant_role": {},
	"extension":  {setup: func(t *testing.T, n corpusNames) { acctest.Database(t, n.P, acctest.AdminUser()) }},
	"function":   {setup: func(t *testing.T, n corpusNames) { acctest.Database(t, n.P, acctest.AdminUser()) }},
	"publication": {setup: func(t *testing.T, n corpusNames) {
		acctest.Database(t, n.P, acctest.AdminUser())
		acctest.AdminExec(t, n.P, "CREATE SCHEMA app",
			"CREATE TABLE public.t1 (id int PRIMARY KEY)", "CREATE TABLE app.t2 (id int PRIMARY KEY)",
			"CREATE TABLE public.m (id int, at date) PARTITION BY RANGE (at)",
			"CREATE TABLE public.m_2025 PARTITION OF public.m FOR VALUES FROM ('2025-01-01') TO ('2026-01-01')")
		// a publication's owner needs CREATE on its database
		acctest.AdminExec(t, n.P, "GRANT CREATE ON DATABASE "+acctest.QI(n.P)+" TO PUBLIC")
	}},
	"replication_slot": {
		skip: func(t *testing.T) {
			acctest.SkipIfManaged(t, "creating replication slots needs superuser or REPLICATION")
		},
		setup: func(t *testing.T, n corpusNames) { acctest.Database(t, n.P, acctest.AdminUser()) },
	},
	"server": {setup: func(t *testing.T, n corpusNames) {
		acctest.TempDatabase(t, n.P, acctest.FDWSetup...)
	}},
	"security_label": {skip: skipWithoutDummyLabelProvider, setup: func(t *testing.T, n corpusNames) {
		acctest.Database(t, n.P, acctest.AdminUser())
		acctest.AdminExec(t, n.P, "CREATE TABLE public.t1 (id int)", "CREATE SCHEMA app", "CREATE TABLE app.t2 (id int)")
	}},
}

const corpusDir = "testdata/corpus"

// corpusFiles lists the corpus files: type (file name without .tf) -> path.
func corpusFiles(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.tf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in %s: %v", corpusDir, err)
	}
	out := map[string]string{}
	for _, p := range paths {
		out[strings.TrimSuffix(filepath.Base(p), ".tf")] = p
	}
	return out
}

// TestCompatCorpus_cases checks the corpus files (they parse, every file
// names a served type and has its entry in corpusTypes, every type cyrilgdn
// has is in the corpus) and lists their cases (go test -v).
func TestCompatCorpus_cases(t *testing.T) {
	served := registeredTypes()
	files := corpusFiles(t)
	var typs []string
	for typ := range files {
		typs = append(typs, typ)
	}
	sort.Strings(typs)
	total, known := 0, 0
	for _, typ := range typs {
		if !served["postgresql_"+typ] {
			t.Errorf("%s: postgresql_%s is not served by the provider", files[typ], typ)
		}
		if _, ok := corpusTypes[typ]; !ok {
			t.Errorf("%s: no entry in corpusTypes", files[typ])
		}
		b, err := os.ReadFile(files[typ])
		if err != nil {
			t.Fatal(err)
		}
		_, cases, err := parseCorpus(string(b))
		if err != nil {
			t.Errorf("%s: %v", files[typ], err)
			continue
		}
		var names []string
		for _, c := range cases {
			n := c.name
			if c.knownIssue != "" {
				n += " (known issue)"
				known++
			}
			names = append(names, n)
		}
		total += len(cases)
		t.Logf("postgresql_%s: %d cases: %s", typ, len(cases), strings.Join(names, ", "))
	}
	t.Logf("%d cases, %d of them known issues", total, known)
	for typ := range corpusTypes {
		if _, ok := files[typ]; !ok {
			t.Errorf("corpusTypes lists %s, which has no corpus file", typ)
		}
	}
	// every type of cyrilgdn (one the migration fixtures cover) has a corpus
	// (but those whose configurations say little more than the fixtures and
	// the conformance suite do: a subscription, a physical slot, a user
	// mapping, which have one or two arguments besides their names)
	missing := map[string]bool{}
	for _, c := range migrationCases {
		typ := strings.SplitN(c.dir, "/", 2)[0]
		if _, ok := files[typ]; !ok && !slices.Contains([]string{"subscription", "physical_replication_slot", "user_mapping"}, typ) && !missing[typ] {
			missing[typ] = true
			t.Errorf("postgresql_%s: cyrilgdn has it, but it has no corpus file", typ)
		}
	}
}

// TestAccCompatCorpus applies each corpus file and expects an empty plan, in
// a subtest per resource type; types run in parallel.
func TestAccCompatCorpus(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC (make testacc)")
	}
	known := os.Getenv("PGTF_CORPUS_KNOWN") != ""
	forEachCorpusType(t, func(t *testing.T, typ, file string, ct corpusType) {
		runCorpus(t, typ, file, ct, known)
	})
}

// forEachCorpusType runs f in a subtest per corpus file (per resource type),
// in name order: in parallel, except the types that must run one at a time
// (serial), after the type's own skip.
func forEachCorpusType(t *testing.T, f func(t *testing.T, typ, file string, ct corpusType)) {
	files := corpusFiles(t)
	var typs []string
	for typ := range files {
		typs = append(typs, typ)
	}
	sort.Strings(typs)
	for _, typ := range typs {
		ct := corpusTypes[typ]
		t.Run(typ, func(t *testing.T) {
			if ct.skip != nil {
				ct.skip(t)
			}
			if ct.serial {
				fdwCasesMu.Lock()
				defer fdwCasesMu.Unlock()
			} else {
				t.Parallel()
			}
			f(t, typ, files[typ], ct)
		})
	}
}

// corpusRun is what of a corpus file runs here: its shared part and the cases
// this server, admin mode and CLI run.
type corpusRun struct {
	shared  string
	cases   []corpusCase
	total   int
	skipped map[string]string // case -> why it does not run here
}

// selectCorpus reads a corpus file and picks the cases that run here.
func selectCorpus(t *testing.T, path string, known bool) corpusRun {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	shared, cases, err := parseCorpus(string(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	major := acctest.ServerMajor(t)
	under := acctest.CLIUnderTest(t)
	run := corpusRun{shared: shared, total: len(cases), skipped: map[string]string{}}
	for _, c := range cases {
		switch {
		case c.knownIssue != "" && !known:
			run.skipped[c.name] = "known issue: " + c.knownIssue
		case c.superuserOnly != "" && acctest.Managed():
			run.skipped[c.name] = "needs superuser: " + c.superuserOnly
		case c.minMajor > major:
			run.skipped[c.name] = fmt.Sprintf("needs PostgreSQL %d", c.minMajor)
		case slices.ContainsFunc(c.needs, func(f acctest.CLIFeature) bool { return !under.Supports(f) }):
			run.skipped[c.name] = "the CLI lacks write-only arguments"
		default:
			run.cases = append(run.cases, c)
		}
	}
	for _, c := range cases {
		if why, ok := run.skipped[c.name]; ok {
			t.Logf("case %s skipped: %s", c.name, why)
		}
	}
	if len(run.cases) == 0 {
		t.Skip("no case runs here")
	}
	t.Logf("%d of %d cases", len(run.cases), len(cases))
	return run
}

// body is the configuration (without the provider block) of the shared part
// and the cases keep accepts (nil: all of them).
func (r corpusRun) body(keep func(corpusCase) bool) string {
	var b strings.Builder
	b.WriteString(r.shared)
	for _, c := range r.cases {
		if keep == nil || keep(c) {
			b.WriteString(c.hcl)
		}
	}
	return b.String()
}

// newCorpusNames are the names of one run of a corpus file.
func newCorpusNames() corpusNames {
	// no hyphen: the prefix also names replication slots
	prefix := strings.ReplaceAll(acctest.RandName("cp"), "-", "_")
	return corpusNames{P: prefix, Admin: acctest.AdminUser(), Conninfo: acctest.Conninfo(prefix + "_pub")}
}

func runCorpus(t *testing.T, typ, path string, ct corpusType, known bool) {
	run := selectCorpus(t, path, known)
	n := newCorpusNames()
	if ct.setup != nil {
		ct.setup(t, n)
	}
	config := acctest.ProviderBlock + renderCorpus(t, run.body(nil), n)
	replay := corpusReplayStep(t, typ, run, n)
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []tfresource.TestStep{
			{Config: config}, // applied, then planned: must be empty
			// a fresh refresh and plan; before it, the objects planned over the
			// state cyrilgdn wrote for the same configuration
			{Config: config, PlanOnly: true, PreConfig: replay},
		},
	})
}

func renderCorpus(t *testing.T, text string, n corpusNames) string {
	t.Helper()
	tpl, err := template.New("corpus").Option("missingkey=error").Parse(text)
	if err != nil {
		t.Fatalf("corpus template: %v", err)
	}
	var b strings.Builder
	if err := tpl.Execute(&b, n); err != nil {
		t.Fatalf("corpus template: %v", err)
	}
	return b.String()
}
