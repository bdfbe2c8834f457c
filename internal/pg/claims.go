package pg

import (
	"strings"
	"sync"
)

// Facts moved between addresses in one apply.
//
// A fact that a resource states (a grant, default privileges, a membership, a
// setting, a comment, row-level security) can move to another address in one
// apply: a resource moved into a module without a `moved` block, a grant split
// off another, a replacement with create_before_destroy. Terraform then
// destroys the old address and creates the new one in no particular order, so
// the revoke of the old one could run after the grant of the new one and take
// away what the configuration says (an "inconsistent result after apply", or
// a plan that is never empty again; found by the random walk of internal/walk).
//
// One apply is one provider instance (a Configure, a client view): the
// resources that state a fact Claim it while they write it, and a resource
// that takes a fact away Retracts it first. A retraction and a claim of the
// same fact run one after the other; a retraction learns which parts of the
// fact a resource of this apply has claimed, and leaves them alone (the
// claiming resource is authoritative over them: it has set, or will set,
// exactly what the configuration says). A retraction before any claim does
// its whole work, and the claim after it writes the fact again.
type claims struct {
	mu    sync.Mutex
	facts map[string]*claimedFact
}

type claimedFact struct {
	mu    sync.Mutex // held while a claim or a retraction writes
	parts map[string]bool
}

// ClaimAll is the part that stands for the whole fact (every object of a
// grant on all objects of a type in a schema, or a fact without parts).
const ClaimAll = "*"

func (cs *claims) fact(key string) *claimedFact {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.facts == nil {
		cs.facts = map[string]*claimedFact{}
	}
	f := cs.facts[key]
	if f == nil {
		f = &claimedFact{parts: map[string]bool{}}
		cs.facts[key] = f
	}
	return f
}

// FactKey is the key of a fact: its kind and the names that identify it.
func FactKey(kind string, names ...string) string {
	return kind + "\x00" + strings.Join(names, "\x00")
}

// Claim records that a resource of this apply states the fact key (parts:
// the objects it covers; none: ClaimAll) and holds it until release is
// called, after the write.
func (c *Client) Claim(key string, parts ...string) (release func()) {
	if c.claims == nil {
		return func() {}
	}
	f := c.claims.fact(key)
	f.mu.Lock()
	if len(parts) == 0 {
		parts = []string{ClaimAll}
	}
	for _, p := range parts {
		f.parts[p] = true
	}
	return f.mu.Unlock
}

// Retract holds the fact key until release is called, after the revoke, and
// returns the parts a resource of this apply claimed (empty: none; ClaimAll:
// the whole fact), which the revoke must leave alone.
func (c *Client) Retract(key string) (claimed map[string]bool, release func()) {
	return c.ClaimRetract(key)
}

// snapshot copies the parts claimed so far (f.mu held).
func (f *claimedFact) snapshot() map[string]bool {
	claimed := make(map[string]bool, len(f.parts))
	for p := range f.parts {
		claimed[p] = true
	}
	return claimed
}

// grantee is a grantee's name in fact keys: PUBLIC in any letter case is one.
func granteeKey(g string) string {
	if IsPublic(g) {
		return PublicGrantee
	}
	return g
}

// FactKey is the fact of default privileges: one entry of pg_default_acl for
// one grantee (functions and routines are one kind of entry).
func (t DefaultPrivilegesTarget) FactKey() string {
	typ := t.ObjectType
	if typ == ObjRoutine {
		typ = ObjFunction
	}
	return FactKey("default_privileges", t.Database, t.Owner, t.Schema, typ, granteeKey(t.Grantee))
}

// FactKey is the fact of a grant, without its objects (the parts of the
// fact: Claim them one by one).
func (t GrantTarget) FactKey() string {
	return FactKey("grant", t.Database, t.Schema, t.ObjectType, granteeKey(t.Grantee))
}

// FactParts are the parts of a grant's fact that Claim records: its objects
// (with their columns for a column grant), or ClaimAll for every object of
// the type in the schema, or for an object type without objects.
func (t GrantTarget) FactParts() []string {
	if len(t.Objects) == 0 {
		return []string{ClaimAll}
	}
	var out []string
	for _, o := range t.Objects {
		if len(t.Columns) > 0 {
			for _, c := range t.Columns {
				out = append(out, o+"\x00"+c)
			}
			continue
		}
		out = append(out, o)
	}
	return out
}

