package walk

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Parallelism is the -parallelism of every apply, plan and destroy: users
// run 10 to 50.
const Parallelism = 20

// Options of a walk.
type Options struct {
	Seed  uint64
	Steps int
	// DriftRate is the chance that a step starts with drift made by SQL.
	DriftRate float64
	Switches  Switches
	// Artifacts is the directory where a failing step's configurations are
	// written (a directory per failure).
	Artifacts string
	// Shrink reduces a failing pair to a minimal one (slow: tens of replays).
	Shrink bool
	// Deadline, when set, stops the walk (without failure) before a step
	// that would start after it.
	Deadline time.Time
}

// Result is what a walk did.
type Result struct {
	Seed     uint64
	Steps    int // steps applied and checked
	Drifts   int // steps that started with drift
	Failure  *Failure
	Duration time.Duration
}

// Failure is a failed step: the configuration before it, the drift made and
// the configuration it applied.
type Failure struct {
	Seed   uint64 `json:"seed"`
	Step   int    `json:"step"`
	Phase  string `json:"phase"` // before, drift, apply, plan, check, destroy
	Detail string `json:"detail"`
	Pair
	Dir string `json:"-"`
}

// Pair is a step: from Before, after Drift, to After.
type Pair struct {
	Before *Config `json:"before"`
	Drift  []Drift `json:"drift,omitempty"`
	After  *Config `json:"after"`
}

// Signature is what identifies a failure across replays: its phase and the
// first error summary (names without the walk's prefix).
func (f *Failure) Signature() string {
	return f.Phase + ": " + signature(f.Detail)
}

var (
	errorLine  = regexp.MustCompile(`(?m)^(?:│ )?Error: (.*)$`)
	prefixName = regexp.MustCompile(`wk[0-9a-z]{6}_`)
)

func signature(detail string) string {
	line := detail
	if m := errorLine.FindStringSubmatch(detail); m != nil {
		line = m[1]
	} else if i := strings.IndexByte(detail, '\n'); i >= 0 {
		line = detail[:i]
	}
	// the first words of a catalog difference or a plan's first change
	line = prefixName.ReplaceAllString(line, "")
	if len(line) > 120 {
		line = line[:120]
	}
	return line
}

func (f *Failure) Error() string {
	return fmt.Sprintf("walk seed %d, step %d failed at %s: %s", f.Seed, f.Step, f.Phase, f.Detail)
}

// NewEnv is the environment of a walk in the test cluster of the process's
// environment: a fresh name prefix.
func NewEnv(t *testing.T) Env {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return Env{Prefix: "wk" + string(b), Admin: acctest.AdminUser(), Major: acctest.ServerMajor(t), Managed: acctest.Managed()}
}

func superConn() Conn {
	u, p := acctest.Superuser()
	return SuperConn(u, p)
}

func adminConn() Conn {
	return Conn{Host: os.Getenv("PGHOST"), Port: os.Getenv("PGPORT"), User: os.Getenv("PGUSER"), Password: os.Getenv("PGPASSWORD")}
}

// Setup makes the base database and its fixture (as the admin of the mode,
// as a user's application database would be).
func Setup(ctx context.Context, e Env) error {
	a := adminConn()
	base := qi(e.BaseDB())
	if err := a.Exec(ctx, []Stmt{{"postgres", "CREATE DATABASE " + base}}); err != nil {
		return err
	}
	// every role may own objects in fx (with the managed admin, PostgreSQL
	// asks a new owner for CREATE on the schema)
	stmts := []Stmt{{e.BaseDB(), "CREATE SCHEMA " + qi(FixtureSchema)}, {e.BaseDB(), "GRANT USAGE, CREATE ON SCHEMA " + qi(FixtureSchema) + " TO PUBLIC"}}
	for _, t := range FixtureTables {
		stmts = append(stmts, Stmt{e.BaseDB(), "CREATE TABLE " + qi(FixtureSchema) + "." + qi(t) + " (id integer PRIMARY KEY, note text)"})
	}
	for _, s := range FixtureSequences {
		stmts = append(stmts, Stmt{e.BaseDB(), "CREATE SEQUENCE " + qi(FixtureSchema) + "." + qi(s)})
	}
	return a.Exec(ctx, stmts)
}

