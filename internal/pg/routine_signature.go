package pg

import (
	"context"
	"strings"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// A routine named in a grant's objects with its arguments, `f(text, char)`,
// is matched by the types PostgreSQL resolves those names to, not by their
// text: users write the aliases SQL accepts (`int`, `varchar`, `char`,
// `timestamptz`, `int[]`), which are not the names the catalog prints
// (`integer`, `character varying`, `character`, ...). The spelling stays the
// user's; what is compared is `name(type OID, ...)`.

// routineSignature splits an object of a routine grant written with
// arguments into the routine's name and the arguments as written (split at
// the commas outside parentheses and double quotes); ok is false for a bare
// name.
func routineSignature(object string) (name string, args []string, ok bool) {
	open := strings.IndexByte(object, '(')
	if open <= 0 || !strings.HasSuffix(object, ")") {
		return "", nil, false
	}
	name = strings.TrimSpace(object[:open])
	inner := strings.TrimSpace(object[open+1 : len(object)-1])
	if inner == "" {
		return name, []string{}, true
	}
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			args = append(args, strings.TrimSpace(inner[start:i]))
			start = i + 1
		}
	}
	return name, append(args, strings.TrimSpace(inner[start:])), true
}

// argumentTypes returns, for one argument as GRANT accepts it
// (`[mode] [name] type`), the type names to try in turn: the text as a
// type, then without its first word (an argument name: `a integer`).
// out reports an OUT argument, which does not belong to the signature.
func argumentTypes(arg string) (candidates []string, out bool) {
	first, rest, found := strings.Cut(arg, " ")
	switch strings.ToUpper(first) {
	case "IN", "INOUT", "VARIADIC":
		if found {
			arg = strings.TrimSpace(rest)
		}
	case "OUT":
		if found {
			return nil, true
		}
	}
	candidates = []string{arg}
	if strings.HasPrefix(arg, `"`) {
		// a quoted first word: a name if a type follows it
		if end := strings.Index(arg[1:], `"`); end >= 0 && strings.HasPrefix(arg[end+2:], " ") {
			candidates = append(candidates, strings.TrimSpace(arg[end+2:]))
		}
	} else if _, rest, found := strings.Cut(arg, " "); found {
		candidates = append(candidates, strings.TrimSpace(rest))
	}
	return candidates, false
}

// ResolveRoutineSignatures is resolveSignatures: the keys of the objects of
// t named with arguments, equal for two spellings of one routine.
func (c *Client) ResolveRoutineSignatures(ctx context.Context, t GrantTarget) (map[string]string, error) {
	return c.resolveSignatures(ctx, t)
}

// resolveSignatures resolves the argument types of the objects of t written
// with arguments (routine grants only) on the read-only pool of t's
// database, and returns each such object's key `name(type OID,...)`, the
// form objectQuery compares with a routine's `proname(proargtypes)`; an
// object whose types do not all exist gets no key. Type names resolve as in
// the provider's sessions (its search_path), as GRANT resolves them.
func (c *Client) resolveSignatures(ctx context.Context, t GrantTarget) (map[string]string, error) {
	if !isRoutine(t.ObjectType) {
		return nil, nil
	}
	type sig struct {
		name string
		args [][]string
	}
	sigs := map[string]sig{}
	var names []string
	for _, o := range t.Objects {
		name, args, ok := routineSignature(o)
		if !ok {
			continue
		}
		s := sig{name: name}
		for _, a := range args {
			cands, out := argumentTypes(a)
			if out {
				continue
			}
			s.args = append(s.args, cands)
			names = append(names, cands...)
		}
		sigs[o] = s
	}
	if len(sigs) == 0 {
		return nil, nil
	}
	oids, err := c.typeOIDs(ctx, t.Database, names)
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	for o, s := range sigs {
		var resolved []string
		for _, cands := range s.args {
			for _, cand := range cands {
				if oid := oids[cand]; oid != "" {
					resolved = append(resolved, oid)
					break
				}
			}
		}
		if len(resolved) == len(s.args) {
			keys[o] = s.name + "(" + strings.Join(resolved, ",") + ")"
		}
	}
	return keys, nil
}

// typeOIDs resolves type names (to_regtype) in database db: name -> OID as
// text, absent for a name that is no type. A name PostgreSQL cannot parse
// as a type makes to_regtype fail (before PostgreSQL 16) rather than return
// NULL: the names are then resolved one statement each, outside any
// transaction, and such a name is no type.
func (c *Client) typeOIDs(ctx context.Context, db string, names []string) (map[string]string, error) {
	out := map[string]string{}
	err := c.Read(ctx, db, func(ctx context.Context, q Querier) error {
		rows, err := q.Query(ctx, `SELECT u.n, coalesce(to_regtype(u.n)::oid, 0)::text FROM unnest($1::text[]) AS u(n)`, names)
		if err == nil {
			for rows.Next() {
				var n, oid string
				if err = rows.Scan(&n, &oid); err != nil {
					break
				}
				if oid != "0" {
					out[n] = oid
				}
			}
			rows.Close()
			if err = rows.Err(); err == nil {
				return nil
			}
		}
		if pgconn.SQLState(err) == "" {
			return err // not the server refusing a name
		}
		clear(out)
		for _, n := range names {
			var oid string
			if err := q.QueryRow(ctx, `SELECT coalesce(to_regtype($1)::oid, 0)::text`, n).Scan(&oid); err != nil {
				if pgconn.SQLState(err) == "" {
					return err
				}
				continue
			}
			if oid != "0" {
				out[n] = oid
			}
		}
		return nil
	})
	return out, err
}
