// Package walk is a model-based random walk over configurations of the whole
// provider (issue 39): a seeded generator of configurations over a small
// universe of objects (roles, memberships, databases, schemas with policies,
// grants, default privileges, settings, extensions, functions, publications,
// comments, row-level security, policies, object owners), steps that move
// from one configuration to the next (sometimes after drift made by SQL), a
// runner that applies each step with the real Terraform CLI at -parallelism
// 20, expects the next plan to be empty and the catalog to match the
// configuration, and a shrinker that reduces a failing pair of
// configurations to a minimal one. CONTRIBUTING.md ("The random walk")
// describes the universe and how to add a resource to it.
package walk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Special values of references.
const (
	// Admin names the provider's role (the admin of the mode), rendered as its name.
	Admin = "@admin"
	// Public names PUBLIC as a grantee.
	Public = "@public"
	// AllDatabases is a role setting's database when it applies in every database.
	AllDatabases = "@all"
	// FixtureSchema is the schema of the fixture tables and sequences, in the base database.
	FixtureSchema = "fx"
)

// The fixture objects: tables and sequences made by SQL in schema fx of the
// base database before the walk starts (the provider has no table resource).
var (
	FixtureTables    = []string{"orders", "items", "people"}
	FixtureSequences = []string{"seq_a", "seq_b"}
)

// Config is one configuration of the universe. References between resources
// are by Key (the resource's name in its address); a database reference ""
// is the base database (made by the walk, not by Terraform). Names are the
// objects' names without the walk's prefix.
type Config struct {
	Roles        []*Role        `json:"roles,omitempty"`
	Members      []*Member      `json:"members,omitempty"`
	Databases    []*Database    `json:"databases,omitempty"`
	Schemas      []*Schema      `json:"schemas,omitempty"`
	Grants       []*Grant       `json:"grants,omitempty"`
	DefaultPrivs []*DefaultPriv `json:"default_privileges,omitempty"`
	RoleSettings []*RoleSetting `json:"role_settings,omitempty"`
	DBSettings   []*DBSetting   `json:"database_settings,omitempty"`
	Extensions   []*Extension   `json:"extensions,omitempty"`
	Functions    []*Function    `json:"functions,omitempty"`
	Publications []*Publication `json:"publications,omitempty"`
	Comments     []*Comment     `json:"comments,omitempty"`
	TableRLS     []*TableRLS    `json:"table_rls,omitempty"`
	Policies     []*Policy      `json:"policies,omitempty"`
	Owners       []*ObjectOwner `json:"object_owners,omitempty"`
	// NextKey numbers new resources' keys, so that a key is never reused.
	NextKey int `json:"next_key"`
}

// Role is a postgresql_role.
type Role struct {
	Key       string `json:"key"`
	Name      string `json:"name"`
	Login     bool   `json:"login,omitempty"`
	NoInherit bool   `json:"no_inherit,omitempty"`
	CreateDB  bool   `json:"create_database,omitempty"`
	// ConnLimit is the connection limit; 0 means unset (-1, no limit).
	ConnLimit int `json:"connection_limit,omitempty"`
	// ManageRoles says whether `roles` is set (then Roles is the whole set).
	ManageRoles      bool     `json:"manage_roles,omitempty"`
	Roles            []string `json:"roles,omitempty"`
	SearchPath       []string `json:"search_path,omitempty"`
	StatementTimeout int      `json:"statement_timeout,omitempty"`
	Password         string   `json:"password,omitempty"`
}

// Member is a postgresql_grant_role: Role is a member of Group.
type Member struct {
	Key   string `json:"key"`
	Role  string `json:"role"`
	Group string `json:"group"`
	Admin bool   `json:"with_admin_option,omitempty"`
}

// Database is a postgresql_database.
type Database struct {
	Key       string `json:"key"`
	Name      string `json:"name"`
	Owner     string `json:"owner"`
	ConnLimit int    `json:"connection_limit,omitempty"`
}

