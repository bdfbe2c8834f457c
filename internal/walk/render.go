package walk

import (
	"fmt"
	"slices"
	"strings"
)

// Env is what a configuration is rendered and checked against: the walk's
// name prefix (every object the walk makes starts with it), the provider's
// role and the server.
type Env struct {
	Prefix  string
	Admin   string
	Major   int
	Managed bool
}

// Name is the server name of a walk object.
func (e Env) Name(n string) string { return e.Prefix + "_" + n }

// BaseDB is the base database's name: made by the walk with the fixture, it
// holds the objects of the configuration that name no database.
func (e Env) BaseDB() string { return e.Prefix + "_base" }

// Render renders the configuration as HCL (resources only; the provider
// block is added by the runner).
func Render(c *Config, e Env) string {
	var b strings.Builder
	r := renderer{c: c, e: e, b: &b}
	for _, x := range c.Roles {
		r.role(x)
	}
	for _, x := range c.Members {
		r.block("postgresql_grant_role", x.Key,
			"role", r.roleRef(x.Role), "grant_role", r.roleRef(x.Group), "with_admin_option", boolAttr(x.Admin))
	}
	for _, x := range c.Databases {
		r.block("postgresql_database", x.Key, "name", q(e.Name(x.Name)), "owner", r.roleRef(x.Owner),
			"connection_limit", intAttr(x.ConnLimit))
	}
	for _, x := range c.Schemas {
		r.schema(x)
	}
	for _, x := range c.Grants {
		r.grant(x)
	}
	for _, x := range c.DefaultPrivs {
		schema := ""
		if x.Schema != "" {
			schema = r.schemaRef(x.Schema)
		}
		r.block(x.ResourceType(), x.Key, "database", r.dbRef(x.DB), "owner", r.roleRef(x.Owner),
			"role", r.roleRef(x.Role), "schema", schema, "object_type", q(x.Type), "privileges", list(quoted(x.Privs)),
			"with_grant_option", boolAttr(x.WGO))
	}
	for _, x := range c.RoleSettings {
		db := ""
		if x.DB != AllDatabases {
			db = r.dbRef(x.DB)
		}
		r.block("postgresql_role_setting", x.Key, "role", r.roleRef(x.Role), "database", db,
			"parameter", q(x.Param), "value", q(x.Value))
	}
	for _, x := range c.DBSettings {
		role := ""
		if x.Role != "" {
			role = r.roleRef(x.Role)
		}
		r.block("postgresql_database_setting", x.Key, "database", r.dbRef(x.DB), "role", role,
			"parameter", q(x.Param), "value", q(x.Value))
	}
	for _, x := range c.Extensions {
		schema := ""
		if x.Schema != "" {
			schema = r.schemaRef(x.Schema)
		}
		r.block("postgresql_extension", x.Key, "name", q(x.Name), "database", r.dbRef(x.DB), "schema", schema,
			"drop_cascade", "true")
	}
	for _, x := range c.Functions {
		r.function(x)
	}
	for _, x := range c.Publications {
		var tables []string
		for _, t := range x.Tables {
			tables = append(tables, q(FixtureSchema+"."+t))
		}
		r.block("postgresql_publication", x.Key, "name", q(e.Name(x.Name)), "database", q(e.BaseDB()), "tables", list(tables))
	}
	for _, x := range c.Comments {
		r.comment(x)
	}
	for _, x := range c.TableRLS {
		r.block("postgresql_table_rls", x.Key, "database", q(e.BaseDB()), "schema", q(FixtureSchema), "table", q(x.Table),
			"enabled", fmt.Sprint(x.Enabled), "force", boolAttr(x.Force))
	}
	for _, x := range c.Policies {
		var roles []string
		for _, k := range x.Roles {
			roles = append(roles, r.roleRef(k))
		}
		r.block("postgresql_policy", x.Key, "name", q(e.Name(x.Name)), "database", q(e.BaseDB()), "schema", q(FixtureSchema),
			"table", q(x.Table), "command", q(x.Command), "roles", list(roles), "using", q(x.Using))
	}
	for _, x := range c.Owners {
		r.block("postgresql_object_owner", x.Key, "database", q(e.BaseDB()), "schema", q(FixtureSchema),
			"object_type", q(x.Type), "object_name", q(x.Object), "owner", r.roleRef(x.Owner))
	}
	return b.String()
}

type renderer struct {
	c *Config
	e Env
	b *strings.Builder
}

// block writes a resource block; attrs alternate names and HCL expressions
// ("" leaves the attribute out).
func (r renderer) block(typ, key string, attrs ...string) {
	r.open(typ, key, attrs...)
	r.b.WriteString("}\n\n")
}

func (r renderer) open(typ, key string, attrs ...string) {
	width := 0
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			width = max(width, len(attrs[i]))
		}
	}
	fmt.Fprintf(r.b, "resource %q %q {\n", typ, key)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			fmt.Fprintf(r.b, "  %-*s = %s\n", width, attrs[i], attrs[i+1])
		}
	}
}

func (r renderer) role(x *Role) {
	roles := ""
	if x.ManageRoles {
		var refs []string
		for _, k := range x.Roles {
			refs = append(refs, r.roleRef(k))
		}
		roles = list(refs)
	}
	searchPath := ""
	if len(x.SearchPath) > 0 {
		searchPath = list(quoted(x.SearchPath))
	}
	password := ""
	if x.Password != "" {
		password = q(x.Password)
	}
	inherit := ""
	if x.NoInherit {
		inherit = "false"
	}
	r.block("postgresql_role", x.Key, "name", q(r.e.Name(x.Name)), "login", boolAttr(x.Login), "inherit", inherit,
		"create_database", boolAttr(x.CreateDB), "connection_limit", intAttr(x.ConnLimit), "roles", roles,
		"search_path", searchPath, "statement_timeout", intAttr(x.StatementTimeout), "password", password)
}

