package walk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Drift is a change made outside Terraform, by SQL as the superuser, to the
// objects of a configuration that was applied: the next step's apply must
// repair it (or, for what the configuration does not manage, live with it).
type Drift struct {
	// Op is what is done: revoke, extra, unmember, member, dbowner,
	// schemaowner, dropfunc, dropschema, setting, rls, droppolicy,
	// tableowner, comment, defpriv, droprole, renamerole, roleattr.
	Op string `json:"op"`
	// Key is the resource the change is made to.
	Key string `json:"key"`
	// Arg is the op's argument: a role key (a new owner or group), a value.
	Arg string `json:"arg,omitempty"`
}

func (d Drift) String() string {
	if d.Arg != "" {
		return fmt.Sprintf("%s %s %s", d.Op, d.Key, d.Arg)
	}
	return d.Op + " " + d.Key
}

// Stmt is one statement run as the superuser in database DB (a server name).
type Stmt struct {
	DB  string `json:"db"`
	SQL string `json:"sql"`
}

// DriftFor is Drift(prev) without a function dropped in a schema that a
// grant on all its functions covers in prev or next: the step creates the
// function again, before or after the grant was read or applied, and the
// next plan grants it (a function created later, as documented; the rule
// of keepNewFunctionsOutOfAllFunctionGrants; the walk, seed 10509 step 15
// as the managed admin on PostgreSQL 18).
func (g *Gen) DriftFor(prev, next *Config) []Drift {
	covered := func(schema string) bool {
		return slices.ContainsFunc([]*Config{prev, next}, func(x *Config) bool {
			return slices.ContainsFunc(x.Grants, func(gr *Grant) bool { return gr.Type == "function" && len(gr.Objects) == 0 && gr.Schema == schema })
		})
	}
	return slices.DeleteFunc(g.Drift(prev), func(d Drift) bool {
		if d.Op != "dropfunc" {
			return false
		}
		f, n := find(prev.Functions, d.Key, func(x *Function) string { return x.Key }), find(next.Functions, d.Key, func(x *Function) string { return x.Key })
		return f != nil && covered(f.Schema) || n != nil && covered(n.Schema)
	})
}