// Sweep drops everything whose name starts with the walk's prefix, as the
// superuser: the end of every walk and replay, whatever happened.
func Sweep(ctx context.Context, e Env) error {
	k := superConn()
	rows, err := k.Query(ctx, "postgres", `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, e.Prefix+"_")
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range rows {
		if err := k.Exec(ctx, []Stmt{
			{"postgres", "ALTER DATABASE " + qi(r[0]) + " IS_TEMPLATE false"},
			{"postgres", "DROP DATABASE " + qi(r[0]) + " WITH (FORCE)"},
		}); err != nil {
			errs = append(errs, err)
		}
	}
	rows, err = k.Query(ctx, "postgres", `SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)`, e.Prefix+"_")
	if err != nil {
		return err
	}
	var drop []Stmt
	for _, r := range rows {
		drop = append(drop, Stmt{"postgres", "DROP OWNED BY " + qi(r[0])})
	}
	for _, r := range rows {
		drop = append(drop, Stmt{"postgres", "DROP ROLE " + qi(r[0])})
	}
	if len(drop) > 0 {
		if err := k.Exec(ctx, drop); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Walk is one seeded walk in progress: its environment, working directory
// and the configuration last applied.
type Walk struct {
	t    *testing.T
	e    Env
	opts Options
	dir  *acctest.Workdir
	prev *Config
	inh  Inherited
	logf func(string, ...any)
}

// Run runs one seeded walk: Setup, opts.Steps steps from the empty
// configuration, then a destroy that must leave nothing; Sweep at the end.
// A failure is written to opts.Artifacts (and shrunk with opts.Shrink) and
// returned in the result; the test is not failed here.
func Run(t *testing.T, opts Options) (res Result) {
	t.Helper()
	start := time.Now()
	res.Seed = opts.Seed
	ctx := context.Background()
	e := NewEnv(t)
	logf := func(format string, args ...any) {
		t.Logf("walk seed %d: "+format, append([]any{opts.Seed}, args...)...)
	}
	w := &Walk{t: t, e: e, opts: opts, prev: &Config{}, logf: logf}
	defer func() {
		if err := Sweep(ctx, e); err != nil {
			t.Errorf("walk seed %d: sweeping %s: %v", opts.Seed, e.Prefix, err)
		}
		res.Duration = time.Since(start)
	}()
	if err := Setup(ctx, e); err != nil {
		t.Fatalf("walk seed %d: setup: %v", opts.Seed, err)
	}
	w.dir = acctest.NewWorkdir(t)
	defer w.dir.Forget()
	g := NewGen(opts.Seed, opts.Switches)
	g.Managed = e.Managed
	for step := 1; step <= opts.Steps; step++ {
		if !opts.Deadline.IsZero() && time.Now().After(opts.Deadline) {
			logf("time limit reached after %d steps", res.Steps)
			break
		}
		var next *Config
		var drift []Drift
		if step == 1 {
			next = g.Initial()
		} else {
			next = g.Next(w.prev)
			if g.chance(opts.DriftRate) {
				drift = g.DriftFor(w.prev, next)
			}
		}
		t0 := time.Now()
		if f := w.step(ctx, drift, next); f != nil {
			f.Seed, f.Step = opts.Seed, step
			res.Failure = w.fail(f)
			return res
		}
		if len(drift) > 0 {
			res.Drifts++
		}
		res.Steps++
		logf("step %d ok in %s: %s%s", step, time.Since(t0).Round(10*time.Millisecond), next.Summary(), driftNote(drift))
		w.prev = next
	}
	if f := w.destroy(ctx); f != nil {
		f.Seed, f.Step = opts.Seed, res.Steps+1
		res.Failure = w.fail(f)
	}
	return res
}

func driftNote(d []Drift) string {
	if len(d) == 0 {
		return ""
	}
	var s []string
	for _, x := range d {
		s = append(s, x.String())
	}
	return "; after drift: " + strings.Join(s, ", ")
}

// step applies next after drift and checks the plan and the catalog.
func (w *Walk) step(ctx context.Context, drift []Drift, next *Config) *Failure {
	if w.inh == nil {
		w.inh = Inherited{}
	}
	return runStep(ctx, w.dir, w.e, w.prev, drift, next, w.inh)
}

// runStep applies next after drift over prev, plans, and checks the catalog
// (inh: what default privileges may have given the walk's schemas so far,
// updated for next).
func runStep(ctx context.Context, dir *acctest.Workdir, e Env, prev *Config, drift []Drift, next *Config, inh Inherited) *Failure {
	f := &Failure{Pair: Pair{Before: prev, Drift: drift, After: next}}
	for _, d := range drift {
		stmts, err := DriftSQL(d, prev, e)
		if err == nil {
			err = superConn().Exec(ctx, stmts)
		}
		if err != nil {
			f.Phase, f.Detail = "drift", fmt.Sprintf("%s: %v", d, err)
			return f
		}
	}
	dir.SetConfig(Render(next, e))
	if out, err := dir.Run(applyArgs()...); err != nil {
		f.Phase, f.Detail = "apply", errorsOf(out, err)
		return f
	}
	if out, err := dir.Run(planArgs()...); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			f.Phase, f.Detail = "plan", "the plan after the apply is not empty:\n"+planChanges(out)
		} else {
			f.Phase, f.Detail = "plan", errorsOf(out, err)
		}
		return f
	}
	inh.Update(prev, next, e.Major, drift)
	diffs, err := Check(ctx, superConn(), next, e, inh)
	if err != nil {
		f.Phase, f.Detail = "check", "reading the catalog: "+err.Error()
		return f
	}
	if len(diffs) > 0 {
		f.Phase, f.Detail = "check", "the catalog does not match the configuration:\n"+strings.Join(diffs, "\n")
		return f
	}
	return nil
}

func applyArgs() []string {
	return []string{"apply", "-auto-approve", "-input=false", "-no-color", "-lock=false", fmt.Sprintf("-parallelism=%d", Parallelism)}
}

func planArgs() []string {
	return []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", "-lock=false", fmt.Sprintf("-parallelism=%d", Parallelism)}
}

// destroy destroys everything and checks that nothing is left.
func (w *Walk) destroy(ctx context.Context) *Failure {
	f := &Failure{Pair: Pair{Before: w.prev, After: &Config{}}, Phase: "destroy"}
	out, err := w.dir.Run("destroy", "-auto-approve", "-input=false", "-no-color", "-lock=false", fmt.Sprintf("-parallelism=%d", Parallelism))
	if err != nil {
		f.Detail = errorsOf(out, err)
		return f
	}
	diffs, err := Check(ctx, superConn(), &Config{}, w.e, nil)
	if err != nil {
		f.Detail = "reading the catalog: " + err.Error()
		return f
	}
	if len(diffs) > 0 {
		f.Detail = "objects left after the destroy:\n" + strings.Join(diffs, "\n")
		return f
	}
	w.prev = &Config{}
	return nil
}

// errorsOf keeps the error blocks of Terraform's output (or its tail).
func errorsOf(out string, err error) string {
	lines := strings.Split(out, "\n")
	var keep []string
	in := false
	for _, l := range lines {
		if strings.HasPrefix(l, "╷") || strings.HasPrefix(l, "Error: ") {
			in = true
		}
		if in {
			keep = append(keep, l)
		}
		if strings.HasPrefix(l, "╵") {
			in = false
		}
	}
	if len(keep) == 0 {
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		keep = lines
	}
	return fmt.Sprintf("%v\n%s", err, strings.Join(keep, "\n"))
}

// planChanges keeps the resource lines of a plan (what would change).
func planChanges(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "~ ") || strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "- ") ||
			strings.HasPrefix(t, "-/+ ") || strings.HasPrefix(t, "Plan:") || strings.HasPrefix(t, "Warning:") {
			keep = append(keep, l)
		}
	}
	if len(keep) > 80 {
		keep = append(keep[:80], "...")
	}
	return strings.Join(keep, "\n")
}

// fail writes the failure's artifacts, shrinks it when asked, and logs how
// to reproduce it.
func (w *Walk) fail(f *Failure) *Failure {
	f.Dir = writeArtifacts(w.t, w.opts.Artifacts, w.e, f, "")
	w.logf("FAILED at step %d (%s): %s\nconfigurations written to %s\nreproduce: PGTF_WALK_SEEDS=%d PGTF_WALK_STEPS=%d (TestAccWalk_long), or replay the pair: PGTF_WALK_REPLAY=%s (TestAccWalk_replay)",
		f.Step, f.Phase, f.Detail, f.Dir, f.Seed, f.Step, filepath.Join(f.Dir, "pair.json"))
	if w.opts.Shrink && f.Phase != "drift" {
		if small := Shrink(w.t, f, w.logf); small != nil {
			dir := writeArtifacts(w.t, w.opts.Artifacts, w.e, small, "shrunk")
			w.logf("shrunk to %d+%d resources and %d drift: %s", small.Before.Size(), small.After.Size(), len(small.Drift), dir)
		}
	}
	return f
}

// writeArtifacts writes before.tf, drift.sql, after.tf, pair.json and
// failure.txt of f into a new directory under base and returns it.
func writeArtifacts(t *testing.T, base string, e Env, f *Failure, suffix string) string {
	t.Helper()
	if base == "" {
		base = t.TempDir()
	}
	name := fmt.Sprintf("seed%d-step%d-%s", f.Seed, f.Step, e.Prefix)
	if suffix != "" {
		name += "-" + suffix
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Logf("writing artifacts: %v", err)
		return dir
	}
	var sql []string
	for _, d := range f.Drift {
		stmts, err := DriftSQL(d, f.Before, e)
		if err != nil {
			sql = append(sql, "-- "+err.Error())
		}
		sql = append(sql, "-- "+d.String())
		for _, s := range stmts {
			sql = append(sql, fmt.Sprintf("\\connect %s\n%s;", qi(s.DB), s.SQL))
		}
	}
	pair, _ := json.MarshalIndent(f.Pair, "", "  ")
	files := map[string]string{
		"before.tf":   Render(f.Before, e),
		"after.tf":    Render(f.After, e),
		"drift.sql":   strings.Join(sql, "\n") + "\n",
		"pair.json":   string(pair) + "\n",
		"failure.txt": fmt.Sprintf("seed %d, step %d, phase %s\nsignature: %s\n\n%s\n", f.Seed, f.Step, f.Phase, f.Signature(), f.Detail),
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil { //nolint:gosec // test artifacts
			t.Logf("writing artifacts: %v", err)
		}
	}
	return dir
}
