package provider

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// One fact, one owner: no fact of the server may be managed by two
// resources of one configuration, or each undoes the other's change (or
// revokes what the other grants). checkOneOwner finds the facts a
// configuration's resources own (what they set, as the plan's configuration
// shows it) and reports every fact owned twice: two resources of one type
// and identity, a membership in a role's `roles` and in a
// postgresql_grant_role, a role's setting in postgresql_role, a
// postgresql_role_setting and a postgresql_database_setting, a privilege in
// two postgresql_grant (an all-objects grant covers every object of its
// schema) or in a schema's `policy`, an owner in an object's resource and in
// a postgresql_object_owner.

// aclFact is one grantee's privileges on one object (Object "*": every
// object of the class in the schema).
type aclFact struct {
	db, class, schema, object, grantee string
}

// grantClasses are the kinds of object behind postgresql_grant's object
// types, where they are not the object type itself: a routine grant covers
// functions (with aggregates and window functions) and procedures, a domain
// is a type.
var grantClasses = map[string][]string{
	pg.ObjRoutine: {pg.ObjFunction, pg.ObjProcedure}, pg.ObjDomain: {pg.ObjType},
}

// identityAttributes are the identity attributes of every resource type.
func identityAttributes() map[string][]string {
	out := map[string][]string{}
	ctx := context.Background()
	for _, f := range (&pgProvider{}).Resources(ctx) {
		r := f()
		var resp resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "postgresql"}, &resp)
		if id, ok := r.(tfkit.Identified); ok {
			out[resp.TypeName] = id.IdentityAttributes()
		}
	}
	return out
}

