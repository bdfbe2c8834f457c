package pg

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	pgxconn "github.com/jackc/pgx/v5/pgconn"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// TestBorrowDecide walks the borrowing's state machine (decide, the top of
// borrow.go) over every state a check can find, inside and outside a
// transaction, on PostgreSQL 15 and 16+. Whatever the state, a borrowing
// never plans to revoke a membership that is committed: its only steps that
// give anything back (lend, suspend) happen inside a transaction on 15 and
// older, and a lasting membership the catalog holds is caught up with, never
// lent again.
func TestBorrowDecide(t *testing.T) {
	yes, no := true, false
	type state struct {
		name string
		m    membership
	}
	base := membership{role: "owner", me: "admin", oid: 16384}
	with := func(f func(*membership)) membership {
		m := base
		f(&m)
		return m
	}
	states := []state{
		{"no such role", with(func(m *membership) { m.oid = 0; m.has = true })},
		{"superuser admin", with(func(m *membership) { m.meSuper = true })},
		{"privileges held", with(func(m *membership) { m.has = true })},
		{"privileges held, own membership", with(func(m *membership) { m.has = true; m.lasting = true })},
		{"own membership the caches miss", with(func(m *membership) { m.lasting = true })},
		{"own membership without INHERIT or SET", with(func(m *membership) { m.partial = true })},
		{"none", base},
		{"none, superuser role", with(func(m *membership) { m.super = true })},
		{"direct member of the admin", with(func(m *membership) { m.loop = true; m.direct = &yes })},
		{"direct member of the admin without ADMIN OPTION", with(func(m *membership) { m.loop = true; m.direct = &no })},
		{"indirect member of the admin", with(func(m *membership) { m.loop = true })},
		{"privileges through other roles only", with(func(m *membership) { m.indirect = true; m.canGrant = true })},
		{"privileges through other roles only, no membership of its own possible", with(func(m *membership) { m.indirect = true })},
		{"privileges through other roles only, own membership without INHERIT or SET", with(func(m *membership) {
			m.indirect = true
			m.canGrant = true
			m.partial = true
		})},
	}
	// want[state][v16][inTx]
	want := map[string][2][2]step{
		"no such role":                                    {{stepNone, stepNone}, {stepNone, stepNone}},
		"superuser admin":                                 {{stepNone, stepNone}, {stepNone, stepNone}},
		"privileges held":                                 {{stepNone, stepNone}, {stepNone, stepNone}},
		"privileges held, own membership":                 {{stepNone, stepNone}, {stepNone, stepNone}},
		"own membership the caches miss":                  {{stepCatchUp, stepCatchUp}, {stepCatchUp, stepCatchUp}},
		"own membership without INHERIT or SET":           {{stepRefuse, stepRefuse}, {stepRefuse, stepRefuse}},
		"none":                                            {{stepTake, stepLend}, {stepTake, stepTake}},
		"none, superuser role":                            {{stepTake, stepLend}, {stepTake, stepTake}},
		"direct member of the admin":                      {{stepRefuse, stepSuspend}, {stepRefuse, stepRefuse}},
		"direct member of the admin without ADMIN OPTION": {{stepRefuse, stepSuspend}, {stepRefuse, stepRefuse}},
		"indirect member of the admin":                    {{stepRefuse, stepRefuse}, {stepRefuse, stepRefuse}},
		// a chain of other roles can be cut by another session at any time:
		// the borrowing takes a membership of its own when it can
		"privileges through other roles only":                                        {{stepTake, stepLend}, {stepTake, stepTake}},
		"privileges through other roles only, no membership of its own possible":     {{stepNone, stepNone}, {stepNone, stepNone}},
		"privileges through other roles only, own membership without INHERIT or SET": {{stepNone, stepNone}, {stepNone, stepNone}},
	}
	for _, s := range states {
		for v, v16 := range []bool{false, true} {
			for x, inTx := range []bool{false, true} {
				m := s.m
				m.v16 = v16
				got, err := decide(m, inTx)
				exp := want[s.name][v][x]
				if got != exp {
					t.Errorf("%s (16+ %v, in a transaction %v): %s, want %s", s.name, v16, inTx, got, exp)
				}
				if (got == stepRefuse) != (err != nil) {
					t.Errorf("%s (16+ %v, in a transaction %v): step %s with error %v", s.name, v16, inTx, got, err)
				}
				if (got == stepLend || got == stepSuspend) && (v16 || !inTx) {
					t.Errorf("%s (16+ %v, in a transaction %v): %s gives back a membership other sessions could rely on", s.name, v16, inTx, got)
				}
			}
		}
	}
}

