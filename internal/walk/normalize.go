package walk

import (
	"fmt"
	"slices"
	"sort"
)

// Normalize makes a configuration consistent, as a user's configuration is:
// references name resources that exist (a resource whose required reference
// is gone goes too, an optional one is mended), names are unique, two
// authoritative resources never state the same fact (one fact, one owner), a
// grantee is never the owner of what it is granted, memberships have no
// cycles. Generation and shrinking both end with it.
func Normalize(c *Config) {
	roles := map[string]bool{}
	for _, r := range c.Roles {
		roles[r.Key] = true
	}
	c.Roles = uniqueBy(c.Roles, func(r *Role) string { return r.Name })
	roles = map[string]bool{}
	for _, r := range c.Roles {
		roles[r.Key] = true
	}
	grantee := func(k string) bool { return k == Public || roles[k] }
	owner := func(k string) bool { return k == Admin || roles[k] }

	// memberships: valid, no self, one form per member, no cycles
	manages := map[string]bool{}
	for _, r := range c.Roles {
		if r.ManageRoles {
			manages[r.Key] = true
		}
		r.Roles = slices.DeleteFunc(r.Roles, func(k string) bool { return !roles[k] || k == r.Key })
		r.Roles = dedupe(r.Roles)
	}
	c.Members = slices.DeleteFunc(c.Members, func(m *Member) bool {
		return !roles[m.Role] || !roles[m.Group] || m.Role == m.Group || manages[m.Role]
	})
	c.Members = uniqueBy(c.Members, func(m *Member) string { return m.Role + "\x00" + m.Group })
	edges := map[string][]string{}
	reaches := func(from, to string) bool {
		seen := map[string]bool{}
		var walk func(string) bool
		walk = func(n string) bool {
			if n == to {
				return true
			}
			if seen[n] {
				return false
			}
			seen[n] = true
			return slices.ContainsFunc(edges[n], walk)
		}
		return walk(from)
	}
	for _, r := range c.Roles {
		r.Roles = slices.DeleteFunc(r.Roles, func(g string) bool {
			if reaches(g, r.Key) {
				return true
			}
			edges[r.Key] = append(edges[r.Key], g)
			return false
		})
	}
	c.Members = slices.DeleteFunc(c.Members, func(m *Member) bool {
		if reaches(m.Group, m.Role) {
			return true
		}
		edges[m.Role] = append(edges[m.Role], m.Group)
		return false
	})

	// databases
	c.Databases = uniqueBy(c.Databases, func(d *Database) string { return d.Name })
	dbs := map[string]*Database{"": {Owner: Admin}}
	for _, d := range c.Databases {
		if !owner(d.Owner) {
			d.Owner = Admin
		}
		dbs[d.Key] = d
	}

	// schemas
	c.Schemas = slices.DeleteFunc(c.Schemas, func(s *Schema) bool { return dbs[s.DB] == nil })
	c.Schemas = uniqueBy(c.Schemas, func(s *Schema) string { return s.Name })
	schemas := map[string]*Schema{}
	for _, s := range c.Schemas {
		if !owner(s.Owner) {
			s.Owner = Admin
		}
		s.Policies = slices.DeleteFunc(s.Policies, func(p SchemaPolicy) bool { return !grantee(p.Role) || p.Role == s.Owner })
		for i := range s.Policies {
			if s.Policies[i].Role == Public {
				s.Policies[i].UsageWG, s.Policies[i].CreateWG = false, false
			}
		}
		schemas[s.Key] = s
	}
	sameDB := func(schema, db string) bool {
		if schema == FixtureSchema {
			return db == ""
		}
		s := schemas[schema]
		return s != nil && s.DB == db
	}

	// functions
	c.Functions = slices.DeleteFunc(c.Functions, func(f *Function) bool { return schemas[f.Schema] == nil })
	c.Functions = uniqueBy(c.Functions, func(f *Function) string { return f.Name })
	functions := map[string]*Function{}
	for _, f := range c.Functions {
		functions[f.Key] = f
	}

	// extensions
	c.Extensions = slices.DeleteFunc(c.Extensions, func(e *Extension) bool { return dbs[e.DB] == nil })
	for _, e := range c.Extensions {
		if e.Schema != "" && !sameDB(e.Schema, e.DB) {
			e.Schema = ""
		}
	}
	c.Extensions = uniqueBy(c.Extensions, func(e *Extension) string { return e.DB + "\x00" + e.Name })

	// object owners (before grants: a grantee is not the owner)
	c.Owners = slices.DeleteFunc(c.Owners, func(o *ObjectOwner) bool { return !roles[o.Owner] })
	c.Owners = uniqueBy(c.Owners, func(o *ObjectOwner) string { return o.Type + "\x00" + o.Object })
	objectOwner := map[string]string{}
	for _, o := range c.Owners {
		objectOwner[o.Type+"\x00"+o.Object] = o.Owner
	}

	// grants
	policyRoles := map[string]bool{} // schema key + grantee: stated by a policy block
	for _, s := range c.Schemas {
		for _, p := range s.Policies {
			policyRoles[s.Key+"\x00"+p.Role] = true
		}
	}
	c.Grants = slices.DeleteFunc(c.Grants, func(g *Grant) bool {
		if !grantee(g.Role) || dbs[g.DB] == nil {
			return true
		}
		if g.Role == Public {
			g.WGO = false
		}
		g.Privs = dedupe(g.Privs)
		switch g.Type {
		case "database":
			g.Schema, g.Objects = "", nil
			return g.Role == dbs[g.DB].Owner
		case "schema":
			g.Objects = nil
			return !sameDB(g.Schema, g.DB) || g.Schema == FixtureSchema || g.Role == schemas[g.Schema].Owner || policyRoles[g.Schema+"\x00"+g.Role]
		case "table", "sequence":
			if !sameDB(g.Schema, g.DB) {
				return true
			}
			if g.Schema != FixtureSchema {
				g.Objects = nil
			}
			all := FixtureTables
			if g.Type == "sequence" {
				all = FixtureSequences
			}
			if g.Schema == FixtureSchema {
				for _, o := range all {
					if (len(g.Objects) == 0 || slices.Contains(g.Objects, o)) && objectOwner[g.Type+"\x00"+o] == g.Role {
						return true
					}
				}
			}
			return false
		case "function":
			if !sameDB(g.Schema, g.DB) || g.Schema == FixtureSchema {
				return true
			}
			g.Objects = slices.DeleteFunc(g.Objects, func(k string) bool { return functions[k] == nil || functions[k].Schema != g.Schema })
			return false
		}
		return true
	})
	c.Grants = oneOwnerOfEachPrivilege(c.Grants, func(g *Grant) (string, bool, string, *[]string) {
		return g.Role + "\x00" + g.DB + "\x00" + g.Type + "\x00" + g.Schema, g.Additive, g.Role, &g.Privs
	})
	// an extension is not put in a schema a grant covers all the functions
	// of: created in either order at -parallelism 20, its functions were
	// or were not the grant's, and the next plan showed the difference (the
	// walk, seed 3 step 1; a user orders them with depends_on)
	for _, e := range c.Extensions {
		if e.Schema != "" && slices.ContainsFunc(c.Grants, func(g *Grant) bool {
			return g.Type == "function" && g.Schema == e.Schema && len(g.Objects) == 0
		}) {
			e.Schema = ""
		}
	}

	// default privileges
	c.DefaultPrivs = slices.DeleteFunc(c.DefaultPrivs, func(d *DefaultPriv) bool {
		if !roles[d.Owner] || !grantee(d.Role) || d.Role == d.Owner || dbs[d.DB] == nil {
			return true
		}
		if d.Role == Public {
			d.WGO = false
		}
		d.Privs = dedupe(d.Privs)
		if d.Schema != "" && (d.Type == "schema" || !sameDB(d.Schema, d.DB)) {
			d.Schema = ""
		}
		return false
	})
	c.DefaultPrivs = oneOwnerOfEachPrivilege(c.DefaultPrivs, func(d *DefaultPriv) (string, bool, string, *[]string) {
		return d.Owner + "\x00" + d.Role + "\x00" + d.DB + "\x00" + d.Schema + "\x00" + d.Type, d.Additive, d.Role, &d.Privs
	})

	// settings
	c.RoleSettings = slices.DeleteFunc(c.RoleSettings, func(s *RoleSetting) bool {
		return !roles[s.Role] || (s.DB != AllDatabases && dbs[s.DB] == nil)
	})
	c.RoleSettings = uniqueBy(c.RoleSettings, func(s *RoleSetting) string { return s.Role + "\x00" + s.Param + "\x00" + s.DB })
	c.DBSettings = slices.DeleteFunc(c.DBSettings, func(s *DBSetting) bool {
		return dbs[s.DB] == nil || (s.Role != "" && !roles[s.Role])
	})
	c.DBSettings = uniqueBy(c.DBSettings, func(s *DBSetting) string { return s.DB + "\x00" + s.Param + "\x00" + s.Role })

	// publications
	c.Publications = uniqueBy(c.Publications, func(p *Publication) string { return p.Name })
	for _, p := range c.Publications {
		p.Tables = dedupe(p.Tables)
		sort.Strings(p.Tables)
	}

	// comments
	c.Comments = slices.DeleteFunc(c.Comments, func(cm *Comment) bool {
		switch cm.Kind {
		case "role":
			return !roles[cm.Target]
		case "database":
			return dbs[cm.Target] == nil || cm.Target == ""
		case "schema":
			return schemas[cm.Target] == nil
		case "function":
			return functions[cm.Target] == nil
		}
		return true
	})
	c.Comments = uniqueBy(c.Comments, func(cm *Comment) string { return cm.Kind + "\x00" + cm.Target })

	// row-level security and policies
	c.TableRLS = uniqueBy(c.TableRLS, func(t *TableRLS) string { return t.Table })
	for _, p := range c.Policies {
		p.Roles = dedupe(slices.DeleteFunc(p.Roles, func(k string) bool { return !grantee(k) }))
		if len(p.Roles) == 0 || slices.Contains(p.Roles, Public) {
			p.Roles = []string{Public}
		}
	}
	c.Policies = uniqueBy(c.Policies, func(p *Policy) string { return p.Name })
}