// checkOneOwner reports the facts two resources of configured own;
// defaultDB is the provider's database.
func checkOneOwner(configured map[string]acctest.ConfiguredResource, defaultDB string) error {
	ids := identityAttributes()
	owners := map[string][]string{}
	acls := map[aclFact][]string{}
	str := func(v map[string]any, k string) string {
		s, _ := v[k].(string)
		return s
	}
	strs := func(v map[string]any, k string) []string {
		var out []string
		l, _ := v[k].([]any)
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		return out
	}
	addrs := make([]string, 0, len(configured))
	for a := range configured {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		r := configured[addr]
		v := r.Values
		own := func(fact string) { owners[fact] = append(owners[fact], addr) }
		db := str(v, "database")
		if db == "" {
			db = defaultDB
		}
		// the object itself: its type and identity
		var id []string
		for _, a := range ids[r.Type] {
			switch x := v[a].(type) {
			case string:
				id = append(id, a+"="+x)
			case []any:
				id = append(id, a+"="+strings.Join(strs(v, a), ","))
			default:
				if a == "database" && r.Type != "postgresql_role_setting" {
					id = append(id, a+"="+defaultDB)
				}
			}
		}
		if r.Type == "postgresql_function" { // its identity is its computed id: the names and argument types
			id = []string{"database=" + db, "schema=" + str(v, "schema"), "name=" + str(v, "name")}
			if args, ok := v["arg"].([]any); ok {
				for _, a := range args {
					if m, _ := a.(map[string]any); !strings.EqualFold(str(m, "mode"), "OUT") {
						id = append(id, "arg="+str(m, "type"))
					}
				}
			}
		}
		own(r.Type + "{" + strings.Join(id, " ") + "}")
		setting := func(role, database, parameter string) {
			own(fmt.Sprintf("setting of role %q in database %q: %s", role, database, parameter))
		}
		owner := func(kind, name string) {
			if o := str(v, kind+"owner"); o != "" {
				own(fmt.Sprintf("owner of %s", name))
			}
		}
		switch r.Type {
		case "postgresql_role":
			name := str(v, "name")
			if _, set := v["roles"]; set {
				for _, g := range strs(v, "roles") {
					own(fmt.Sprintf("membership of %q in %q", name, g))
				}
			}
			for _, p := range roleManagedParameters { // arguments with defaults: always the role's
				setting(name, "", p)
			}
		case "postgresql_grant_role":
			own(fmt.Sprintf("membership of %q in %q", str(v, "role"), str(v, "grant_role")))
		case "postgresql_role_setting":
			setting(str(v, "role"), str(v, "database"), str(v, "parameter"))
		case "postgresql_database_setting":
			setting(str(v, "role"), db, strings.ToLower(str(v, "parameter")))
		case "postgresql_grant":
			ot := str(v, "object_type")
			classes := []string{ot}
			if c, ok := grantClasses[ot]; ok {
				classes = c
			}
			grantee := strings.ToLower(str(v, "role"))
			for _, class := range classes {
				f := aclFact{db: db, class: class, schema: str(v, "schema"), grantee: grantee}
				switch ot {
				case pg.ObjDatabase:
					f.db, f.schema, f.object = "", "", db
				case pg.ObjSchema:
					f.object = f.schema
				case pg.ObjTablespace, pg.ObjParameter:
					f.db = ""
				}
				if !usesSchemaType(ot) {
					f.schema = ""
				}
				objects, columns := strs(v, "objects"), strs(v, "columns")
				switch {
				case ot == pg.ObjDatabase || ot == pg.ObjSchema:
					acls[f] = append(acls[f], addr)
				case len(objects) == 0:
					f.object = "*"
					acls[f] = append(acls[f], addr)
				default:
					for _, o := range objects {
						if ot == pg.ObjColumn {
							for _, c := range columns {
								g := f
								g.object = o + "." + c
								acls[g] = append(acls[g], addr)
							}
							continue
						}
						g := f
						g.object = o
						acls[g] = append(acls[g], addr)
					}
				}
			}
		case "postgresql_schema":
			owner("", fmt.Sprintf("schema %q in %q", str(v, "name"), db))
			if blocks, ok := v["policy"].([]any); ok {
				for _, b := range blocks {
					m, _ := b.(map[string]any)
					grantee := strings.ToLower(str(m, "role"))
					if grantee == "" {
						grantee = pg.PublicGrantee
					}
					f := aclFact{db: db, class: pg.ObjSchema, schema: str(v, "name"), object: str(v, "name"), grantee: grantee}
					acls[f] = append(acls[f], addr)
				}
			}
		case "postgresql_database":
			owner("", fmt.Sprintf("database %q", str(v, "name")))
		case "postgresql_publication":
			owner("", fmt.Sprintf("publication %q in %q", str(v, "name"), db))
		case "postgresql_event_trigger":
			owner("", fmt.Sprintf("event trigger %q in %q", str(v, "name"), db))
		case "postgresql_server":
			owner("server_", fmt.Sprintf("server %q in %q", str(v, "server_name"), db))
		case "postgresql_object_owner":
			name := str(v, "object_name")
			if s := str(v, "schema"); s != "" {
				name = s + "." + name
			}
			where := fmt.Sprintf(" in %q", db)
			if t := strings.ToLower(str(v, "object_type")); t == "database" || t == "tablespace" {
				where = ""
			}
			own(fmt.Sprintf("owner of %s %q%s", strings.ToLower(str(v, "object_type")), name, where))
		}
	}
	var problems []string
	for fact, by := range owners {
		if len(by) > 1 {
			problems = append(problems, fmt.Sprintf("%s is owned by %s", fact, strings.Join(by, " and ")))
		}
	}
	for f, by := range acls {
		if len(by) > 1 {
			problems = append(problems, fmt.Sprintf("the privileges of %q on %s %q (schema %q, database %q) are owned by %s", f.grantee, f.class, f.object, f.schema, f.db, strings.Join(by, " and ")))
		}
		if f.object == "*" {
			for g, other := range acls {
				if g != f && g.db == f.db && g.class == f.class && g.schema == f.schema && g.grantee == f.grantee {
					problems = append(problems, fmt.Sprintf("the privileges of %q on %s %q (schema %q, database %q) are owned by %s (every %s of the schema) and %s",
						f.grantee, g.class, g.object, g.schema, g.db, strings.Join(by, " and "), f.class, strings.Join(other, " and ")))
				}
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("facts owned by two resources:\n  %s", strings.Join(problems, "\n  "))
}

// usesSchemaType reports whether postgresql_grant's object type takes a schema.
func usesSchemaType(objectType string) bool { return slices.Contains(grantSchemaTypes, objectType) }

// The check finds each kind of double ownership, and none in a
// configuration without.
func TestCheckOneOwner(t *testing.T) {
	role := func(name string, roles ...any) acctest.ConfiguredResource {
		v := map[string]any{"name": name}
		if roles != nil {
			v["roles"] = roles
		}
		return acctest.ConfiguredResource{Type: "postgresql_role", Values: v}
	}
	grant := func(role, schema, ot string, objects ...any) acctest.ConfiguredResource {
		return acctest.ConfiguredResource{Type: "postgresql_grant", Values: map[string]any{"role": role, "database": "db", "schema": schema, "object_type": ot,
			"objects": append([]any{}, objects...), "columns": []any{}, "privileges": []any{"SELECT"}}}
	}
	res := func(typ string, v map[string]any) acctest.ConfiguredResource {
		return acctest.ConfiguredResource{Type: typ, Values: v}
	}
	for _, c := range []struct {
		name string
		cfg  map[string]acctest.ConfiguredResource
		want string // "" = no problem
	}{
		{"distinct", map[string]acctest.ConfiguredResource{
			"a": role("app"), "b": res("postgresql_grant_role", map[string]any{"role": "app", "grant_role": "readers"}),
			"c": grant("readers", "s", "table"), "d": grant("writers", "s", "table", "t1"), "e": grant("readers", "s", "sequence", "q"),
			"f": res("postgresql_role_setting", map[string]any{"role": "app", "parameter": "work_mem"}),
			"g": res("postgresql_database_setting", map[string]any{"role": "app", "database": "db", "parameter": "work_mem"}),
		}, ""},
		{"membership twice", map[string]acctest.ConfiguredResource{
			"a": role("app", "readers"), "b": res("postgresql_grant_role", map[string]any{"role": "app", "grant_role": "readers"}),
		}, `membership of "app" in "readers" is owned by a and b`},
		{"same identity", map[string]acctest.ConfiguredResource{"a": role("app"), "b": role("app")}, "postgresql_role{name=app} is owned by a and b"},
		{"role argument as a setting", map[string]acctest.ConfiguredResource{
			"a": role("app"), "b": res("postgresql_role_setting", map[string]any{"role": "app", "parameter": "search_path"}),
		}, `setting of role "app" in database "": search_path is owned by a and b`},
		{"setting in a database twice", map[string]acctest.ConfiguredResource{
			"a": res("postgresql_role_setting", map[string]any{"role": "app", "database": "db", "parameter": "work_mem"}),
			"b": res("postgresql_database_setting", map[string]any{"role": "app", "database": "db", "parameter": "WORK_MEM"}),
		}, `setting of role "app" in database "db": work_mem is owned by a and b`},
		{"all objects and one", map[string]acctest.ConfiguredResource{"a": grant("readers", "s", "table"), "b": grant("readers", "s", "table", "t1")},
			`(every table of the schema) and b`},
		{"function and procedure", map[string]acctest.ConfiguredResource{"a": grant("public", "s", "function"), "b": grant("public", "s", "procedure")}, ""},
		{"function and routine", map[string]acctest.ConfiguredResource{"a": grant("readers", "s", "function", "f()"), "b": grant("readers", "s", "routine", "f()")},
			`the privileges of "readers" on function "f()"`},
		{"schema policy", map[string]acctest.ConfiguredResource{
			"a": res("postgresql_schema", map[string]any{"name": "s", "database": "db", "policy": []any{map[string]any{"role": "readers", "usage": true}}}),
			"b": grant("readers", "s", "schema"),
		}, `the privileges of "readers" on schema "s"`},
		{"owner twice", map[string]acctest.ConfiguredResource{
			"a": res("postgresql_database", map[string]any{"name": "db", "owner": "app"}),
			"b": res("postgresql_object_owner", map[string]any{"database": "postgres", "object_type": "database", "object_name": "db", "owner": "app"}),
		}, `owner of database "db" is owned by a and b`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkOneOwner(c.cfg, "postgres")
			switch {
			case c.want == "" && err != nil:
				t.Errorf("unexpected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("expected a problem with %q, got %v", c.want, err)
			}
		})
	}
}