// MembershipFactKey is the fact of role's membership in group, whichever
// resource states it (postgresql_grant_role, or the role's `roles`).
func MembershipFactKey(role, group string) string {
	return FactKey("membership", role, group)
}

// SettingFactKey is the fact of a setting of role (""; every role) in
// database db (""; every database), whichever resource states it
// (postgresql_role_setting, postgresql_database_setting).
func SettingFactKey(role, db, parameter string) string {
	return FactKey("setting", role, db, strings.ToLower(parameter))
}

// Additive claims. An additive resource (postgresql_grant_additive,
// postgresql_default_privileges_additive) states privileges on a fact, not
// the whole of it: it claims each of its privileges on each part, and a
// retraction of the fact by another resource of the apply (the authoritative
// resource it replaces, or an additive one that gave the same privilege)
// revokes what it must except those privileges (and their grant option,
// when the claim asked for it).

const (
	additiveMark = "\x01"
	grantOptMark = "\x01+"
)

// AdditiveParts are the parts an additive resource claims: each privilege
// of privs on each of parts (ClaimAll when there are none), marked with the
// grant option when withGrantOption.
func AdditiveParts(parts, privs []string, withGrantOption bool) []string {
	if len(parts) == 0 {
		parts = []string{ClaimAll}
	}
	var out []string
	for _, p := range parts {
		for _, priv := range privs {
			s := p + additiveMark + priv
			if withGrantOption {
				s += grantOptMark
			}
			out = append(out, s)
		}
	}
	return out
}

// ClaimedPrivileges splits the parts a retraction learnt of: whole are those
// authoritative resources claimed (objects, columns or ClaimAll), privs the
// privileges additive ones claimed, per part (true: with the grant option).
func ClaimedPrivileges(claimed map[string]bool) (whole map[string]bool, privs map[string]map[string]bool) {
	whole, privs = map[string]bool{}, map[string]map[string]bool{}
	for c := range claimed {
		part, priv, ok := strings.Cut(c, additiveMark)
		if !ok {
			whole[c] = true
			continue
		}
		priv, wgo := strings.CutSuffix(priv, grantOptMark)
		if privs[part] == nil {
			privs[part] = map[string]bool{}
		}
		privs[part][priv] = privs[part][priv] || wgo
	}
	return whole, privs
}

// ClaimRetract claims parts of key and retracts it in one step, for a
// resource that both states part of a fact and takes another part of it
// away (an additive resource that drops a privilege): claimed are the parts
// other resources of this apply claimed before.
func (c *Client) ClaimRetract(key string, parts ...string) (claimed map[string]bool, release func()) {
	if c.claims == nil {
		return nil, func() {}
	}
	f := c.claims.fact(key)
	f.mu.Lock()
	claimed = f.snapshot()
	for _, p := range parts {
		f.parts[p] = true
	}
	return claimed, f.mu.Unlock
}

// ClaimMove claims parts of key and retracts from, for a resource that moves
// a fact to another grantee, database or schema: both are held until release,
// taken in one order whatever the keys, so that two resources of one apply
// moving facts between the same two keys in opposite directions (two grants
// exchanging their grantees) do not wait for each other forever.
func (c *Client) ClaimMove(key string, parts []string, from string) (claimed map[string]bool, release func()) {
	if c.claims == nil {
		return nil, func() {}
	}
	if key == from {
		return c.ClaimRetract(key, parts...)
	}
	if len(parts) == 0 {
		parts = []string{ClaimAll}
	}
	to, old := c.claims.fact(key), c.claims.fact(from)
	first, second := to, old
	if from < key {
		first, second = old, to
	}
	first.mu.Lock()
	second.mu.Lock()
	claimed = old.snapshot()
	for _, p := range parts {
		to.parts[p] = true
	}
	return claimed, func() {
		second.mu.Unlock()
		first.mu.Unlock()
	}
}