// Schema is a postgresql_schema with its policy blocks.
type Schema struct {
	Key      string         `json:"key"`
	Name     string         `json:"name"`
	DB       string         `json:"database,omitempty"`
	Owner    string         `json:"owner"`
	Policies []SchemaPolicy `json:"policies,omitempty"`
}

// SchemaPolicy is one policy block of a schema; Role is a role key or Public.
type SchemaPolicy struct {
	Role     string `json:"role"`
	Usage    bool   `json:"usage,omitempty"`
	Create   bool   `json:"create,omitempty"`
	UsageWG  bool   `json:"usage_with_grant,omitempty"`
	CreateWG bool   `json:"create_with_grant,omitempty"`
}

// Grant is a postgresql_grant. Schema is a schema key, or FixtureSchema for
// the fixture's tables and sequences; Objects are fixture names or function
// keys (empty: every object of the type in the schema).
type Grant struct {
	Key     string   `json:"key"`
	Role    string   `json:"role"`
	DB      string   `json:"database,omitempty"`
	Type    string   `json:"object_type"`
	Schema  string   `json:"schema,omitempty"`
	Objects []string `json:"objects,omitempty"`
	Privs   []string `json:"privileges"`
	WGO     bool     `json:"with_grant_option,omitempty"`
	// Additive makes it a postgresql_grant_additive (never to PUBLIC).
	Additive bool `json:"additive,omitempty"`
}

// ResourceType is the grant's resource type.
func (x *Grant) ResourceType() string {
	if x.Additive {
		return "postgresql_grant_additive"
	}
	return "postgresql_grant"
}

// DefaultPriv is a postgresql_default_privileges.
type DefaultPriv struct {
	Key    string   `json:"key"`
	Owner  string   `json:"owner"`
	Role   string   `json:"role"`
	DB     string   `json:"database,omitempty"`
	Schema string   `json:"schema,omitempty"`
	Type   string   `json:"object_type"`
	Privs  []string `json:"privileges"`
	WGO    bool     `json:"with_grant_option,omitempty"`
	// Additive makes it a postgresql_default_privileges_additive (never to PUBLIC).
	Additive bool `json:"additive,omitempty"`
}

// ResourceType is the resource type of the default privileges.
func (x *DefaultPriv) ResourceType() string {
	if x.Additive {
		return "postgresql_default_privileges_additive"
	}
	return "postgresql_default_privileges"
}

// RoleSetting is a postgresql_role_setting; DB is AllDatabases, "" (the base
// database) or a database key.
type RoleSetting struct {
	Key   string `json:"key"`
	Role  string `json:"role"`
	Param string `json:"parameter"`
	Value string `json:"value"`
	DB    string `json:"database"`
}

// DBSetting is a postgresql_database_setting; Role "" means every role.
type DBSetting struct {
	Key   string `json:"key"`
	DB    string `json:"database,omitempty"`
	Param string `json:"parameter"`
	Value string `json:"value"`
	Role  string `json:"role,omitempty"`
}

// Extension is a postgresql_extension; Schema "" leaves it to PostgreSQL.
type Extension struct {
	Key    string `json:"key"`
	Name   string `json:"name"`
	DB     string `json:"database,omitempty"`
	Schema string `json:"schema,omitempty"`
}

// Function is a postgresql_function in a walk schema (and that schema's
// database); Variant picks its body and arguments.
type Function struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	Schema  string `json:"schema"`
	Variant int    `json:"variant,omitempty"`
}

// Publication is a postgresql_publication of fixture tables in the base database.
type Publication struct {
	Key    string   `json:"key"`
	Name   string   `json:"name"`
	Tables []string `json:"tables"`
}

// Comment is a postgresql_comment on a walk object: Kind is role, database,
// schema or function, Target its key.
type Comment struct {
	Key    string `json:"key"`
	Kind   string `json:"kind"`
	Target string `json:"target"`
	Text   string `json:"comment"`
}

