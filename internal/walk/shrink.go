package walk

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// Replay runs a pair from a fresh start, in a new environment: Setup, apply
// Before (which must apply, plan empty and match the catalog: phase
// "before"), make the drift, apply After and check it as a walk step does,
// destroy, Sweep. It returns the failure, or nil.
func Replay(t *testing.T, p Pair) *Failure {
	t.Helper()
	ctx := context.Background()
	e := NewEnv(t)
	defer func() {
		if os.Getenv("PGTF_WALK_KEEP") == "1" {
			t.Logf("replay: PGTF_WALK_KEEP=1: the objects of %s are kept", e.Prefix)
			return
		}
		if err := Sweep(ctx, e); err != nil {
			t.Errorf("replay: sweeping %s: %v", e.Prefix, err)
		}
	}()
	if err := Setup(ctx, e); err != nil {
		t.Fatalf("replay: setup: %v", err)
	}
	dir := acctest.NewWorkdir(t)
	defer dir.Forget()
	inh := Inherited{}
	if f := runStep(ctx, dir, e, &Config{}, nil, p.Before, inh); f != nil {
		f.Phase = "before"
		f.Pair = p
		return f
	}
	if f := runStep(ctx, dir, e, p.Before, p.Drift, p.After, inh); f != nil {
		return f
	}
	w := &Walk{t: t, e: e, dir: dir, prev: p.After}
	if f := w.destroy(ctx); f != nil {
		f.Pair = p
		return f
	}
	return nil
}

// Shrink reduces a failing pair to a minimal one that fails the same way
// (the same Signature), by removing resources from both configurations (and
// drift) for as long as the failure stays: chunks first, then one at a time.
// Each try is a Replay from a fresh start, made twice (races need a second
// chance). It returns nil when the pair does not fail from a fresh start
// (the failure needs the walk's history: replay the walk by its seed).
func Shrink(t *testing.T, f *Failure, logf func(string, ...any)) *Failure {
	t.Helper()
	sig := f.Signature()
	tries := 0
	fails := func(p Pair, n int) *Failure {
		for range n {
			tries++
			if r := Replay(t, p); r != nil && r.Signature() == sig {
				return r
			}
		}
		return nil
	}
	cur := fails(f.Pair, 3)
	if cur == nil {
		logf("shrink: the pair does not fail from a fresh start (%q); replay the walk by its seed", sig)
		return nil
	}
	cur.Seed, cur.Step = f.Seed, f.Step
	logf("shrink: the pair fails from a fresh start; shrinking %d+%d resources, %d drift", f.Before.Size(), f.After.Size(), len(f.Drift))
	for progress := true; progress; {
		progress = false
		keys := pairKeys(cur.Pair)
		for size := max(len(keys)/2, 1); size >= 1 && !progress; size /= 2 {
			for i := 0; i < len(keys) && !progress; i += size {
				cand := withoutKeys(cur.Pair, keys[i:min(i+size, len(keys))])
				if pairEqual(cand, cur.Pair) {
					continue
				}
				if r := fails(cand, 2); r != nil {
					r.Seed, r.Step = f.Seed, f.Step
					cur, progress = r, true
					logf("shrink: %d+%d resources, %d drift", cur.Before.Size(), cur.After.Size(), len(cur.Drift))
				}
			}
			if size == 1 {
				break
			}
		}
		for i := 0; i < len(cur.Drift) && !progress; i++ {
			cand := cur.Pair
			cand.Drift = slices.Delete(slices.Clone(cur.Drift), i, i+1)
			if r := fails(cand, 2); r != nil {
				r.Seed, r.Step = f.Seed, f.Step
				cur, progress = r, true
			}
		}
	}
	logf("shrink: done after %d replays: %d+%d resources, %d drift", tries, cur.Before.Size(), cur.After.Size(), len(cur.Drift))
	return cur
}

// pairKeys lists the keys of both configurations (each once).
func pairKeys(p Pair) []string {
	return dedupe(append(p.Before.Keys(), p.After.Keys()...))
}

// withoutKeys removes resources from both configurations, mends them
// (Normalize) and drops the drift that was made to what is gone.
func withoutKeys(p Pair, keys []string) Pair {
	b, a := p.Before.Clone(), p.After.Clone()
	for _, k := range keys {
		b.Remove(k)
		a.Remove(k)
	}
	Normalize(b)
	Normalize(a)
	var drift []Drift
	for _, d := range p.Drift {
		if b.Kind(d.Key) == "" {
			continue
		}
		if isRoleArg(d.Op) && d.Arg != "" && d.Arg != Admin && b.Role(d.Arg) == nil {
			continue
		}
		drift = append(drift, d)
	}
	return Pair{Before: b, Drift: drift, After: a}
}

func isRoleArg(op string) bool {
	return op == "unmember" || op == "member" || op == "dbowner" || op == "schemaowner" || op == "tableowner"
}

func pairEqual(a, b Pair) bool {
	return a.Before.Equal(b.Before) && a.After.Equal(b.After) && fmt.Sprint(a.Drift) == fmt.Sprint(b.Drift)
}

// String renders a pair for a report.
func (p Pair) String() string {
	var d []string
	for _, x := range p.Drift {
		d = append(d, x.String())
	}
	return fmt.Sprintf("before: %s\ndrift: %s\nafter: %s", p.Before.Summary(), strings.Join(d, ", "), p.After.Summary())
}