func (r renderer) schema(x *Schema) {
	r.open("postgresql_schema", x.Key, "name", q(r.e.Name(x.Name)), "database", r.dbRef(x.DB), "owner", r.roleRef(x.Owner),
		"drop_cascade", "true")
	for _, p := range x.Policies {
		role := ""
		if p.Role != Public {
			role = r.roleRef(p.Role)
		}
		r.b.WriteString("\n  policy {\n")
		for _, a := range [][2]string{{"role", role}, {"usage", boolAttr(p.Usage)}, {"create", boolAttr(p.Create)},
			{"usage_with_grant", boolAttr(p.UsageWG)}, {"create_with_grant", boolAttr(p.CreateWG)}} {
			if a[1] != "" {
				fmt.Fprintf(r.b, "    %s = %s\n", a[0], a[1])
			}
		}
		r.b.WriteString("  }\n")
	}
	r.b.WriteString("}\n\n")
}

func (r renderer) grant(x *Grant) {
	schema, objects := "", ""
	switch x.Type {
	case "database":
	case "table", "sequence":
		schema = r.schemaRef(x.Schema)
		objects = list(quoted(x.Objects))
	case "function":
		schema = r.schemaRef(x.Schema)
		var refs []string
		for _, k := range x.Objects {
			refs = append(refs, "postgresql_function."+k+".name")
		}
		objects = list(refs)
	default:
		schema = r.schemaRef(x.Schema)
	}
	if len(x.Objects) == 0 {
		objects = ""
	}
	r.open(x.ResourceType(), x.Key, "database", r.dbRef(x.DB), "role", r.roleRef(x.Role), "schema", schema,
		"object_type", q(x.Type), "objects", objects, "privileges", list(quoted(x.Privs)), "with_grant_option", boolAttr(x.WGO))
	if x.Type == "function" && len(x.Objects) > 0 {
		// a function replaced (another signature) is a new object under the
		// same name: the grant names it by name, so it is replaced with it,
		// as the grant's documentation advises
		var oids []string
		for _, k := range x.Objects {
			oids = append(oids, "postgresql_function."+k+".oid")
		}
		fmt.Fprintf(r.b, "\n  lifecycle {\n    replace_triggered_by = %s\n  }\n", list(oids))
	}
	r.b.WriteString("}\n\n")
}

// Function variants: body, arguments and result.
var functionVariants = []struct {
	body, returns, arg string
}{
	{"SELECT 1", "integer", ""},
	{"SELECT $1 + 1", "integer", "integer"},
	{"SELECT 2", "integer", ""},
}

func (r renderer) function(x *Function) {
	v := functionVariants[x.Variant%len(functionVariants)]
	s := r.c.Schema(x.Schema)
	db := ""
	if s != nil {
		db = r.dbRef(s.DB)
	}
	r.open("postgresql_function", x.Key, "name", q(r.e.Name(x.Name)), "database", db, "schema", r.schemaRef(x.Schema),
		"language", q("sql"), "returns", q(v.returns), "body", q(v.body))
	if v.arg != "" {
		fmt.Fprintf(r.b, "\n  arg {\n    type = %s\n  }\n", q(v.arg))
	}
	r.b.WriteString("}\n\n")
}

func (r renderer) comment(x *Comment) {
	var name, db, schema string
	switch x.Kind {
	case "role":
		name = r.roleRef(x.Target)
	case "database":
		name = "postgresql_database." + x.Target + ".name"
	case "schema":
		name = r.schemaRef(x.Target)
		if s := r.c.Schema(x.Target); s != nil {
			db = r.dbRef(s.DB)
		}
	case "function":
		name = "postgresql_function." + x.Target + ".name"
		if f := r.c.Function(x.Target); f != nil {
			schema = r.schemaRef(f.Schema)
			if s := r.c.Schema(f.Schema); s != nil {
				db = r.dbRef(s.DB)
			}
		}
	}
	r.open("postgresql_comment", x.Key, "object_type", q(x.Kind), "database", db, "schema", schema, "object_name", name,
		"comment", q(x.Text))
	if x.Kind == "function" {
		// a function replaced (another signature) is a new object under the
		// same name, without the old one's comment: the comment is replaced
		// with it, as the comment's documentation advises (seed 17002 step
		// 40 as the superuser on PostgreSQL 15)
		fmt.Fprintf(r.b, "\n  lifecycle {\n    replace_triggered_by = [postgresql_function.%s.oid]\n  }\n", x.Target)
	}
	r.b.WriteString("}\n\n")
}

// roleRef is the HCL expression naming a role: a reference to its resource,
// the provider's role or public.
func (r renderer) roleRef(key string) string {
	switch key {
	case Admin:
		return q(r.e.Admin)
	case Public:
		return q("public")
	}
	return "postgresql_role." + key + ".name"
}

func (r renderer) dbRef(key string) string {
	if key == "" {
		return q(r.e.BaseDB())
	}
	return "postgresql_database." + key + ".name"
}

func (r renderer) schemaRef(key string) string {
	if key == FixtureSchema {
		return q(FixtureSchema)
	}
	return "postgresql_schema." + key + ".name"
}

func q(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	s = strings.ReplaceAll(s, "${", "$${")
	s = strings.ReplaceAll(s, "%{", "%%{")
	return `"` + s + `"`
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = q(x)
	}
	return out
}

func list(items []string) string {
	items = slices.Clone(items)
	return "[" + strings.Join(items, ", ") + "]"
}

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return ""
}

func intAttr(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}