// uniqueBy keeps the first element of each key.
func uniqueBy[T any](s []T, key func(T) string) []T {
	seen := map[string]bool{}
	return slices.DeleteFunc(s, func(x T) bool {
		k := key(x)
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// oneOwnerOfEachPrivilege keeps one authoritative resource per key (the
// first), and additive ones (never to PUBLIC) only on keys no authoritative
// resource has, each privilege in one of them (two that give the same
// privilege share it, as documented: destroying one takes it from both).
// of returns a resource's key, whether it is additive, its grantee and its
// privileges (trimmed in place).
func oneOwnerOfEachPrivilege[T any](s []T, of func(T) (key string, additive bool, grantee string, privs *[]string)) []T {
	s = uniqueBy(s, func(x T) string {
		k, additive, _, _ := of(x)
		if additive {
			return fmt.Sprintf("+%p", any(x))
		}
		return k
	})
	authoritative := map[string]bool{}
	for _, x := range s {
		if k, additive, _, _ := of(x); !additive {
			authoritative[k] = true
		}
	}
	given := map[string][]string{}
	return slices.DeleteFunc(s, func(x T) bool {
		k, additive, grantee, privs := of(x)
		if !additive {
			return false
		}
		if grantee == Public || authoritative[k] {
			return true
		}
		*privs = disjoint(*privs, given[k])
		given[k] = append(given[k], *privs...)
		return len(*privs) == 0
	})
}

// disjoint is privs without those given already (none when either has ALL).
func disjoint(privs, given []string) []string {
	if len(given) > 0 && (slices.Contains(privs, "ALL") || slices.Contains(given, "ALL")) {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(privs), func(p string) bool { return slices.Contains(given, p) })
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Validate reports the first inconsistency Normalize would mend (tests of
// the generator).
func Validate(c *Config) error {
	n := c.Clone()
	Normalize(n)
	if !n.Equal(c) {
		return fmt.Errorf("configuration is not normalized:\n%s\nnormalized:\n%s", c.JSON(), n.JSON())
	}
	return nil
}