// TableRLS is a postgresql_table_rls on a fixture table.
type TableRLS struct {
	Key     string `json:"key"`
	Table   string `json:"table"`
	Enabled bool   `json:"enabled"`
	Force   bool   `json:"force,omitempty"`
}

// Policy is a postgresql_policy on a fixture table; Roles are role keys or Public.
type Policy struct {
	Key     string   `json:"key"`
	Name    string   `json:"name"`
	Table   string   `json:"table"`
	Command string   `json:"command"`
	Roles   []string `json:"roles"`
	Using   string   `json:"using"`
}

// ObjectOwner is a postgresql_object_owner of a fixture table or sequence.
type ObjectOwner struct {
	Key    string `json:"key"`
	Type   string `json:"object_type"`
	Object string `json:"object"`
	Owner  string `json:"owner"`
}

// Clone is a deep copy.
func (c *Config) Clone() *Config {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	var out Config
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

// Equal says whether two configurations are the same.
func (c *Config) Equal(o *Config) bool {
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(o)
	return bytes.Equal(a, b)
}

// JSON is the configuration as indented JSON (artifacts, regression pairs).
func (c *Config) JSON() string {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Size is the number of resources.
func (c *Config) Size() int {
	return len(c.Roles) + len(c.Members) + len(c.Databases) + len(c.Schemas) + len(c.Grants) + len(c.DefaultPrivs) +
		len(c.RoleSettings) + len(c.DBSettings) + len(c.Extensions) + len(c.Functions) + len(c.Publications) +
		len(c.Comments) + len(c.TableRLS) + len(c.Policies) + len(c.Owners)
}

// Keys lists every resource's key, in a fixed order.
func (c *Config) Keys() []string {
	var out []string
	c.each(func(key string) { out = append(out, key) })
	return out
}

func (c *Config) each(f func(key string)) {
	for _, x := range c.Roles {
		f(x.Key)
	}
	for _, x := range c.Members {
		f(x.Key)
	}
	for _, x := range c.Databases {
		f(x.Key)
	}
	for _, x := range c.Schemas {
		f(x.Key)
	}
	for _, x := range c.Grants {
		f(x.Key)
	}
	for _, x := range c.DefaultPrivs {
		f(x.Key)
	}
	for _, x := range c.RoleSettings {
		f(x.Key)
	}
	for _, x := range c.DBSettings {
		f(x.Key)
	}
	for _, x := range c.Extensions {
		f(x.Key)
	}
	for _, x := range c.Functions {
		f(x.Key)
	}
	for _, x := range c.Publications {
		f(x.Key)
	}
	for _, x := range c.Comments {
		f(x.Key)
	}
	for _, x := range c.TableRLS {
		f(x.Key)
	}
	for _, x := range c.Policies {
		f(x.Key)
	}
	for _, x := range c.Owners {
		f(x.Key)
	}
}

// Remove removes the resource with key (and nothing else: Normalize then
// drops or mends what referred to it).
func (c *Config) Remove(key string) {
	c.Roles = del(c.Roles, key, func(x *Role) string { return x.Key })
	c.Members = del(c.Members, key, func(x *Member) string { return x.Key })
	c.Databases = del(c.Databases, key, func(x *Database) string { return x.Key })
	c.Schemas = del(c.Schemas, key, func(x *Schema) string { return x.Key })
	c.Grants = del(c.Grants, key, func(x *Grant) string { return x.Key })
	c.DefaultPrivs = del(c.DefaultPrivs, key, func(x *DefaultPriv) string { return x.Key })
	c.RoleSettings = del(c.RoleSettings, key, func(x *RoleSetting) string { return x.Key })
	c.DBSettings = del(c.DBSettings, key, func(x *DBSetting) string { return x.Key })
	c.Extensions = del(c.Extensions, key, func(x *Extension) string { return x.Key })
	c.Functions = del(c.Functions, key, func(x *Function) string { return x.Key })
	c.Publications = del(c.Publications, key, func(x *Publication) string { return x.Key })
	c.Comments = del(c.Comments, key, func(x *Comment) string { return x.Key })
	c.TableRLS = del(c.TableRLS, key, func(x *TableRLS) string { return x.Key })
	c.Policies = del(c.Policies, key, func(x *Policy) string { return x.Key })
	c.Owners = del(c.Owners, key, func(x *ObjectOwner) string { return x.Key })
}

func del[T any](s []T, key string, k func(T) string) []T {
	return slices.DeleteFunc(s, func(x T) bool { return k(x) == key })
}

// Lookups by key.

func (c *Config) Role(key string) *Role {
	return find(c.Roles, key, func(x *Role) string { return x.Key })
}

func (c *Config) Database(key string) *Database {
	return find(c.Databases, key, func(x *Database) string { return x.Key })
}

func (c *Config) Schema(key string) *Schema {
	return find(c.Schemas, key, func(x *Schema) string { return x.Key })
}

func (c *Config) Function(key string) *Function {
	return find(c.Functions, key, func(x *Function) string { return x.Key })
}

func find[T any](s []T, key string, k func(T) string) T {
	for _, x := range s {
		if k(x) == key {
			return x
		}
	}
	var zero T
	return zero
}

// Kind is the resource type of key ("" when there is none).
func (c *Config) Kind(key string) string {
	kind := ""
	check := func(k, typ string) {
		if k == key {
			kind = typ
		}
	}
	for _, x := range c.Roles {
		check(x.Key, "postgresql_role")
	}
	for _, x := range c.Members {
		check(x.Key, "postgresql_grant_role")
	}
	for _, x := range c.Databases {
		check(x.Key, "postgresql_database")
	}
	for _, x := range c.Schemas {
		check(x.Key, "postgresql_schema")
	}
	for _, x := range c.Grants {
		check(x.Key, x.ResourceType())
	}
	for _, x := range c.DefaultPrivs {
		check(x.Key, x.ResourceType())
	}
	for _, x := range c.RoleSettings {
		check(x.Key, "postgresql_role_setting")
	}
	for _, x := range c.DBSettings {
		check(x.Key, "postgresql_database_setting")
	}
	for _, x := range c.Extensions {
		check(x.Key, "postgresql_extension")
	}
	for _, x := range c.Functions {
		check(x.Key, "postgresql_function")
	}
	for _, x := range c.Publications {
		check(x.Key, "postgresql_publication")
	}
	for _, x := range c.Comments {
		check(x.Key, "postgresql_comment")
	}
	for _, x := range c.TableRLS {
		check(x.Key, "postgresql_table_rls")
	}
	for _, x := range c.Policies {
		check(x.Key, "postgresql_policy")
	}
	for _, x := range c.Owners {
		check(x.Key, "postgresql_object_owner")
	}
	return kind
}

// schemaDB is the database key of a schema key (FixtureSchema: the base database).
func (c *Config) schemaDB(key string) (string, bool) {
	if key == FixtureSchema {
		return "", true
	}
	if s := c.Schema(key); s != nil {
		return s.DB, true
	}
	return "", false
}

// Summary is a one-line count of resources per kind, for logs.
func (c *Config) Summary() string {
	parts := []string{}
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(len(c.Roles), "roles")
	add(len(c.Members), "memberships")
	add(len(c.Databases), "databases")
	add(len(c.Schemas), "schemas")
	add(len(c.Grants), "grants")
	add(len(c.DefaultPrivs), "default privileges")
	add(len(c.RoleSettings), "role settings")
	add(len(c.DBSettings), "database settings")
	add(len(c.Extensions), "extensions")
	add(len(c.Functions), "functions")
	add(len(c.Publications), "publications")
	add(len(c.Comments), "comments")
	add(len(c.TableRLS), "table rls")
	add(len(c.Policies), "policies")
	add(len(c.Owners), "object owners")
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}