// The refusals say why and what fixes it.
func TestBorrowDecideRefusals(t *testing.T) {
	yes := true
	for _, c := range []struct {
		name string
		m    membership
		inTx bool
		want []string
	}{
		{"own membership without INHERIT or SET", membership{role: "owner", me: "admin", oid: 1, partial: true, v16: true}, true,
			[]string{`GRANT "owner" TO "admin" WITH INHERIT TRUE, SET TRUE`}},
		{"16+ direct member", membership{role: "owner", me: "admin", oid: 1, loop: true, direct: &yes, v16: true}, true,
			[]string{"Since PostgreSQL 16", `REVOKE "admin" FROM "owner"`}},
		{"direct member outside a transaction", membership{role: "owner", me: "admin", oid: 1, loop: true, direct: &yes}, false,
			[]string{"outside one", `REVOKE "admin" FROM "owner"`}},
		{"indirect member", membership{role: "owner", me: "admin", oid: 1, loop: true}, true,
			[]string{"through other roles"}},
	} {
		s, err := decide(c.m, c.inTx)
		if s != stepRefuse || err == nil {
			t.Fatalf("%s: %s, %v; want a refusal", c.name, s, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
	}
}

// scriptedQuerier answers catchUp's membership checks from a script (true:
// the session's caches show the membership), and counts the refreshes.
type scriptedQuerier struct {
	has       []bool
	checks    int
	refreshes int
}

func (q *scriptedQuerier) Exec(context.Context, string, ...any) (pgxconn.CommandTag, error) {
	q.refreshes++
	return pgxconn.CommandTag{}, nil
}

func (q *scriptedQuerier) Query(context.Context, string, ...any) (pgx.Rows, error) {
	return nil, errors.New("not scripted")
}

func (q *scriptedQuerier) QueryRow(context.Context, string, ...any) pgx.Row {
	has := q.has[min(q.checks, len(q.has)-1)]
	q.checks++
	return scriptedRow{has}
}

type scriptedRow struct{ has bool }

func (r scriptedRow) Scan(dest ...any) error {
	*(dest[0].(*bool)) = r.has
	return nil
}

// catchUp refreshes the session's membership caches before every check; on
// a plain connection it asks again until the caches show the membership
// another session committed, and a transaction, which cannot see it before
// it ends, is retried (a transient error) at the first miss.
func TestBorrowCatchUp(t *testing.T) {
	m := membership{role: "owner", me: "admin", oid: 16384, v16: true}
	plain := &scriptedQuerier{has: []bool{false, false, true}}
	if err := catchUp(context.Background(), plain, m, false); err != nil {
		t.Fatalf("plain connection: %v", err)
	}
	if plain.checks != 3 || plain.refreshes != 3 {
		t.Errorf("plain connection: %d checks and %d refreshes, want 3 and 3", plain.checks, plain.refreshes)
	}
	tx := &scriptedQuerier{has: []bool{false, true}}
	err := catchUp(context.Background(), tx, m, true)
	if !pgconn.IsTransient(err) {
		t.Fatalf("transaction: %v, want a transient error", err)
	}
	if tx.checks != 1 || tx.refreshes != 1 {
		t.Errorf("transaction: %d checks and %d refreshes, want 1 and 1", tx.checks, tx.refreshes)
	}
	seen := &scriptedQuerier{has: []bool{true}}
	if err := catchUp(context.Background(), seen, m, true); err != nil || seen.checks != 1 {
		t.Errorf("membership seen: %v after %d checks, want none after 1", err, seen.checks)
	}
}