// Drift picks zero to two changes to make outside Terraform to the objects
// of c (the configuration last applied).
func (g *Gen) Drift(c *Config) []Drift {
	var cands []Drift
	for _, gr := range c.Grants {
		if gr.Role != Public && (gr.Type != "table" && gr.Type != "sequence" || gr.Schema == FixtureSchema) {
			cands = append(cands, Drift{Op: "revoke", Key: gr.Key})
		}
		if gr.Role != Public && !gr.Additive && gr.Type == "table" && gr.Schema == FixtureSchema && !slices.Contains(gr.Privs, "ALL") && !slices.Contains(gr.Privs, "TRUNCATE") {
			cands = append(cands, Drift{Op: "extra", Key: gr.Key})
		}
	}
	for _, r := range c.Roles {
		if r.ManageRoles && len(r.Roles) > 0 {
			cands = append(cands, Drift{Op: "unmember", Key: r.Key, Arg: pick(g, r.Roles)})
		}
		if r.ManageRoles {
			for _, o := range c.Roles {
				if o.Key != r.Key && !slices.Contains(r.Roles, o.Key) && !memberOf(c, o.Key, r.Key) {
					cands = append(cands, Drift{Op: "member", Key: r.Key, Arg: o.Key})
					break
				}
			}
		}
		cands = append(cands, Drift{Op: "roleattr", Key: r.Key})
		if !ownsSomething(c, r.Key) {
			cands = append(cands, Drift{Op: "droprole", Key: r.Key})
		}
		cands = append(cands, Drift{Op: "renamerole", Key: r.Key})
	}
	for _, m := range c.Members {
		cands = append(cands, Drift{Op: "unmember", Key: m.Key})
	}
	// a grant on the database or schema to the role it is given to (AvoidGiveTableToItsGrantee)
	givenToGrantee := func(typ, key, to string) bool {
		return g.sw.AvoidGiveTableToItsGrantee && slices.ContainsFunc(c.Grants, func(gr *Grant) bool {
			return gr.Role == to && gr.Type == typ && (typ == "database" && gr.DB == key || typ == "schema" && gr.Schema == key)
		})
	}
	for _, d := range c.Databases {
		if to := g.otherOwner(c, d.Owner); !givenToGrantee("database", d.Key, to) {
			cands = append(cands, Drift{Op: "dbowner", Key: d.Key, Arg: to})
		}
	}
	for _, s := range c.Schemas {
		if to := g.otherOwner(c, s.Owner); !givenToGrantee("schema", s.Key, to) {
			cands = append(cands, Drift{Op: "schemaowner", Key: s.Key, Arg: to})
		}
		cands = append(cands, Drift{Op: "dropschema", Key: s.Key})
	}
	for _, f := range c.Functions {
		cands = append(cands, Drift{Op: "dropfunc", Key: f.Key})
	}
	for _, s := range c.RoleSettings {
		cands = append(cands, Drift{Op: "setting", Key: s.Key, Arg: g.settingValue(s.Param)})
	}
	for _, s := range c.DBSettings {
		cands = append(cands, Drift{Op: "setting", Key: s.Key, Arg: g.settingValue(s.Param)})
	}
	for _, t := range c.TableRLS {
		cands = append(cands, Drift{Op: "rls", Key: t.Key})
	}
	for _, p := range c.Policies {
		cands = append(cands, Drift{Op: "droppolicy", Key: p.Key})
	}
	for _, o := range c.Owners {
		to := g.otherOwner(c, o.Owner)
		if g.sw.AvoidGiveTableToItsGrantee && slices.ContainsFunc(c.Grants, func(gr *Grant) bool {
			return gr.Role == to && gr.Type == o.Type && gr.Schema == FixtureSchema && (len(gr.Objects) == 0 || slices.Contains(gr.Objects, o.Object))
		}) {
			continue
		}
		cands = append(cands, Drift{Op: "tableowner", Key: o.Key, Arg: to})
	}
	for _, cm := range c.Comments {
		cands = append(cands, Drift{Op: "comment", Key: cm.Key})
	}
	for _, d := range c.DefaultPrivs {
		if d.Role != Public && len(d.Privs) > 0 {
			cands = append(cands, Drift{Op: "defpriv", Key: d.Key})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	n := 1 + g.r.IntN(2)
	var out []Drift
	for range n {
		d := pick(g, cands)
		// two memberships granted in one step may not make a cycle (each
		// was checked against c alone: seed 18508 step 8 as the managed
		// admin on PostgreSQL 18 granted bob to frank and frank to bob)
		if !slices.ContainsFunc(out, func(o Drift) bool {
			return o.Key == d.Key || o.Op == "member" && d.Op == "member" && o.Key == d.Arg && o.Arg == d.Key
		}) {
			out = append(out, d)
		}
	}
	// a dropped or renamed object takes what is in it or names it along:
	// nothing else is done in the same step
	if i := slices.IndexFunc(out, func(d Drift) bool {
		return d.Op == "droprole" || d.Op == "renamerole" || d.Op == "dropschema"
	}); i >= 0 {
		out = []Drift{out[i]}
	}
	return out
}

// memberOf says whether role is (directly or not) a member of group in c.
func memberOf(c *Config, role, group string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(r string) bool {
		if r == group {
			return true
		}
		if seen[r] {
			return false
		}
		seen[r] = true
		if x := c.Role(r); x != nil && slices.ContainsFunc(x.Roles, walk) {
			return true
		}
		for _, m := range c.Members {
			if m.Role == r && walk(m.Group) {
				return true
			}
		}
		return false
	}
	return walk(role)
}

// ownsSomething says whether the configuration makes role own an object.
func ownsSomething(c *Config, role string) bool {
	for _, d := range c.Databases {
		if d.Owner == role {
			return true
		}
	}
	for _, s := range c.Schemas {
		if s.Owner == role {
			return true
		}
	}
	for _, o := range c.Owners {
		if o.Owner == role {
			return true
		}
	}
	for _, d := range c.DefaultPrivs {
		if d.Owner == role {
			return true
		}
	}
	return false
}

func (g *Gen) otherOwner(c *Config, current string) string {
	var cands []string
	if current != Admin {
		cands = append(cands, Admin)
	}
	for _, r := range c.Roles {
		if r.Key != current {
			cands = append(cands, r.Key)
		}
	}
	if len(cands) == 0 {
		return Admin
	}
	return pick(g, cands)
}

// names renders server names for drift and checks.
type names struct {
	c *Config
	e Env
}

func qi(s string) string { return pgx.Identifier{s}.Sanitize() }

func (n names) role(key string) string {
	switch key {
	case Admin:
		return qi(n.e.Admin)
	case Public:
		return "PUBLIC"
	}
	return qi(n.roleName(key))
}

func (n names) roleName(key string) string {
	switch key {
	case Admin:
		return n.e.Admin
	case Public:
		return "PUBLIC"
	}
	if r := n.c.Role(key); r != nil {
		return n.e.Name(r.Name)
	}
	return "?" + key
}

func (n names) dbName(key string) string {
	if key == "" {
		return n.e.BaseDB()
	}
	if d := n.c.Database(key); d != nil {
		return n.e.Name(d.Name)
	}
	return "?" + key
}

func (n names) schemaName(key string) string {
	if key == FixtureSchema {
		return FixtureSchema
	}
	if s := n.c.Schema(key); s != nil {
		return n.e.Name(s.Name)
	}
	return "?" + key
}

func (n names) schemaDBName(key string) string {
	db, _ := n.c.schemaDB(key)
	return n.dbName(db)
}

func (n names) function(key string) (db, sig string) {
	f := n.c.Function(key)
	v := functionVariants[f.Variant%len(functionVariants)]
	return n.schemaDBName(f.Schema), qi(n.schemaName(f.Schema)) + "." + qi(n.e.Name(f.Name)) + "(" + v.arg + ")"
}

// DriftSQL is the SQL that makes d on the objects of c.
func DriftSQL(d Drift, c *Config, e Env) ([]Stmt, error) {
	n := names{c, e}
	switch d.Op {
	case "revoke":
		gr := find(c.Grants, d.Key, func(x *Grant) string { return x.Key })
		if gr == nil {
			break
		}
		db, role := n.dbName(gr.DB), n.role(gr.Role)
		switch gr.Type {
		case "database":
			return []Stmt{{"postgres", "REVOKE ALL ON DATABASE " + qi(db) + " FROM " + role}}, nil
		case "schema":
			return []Stmt{{db, "REVOKE ALL ON SCHEMA " + qi(n.schemaName(gr.Schema)) + " FROM " + role}}, nil
		case "table", "sequence":
			what := "ALL " + strings.ToUpper(gr.Type) + "S IN SCHEMA " + qi(FixtureSchema)
			if len(gr.Objects) > 0 {
				var objs []string
				for _, o := range gr.Objects {
					objs = append(objs, qi(FixtureSchema)+"."+qi(o))
				}
				what = strings.ToUpper(gr.Type) + " " + strings.Join(objs, ", ")
			}
			return []Stmt{{db, "REVOKE ALL ON " + what + " FROM " + role}}, nil
		case "function":
			return []Stmt{{db, "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA " + qi(n.schemaName(gr.Schema)) + " FROM " + role}}, nil
		}
	case "extra":
		gr := find(c.Grants, d.Key, func(x *Grant) string { return x.Key })
		if gr == nil {
			break
		}
		what := "ALL TABLES IN SCHEMA " + qi(FixtureSchema)
		if len(gr.Objects) > 0 {
			what = "TABLE " + qi(FixtureSchema) + "." + qi(gr.Objects[0])
		}
		return []Stmt{{n.dbName(gr.DB), "GRANT TRUNCATE ON " + what + " TO " + n.role(gr.Role)}}, nil
	case "unmember":
		if m := find(c.Members, d.Key, func(x *Member) string { return x.Key }); m != nil {
			return []Stmt{{"postgres", "REVOKE " + n.role(m.Group) + " FROM " + n.role(m.Role)}}, nil
		}
		return []Stmt{{"postgres", "REVOKE " + n.role(d.Arg) + " FROM " + n.role(d.Key)}}, nil
	case "member":
		// as a managed admin on PostgreSQL 16 and later the provider cannot
		// revoke a membership the superuser granted (it has not the
		// superuser's privileges; the apply says so,
		// TestAccRole_regressionMembershipGrantedByAnother): the outsider
		// grants it as the admin, as a DBA sharing its role would
		stmt := "GRANT " + n.role(d.Arg) + " TO " + n.role(d.Key)
		if e.Managed {
			stmt += " GRANTED BY " + qi(e.Admin)
		}
		return []Stmt{{"postgres", stmt}}, nil
	case "roleattr":
		r := c.Role(d.Key)
		attr := "LOGIN"
		if r.Login {
			attr = "NOLOGIN"
		}
		return []Stmt{{"postgres", "ALTER ROLE " + n.role(d.Key) + " " + attr + " CONNECTION LIMIT 7"}}, nil
	case "droprole":
		var out []Stmt
		for _, db := range append([]string{"postgres", e.BaseDB()}, dbNames(n)...) {
			out = append(out, Stmt{db, "REASSIGN OWNED BY " + n.role(d.Key) + " TO " + qi(e.Admin)}, Stmt{db, "DROP OWNED BY " + n.role(d.Key)})
		}
		return append(out, Stmt{"postgres", "DROP ROLE " + n.role(d.Key)}), nil
	case "renamerole":
		return []Stmt{{"postgres", "ALTER ROLE " + n.role(d.Key) + " RENAME TO " + qi(n.roleName(d.Key)+"-moved")}}, nil
	case "dbowner":
		return []Stmt{{"postgres", "ALTER DATABASE " + qi(n.dbName(d.Key)) + " OWNER TO " + n.role(d.Arg)}}, nil
	case "schemaowner":
		return []Stmt{{n.schemaDBName(d.Key), "ALTER SCHEMA " + qi(n.schemaName(d.Key)) + " OWNER TO " + n.role(d.Arg)}}, nil
	case "dropschema":
		return []Stmt{{n.schemaDBName(d.Key), "DROP SCHEMA " + qi(n.schemaName(d.Key)) + " CASCADE"}}, nil
	case "dropfunc":
		db, sig := n.function(d.Key)
		return []Stmt{{db, "DROP FUNCTION " + sig}}, nil
	case "setting":
		if s := find(c.RoleSettings, d.Key, func(x *RoleSetting) string { return x.Key }); s != nil {
			in := ""
			if s.DB != AllDatabases {
				in = " IN DATABASE " + qi(n.dbName(s.DB))
			}
			return []Stmt{{"postgres", "ALTER ROLE " + n.role(s.Role) + in + " SET " + s.Param + " = " + quoteLiteral(d.Arg)}}, nil
		}
		if s := find(c.DBSettings, d.Key, func(x *DBSetting) string { return x.Key }); s != nil {
			if s.Role != "" {
				return []Stmt{{"postgres", "ALTER ROLE " + n.role(s.Role) + " IN DATABASE " + qi(n.dbName(s.DB)) + " SET " + s.Param + " = " + quoteLiteral(d.Arg)}}, nil
			}
			return []Stmt{{"postgres", "ALTER DATABASE " + qi(n.dbName(s.DB)) + " SET " + s.Param + " = " + quoteLiteral(d.Arg)}}, nil
		}
	case "rls":
		t := find(c.TableRLS, d.Key, func(x *TableRLS) string { return x.Key })
		what := "DISABLE"
		if !t.Enabled {
			what = "ENABLE"
		}
		return []Stmt{{e.BaseDB(), "ALTER TABLE " + qi(FixtureSchema) + "." + qi(t.Table) + " " + what + " ROW LEVEL SECURITY"}}, nil
	case "droppolicy":
		p := find(c.Policies, d.Key, func(x *Policy) string { return x.Key })
		return []Stmt{{e.BaseDB(), "DROP POLICY " + qi(e.Name(p.Name)) + " ON " + qi(FixtureSchema) + "." + qi(p.Table)}}, nil
	case "tableowner":
		o := find(c.Owners, d.Key, func(x *ObjectOwner) string { return x.Key })
		return []Stmt{{e.BaseDB(), "ALTER " + strings.ToUpper(o.Type) + " " + qi(FixtureSchema) + "." + qi(o.Object) + " OWNER TO " + n.role(d.Arg)}}, nil
	case "comment":
		cm := find(c.Comments, d.Key, func(x *Comment) string { return x.Key })
		switch cm.Kind {
		case "role":
			return []Stmt{{"postgres", "COMMENT ON ROLE " + n.role(cm.Target) + " IS 'drifted'"}}, nil
		case "database":
			return []Stmt{{"postgres", "COMMENT ON DATABASE " + qi(n.dbName(cm.Target)) + " IS 'drifted'"}}, nil
		case "schema":
			return []Stmt{{n.schemaDBName(cm.Target), "COMMENT ON SCHEMA " + qi(n.schemaName(cm.Target)) + " IS 'drifted'"}}, nil
		case "function":
			db, sig := n.function(cm.Target)
			return []Stmt{{db, "COMMENT ON FUNCTION " + sig + " IS 'drifted'"}}, nil
		}
	case "defpriv":
		dp := find(c.DefaultPrivs, d.Key, func(x *DefaultPriv) string { return x.Key })
		in := ""
		if dp.Schema != "" {
			in = " IN SCHEMA " + qi(n.schemaName(dp.Schema))
		}
		return []Stmt{{n.dbName(dp.DB), "ALTER DEFAULT PRIVILEGES FOR ROLE " + n.role(dp.Owner) + in + " REVOKE ALL ON " +
			defaultPrivObjects[dp.Type] + " FROM " + n.role(dp.Role)}}, nil
	}
	return nil, fmt.Errorf("drift %s: nothing to do it to", d)
}

var defaultPrivObjects = map[string]string{
	"table": "TABLES", "sequence": "SEQUENCES", "function": "FUNCTIONS", "type": "TYPES", "schema": "SCHEMAS",
}

func dbNames(n names) []string {
	var out []string
	for _, d := range n.c.Databases {
		out = append(out, n.e.Name(d.Name))
	}
	return out
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
