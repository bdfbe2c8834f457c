package provider

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// The variants of the conformance suite (see conformance_test.go). Labels:
// unset, null, empty (collections), server (the spelling PostgreSQL prints),
// alias (another spelling with the same meaning), default (the keyword DEFAULT
// for the server's default); other labels name a further
// meaningful value (true, false, other_role...).

func boolAttr(name string) []confVariant {
	return []confVariant{{label: lUnset}, simpleV(lNull, name+" = null"), simpleV("true", name+" = true"), simpleV("false", name+" = false")}
}

// importSetsNull is the reason for attributes that exist only in the
// configuration: an import cannot read them and leaves the default, so a
// non-default value plans one in-place update that runs no SQL (as in cyrilgdn).
// labelOtherDatabase: cyrilgdn's security label has no database argument, so
// a label on an object in another database has no cyrilgdn state.
const labelOtherDatabase = "cyrilgdn's layout has no database: a label in another database has no v0 state (the migration fixtures cover labels in the provider's database)"

const importSetsNull = "configuration-only attribute: an import records the default, so a non-default value plans one in-place update without SQL"

func cfgOnly(v confVariant) confVariant { v.noImport = importSetsNull; return v }

// passwordDriftNoV0: cyrilgdn had no password_drift; the upgrader records the
// default (report), so another value plans one in-place update without SQL.
const passwordDriftNoV0 = "cyrilgdn had no password_drift: the upgrader records the default (report), so another value plans one in-place update without SQL"

// boolCfgOnly are the variants of a configuration-only flag whose default is false.
func boolCfgOnly(name string) []confVariant {
	v := boolAttr(name)
	v[2] = cfgOnly(v[2])
	return v
}

// boolCfgOnlyTrue are the variants of a configuration-only flag whose default is true.
func boolCfgOnlyTrue(name string) []confVariant {
	v := boolAttr(name)
	v[3] = cfgOnly(v[3])
	return v
}

// fdwNoV0: cyrilgdn's layout has no database for servers and user mappings (they
// lived in the provider's database), while these variants live in the test's own
// database, where postgres_fdw is installed without disturbing other tests. The
// migration fixtures (server/*, user_mapping/*) cover their v0 states.
const fdwNoV0 = "cyrilgdn's servers and user mappings have no database attribute (they lived in the provider's database); these variants live in the test's own database, so the v0 check is left to the migration fixtures server/* and user_mapping/*"

// optionsHiddenEmpty: the managed admin cannot see another role's mapping
// options, so an import cannot tell "no options" from "hidden options" and
// leaves them null; `options = {}` then plans one update, which writes nothing.
const optionsHiddenEmpty = "PostgreSQL shows a role's mapping options only to superusers and to that role: the managed admin cannot tell none from hidden on import"

// woImport: an import cannot know which options (or whether the connection
// string) the configuration gives write-only, so it reads them into the state
// as the other ones; the first apply takes them out again (one in-place update).
const woImport = "an import cannot tell write-only options or connection strings from the others: it records what the server shows, and the first apply moves it out of the state (one in-place update)"

// woNoV0: cyrilgdn had no write-only connection string, and its layout requires conninfo.
const woNoV0 = "cyrilgdn's layout requires conninfo and has no conninfo_wo: no v0 state can hold a write-only connection string"

const policyImport = "the deprecated policy blocks report only the roles the state already lists (as in cyrilgdn): an import cannot know them"

func polV(label, hcl string) confVariant {
	return confVariant{label: label, hcl: hcl, noImport: policyImport}
}

// tplOnly marks variants setting template: PostgreSQL does not record the
// database a database was copied from, so an import leaves template null.
func tplOnly(vs []confVariant) []confVariant {
	for i := range vs {
		if strings.Contains(vs[i].hcl, "template = \"") {
			vs[i].noImport = "PostgreSQL does not record the template a database was copied from: an import leaves template null, so a configured template plans one in-place update without SQL"
		}
	}
	return vs
}

// pg16 marks variants setting an attribute that needs PostgreSQL 16.
func pg16(vs []confVariant) []confVariant { return fromMajor(16, vs) }

// pg18 marks variants setting an attribute that needs PostgreSQL 18.
func pg18(vs []confVariant) []confVariant { return fromMajor(18, vs) }

// fromMajor marks the variants that set the attribute (not unset, not null)
// as needing PostgreSQL major or later.
func fromMajor(major int, vs []confVariant) []confVariant {
	for i := range vs {
		if vs[i].hcl != "" && !strings.HasSuffix(vs[i].hcl, "= null") {
			vs[i].minMajor = major
		}
	}
	return vs
}

func jsonID(keys ...string) func(v map[string]any) string {
	return func(v map[string]any) string {
		m := map[string]any{}
		for _, k := range keys {
			if v[k] != nil {
				m[k] = v[k]
			}
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
}

// v0Dotted sets cyrilgdn's `<a>.<b>...` id from attributes.
func v0Dotted(names ...string) func(v0, v1 map[string]any) {
	return func(v0, v1 map[string]any) {
		parts := make([]string, 0, len(names))
		for _, n := range names {
			parts = append(parts, cstr(v1[n]))
		}
		v0["id"] = strings.Join(parts, ".")
	}
}

func sortedStrings(v any) []string {
	l := cstrList(v)
	sort.Strings(l)
	return l
}

const (
	preRole     = `resource "postgresql_role" "pre" { name = "{{.P}}_r" }` + "\n"
	superReason = "a non-superuser admin cannot give this attribute (PostgreSQL restricts it to superusers)"
)

var conformanceTypes = map[string]confType{
	"postgresql_role": {
		prereqs: preRole,
		body:    `name = "{{.I}}"`,
		attrs: map[string]confAttr{
			"login":                     {variants: boolAttr("login")},
			"create_database":           {variants: boolAttr("create_database")},
			"create_role":               {variants: boolAttr("create_role")},
			"inherit":                   {variants: boolAttr("inherit")},
			"superuser":                 {variants: append(boolAttr("superuser")[:2], simpleV("false", "superuser = false"), confVariant{label: "true", hcl: "superuser = true", superuserOnly: superReason})},
			"replication":               {variants: append(boolAttr("replication")[:2], simpleV("false", "replication = false"), confVariant{label: "true", hcl: "replication = true", superuserOnly: superReason})},
			"bypass_row_level_security": {variants: append(boolAttr("bypass_row_level_security")[:2], simpleV("false", "bypass_row_level_security = false"), confVariant{label: "true", hcl: "bypass_row_level_security = true", superuserOnly: superReason})},
			"connection_limit":          {variants: strAttr("connection_limit", "-1", "5")},
			"encrypted_password":        {variants: boolAttr("encrypted_password")[:3]},
			"encrypted":                 {variants: []confVariant{{label: lUnset}, simpleV(lNull, "encrypted = null"), cfgOnly(simpleV(lServer, `encrypted = "true"`))}},
			"password":                  {variants: []confVariant{{label: lUnset}, simpleV(lNull, "password = null"), cfgOnly(simpleV("set", `password = "conf-pass-1"`))}},
			"password_drift": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "password_drift = null"), simpleV("report", `password_drift = "report"`),
				{label: "repair", hcl: "password = \"conf-pass-2\"\npassword_drift = \"repair\"", noImport: importSetsNull, noV0: passwordDriftNoV0},
				{label: "ignore", hcl: "password = \"conf-pass-3\"\npassword_drift = \"ignore\"", noImport: importSetsNull, noV0: passwordDriftNoV0}}},
			"password_wo": {none: "write-only: never in state nor read back; covered with password_wo_version below"},
			"password_wo_version": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "password_wo_version = null"),
				cfgOnly(simpleV("set", "password_wo = \"conf-wo-1\"\npassword_wo_version = \"1\""))}},
			"roles":                               {variants: append(strAttr("roles", "[postgresql_role.pre.name]"), simpleV(lEmpty, "roles = []"))},
			"search_path":                         {variants: append(strAttr("search_path", `["$user", "public"]`, `["public"]`), confVariant{label: lEmpty, hcl: "search_path = []"})},
			"valid_until":                         {variants: strAttr("valid_until", `"infinity"`, `"2035-01-01T00:00:00Z"`, `"2035-01-01 00:00:00+00"`)},
			"statement_timeout":                   {variants: strAttr("statement_timeout", "0", "1000")},
			"idle_in_transaction_session_timeout": {variants: strAttr("idle_in_transaction_session_timeout", "0", "60000")},
			"assume_role":                         {variants: strAttr("assume_role", `""`, "postgresql_role.pre.name")},
			"skip_drop_role":                      {variants: boolAttr("skip_drop_role")[:2], none: "true leaves the role behind on destroy"},
			"skip_reassign_owned":                 {variants: boolCfgOnly("skip_reassign_owned")},
		},
		v0: func(v0, v1 map[string]any) {
			v0["id"] = v1["name"]
			nullToEmpty(v0, "assume_role")
		},
	},
	"postgresql_database": {
		prereqs: preRole,
		body:    "name = \"{{.I}}\"",
		attrs: map[string]confAttr{
			"owner": {variants: append(strAttr("owner", `"{{.Admin}}"`), simpleV("other_role", "owner = postgresql_role.pre.name"))},
			// "DEFAULT" (any case): the server's default, as cyrilgdn documents it
			"template":   {variants: tplOnly(append(strAttr("template", `"template0"`, `"template1"`), simpleV(lDefault, `template = "DEFAULT"`)))},
			"encoding":   {variants: append(strAttr("encoding", `"UTF8"`, `"utf8"`, `"UTF-8"`), simpleV(lDefault, `encoding = "DEFAULT"`))},
			"lc_collate": {variants: tplOnly(append(strAttr("lc_collate"), simpleV(lServer, "lc_collate = \"C\"\ntemplate = \"template0\""), simpleV(lDefault, `lc_collate = "DEFAULT"`)))},
			"lc_ctype":   {variants: tplOnly(append(strAttr("lc_ctype"), simpleV(lServer, "lc_ctype = \"C\"\ntemplate = \"template0\""), simpleV(lDefault, `lc_ctype = "default"`)))},
			"tablespace_name": {variants: append(strAttr("tablespace_name")[:2], confVariant{label: lServer, hcl: `tablespace_name = "pg_default"`,
				superuserOnly: "naming a tablespace in CREATE DATABASE needs CREATE on it, even pg_default"}, simpleV(lDefault, `tablespace_name = "DEFAULT"`))},
			"connection_limit":       {variants: strAttr("connection_limit", "-1", "7")},
			"allow_connections":      {variants: boolAttr("allow_connections")},
			"is_template":            {variants: boolAttr("is_template")},
			"alter_object_ownership": {variants: boolCfgOnly("alter_object_ownership")},
			"force_drop": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "force_drop = null"), simpleV("false", "force_drop = false"),
				{label: "true", hcl: "force_drop = true", noImport: importSetsNull, noV0: "cyrilgdn had no force_drop: the upgrader records the default (false), so true plans one in-place update without SQL"}}},
		},
		v0: func(v0, v1 map[string]any) { v0["id"] = v1["name"] },
	},
	"postgresql_schema": {
		prereqs: preRole,
		body:    `name = "{{.I}}"`,
		attrs: map[string]confAttr{
			"database":      {variants: strAttr("database", `"postgres"`)},
			"owner":         {variants: append(strAttr("owner", `"{{.Admin}}"`), simpleV("other_role", "owner = postgresql_role.pre.name"))},
			"if_not_exists": {variants: boolCfgOnlyTrue("if_not_exists")},
			"drop_cascade":  {variants: boolCfgOnly("drop_cascade")},
			"policy": {variants: []confVariant{{label: lUnset},
				polV("public_usage", "policy {\n  usage = true\n}"),
				polV("role_create", "policy {\n  role = postgresql_role.pre.name\n  create = true\n  usage = true\n}"),
				// blocks of one role add up (cyrilgdn documents them as cumulative)
				polV("same_role_twice", "policy {\n  role = postgresql_role.pre.name\n  usage = true\n}\npolicy {\n  role = postgresql_role.pre.name\n  create_with_grant = true\n}")}},
			"policy.role":              {variants: []confVariant{polV(lNull, "policy {\n  role = null\n  usage = true\n}"), polV(lServer, "policy {\n  role = postgresql_role.pre.name\n  usage = true\n}")}},
			"policy.usage":             {variants: []confVariant{polV("false", "policy {\n  role = postgresql_role.pre.name\n  usage = false\n  create = true\n}")}},
			"policy.usage_with_grant":  {variants: []confVariant{polV("true", "policy {\n  role = postgresql_role.pre.name\n  usage_with_grant = true\n}")}},
			"policy.create":            {variants: []confVariant{polV("null", "policy {\n  role = postgresql_role.pre.name\n  usage = true\n  create = null\n}")}},
			"policy.create_with_grant": {variants: []confVariant{polV("true", "policy {\n  role = postgresql_role.pre.name\n  create_with_grant = true\n}")}},
		},
		v0: func(v0, v1 map[string]any) {
			// cyrilgdn stored every policy flag (false when unset) and PUBLIC as role ""
			if pols, ok := v1["policy"].([]any); ok {
				out := make([]any, 0, len(pols))
				for _, p := range pols {
					m := map[string]any{}
					for k, v := range p.(map[string]any) {
						m[k] = v
					}
					nullToEmpty(m, "role")
					nullToFalse(m, "usage", "usage_with_grant", "create", "create_with_grant")
					out = append(out, m)
				}
				v0["policy"] = out
			}
		},
	},
	"postgresql_extension": {
		perInstance: "resource \"postgresql_database\" \"{{.I}}\" {\n  name = \"{{.I}}\"\n  force_drop = true\n}\n",
		prereqs:     `resource "postgresql_schema" "ext" { name = "{{.P}}_ext" }` + "\n",
		body:        "name = \"{{with .V.ext}}{{.}}{{else}}hstore{{end}}\"\n{{if not .V.nodb}}database = postgresql_database.{{.I}}.name{{end}}",
		attrs: map[string]confAttr{
			"database": {variants: []confVariant{
				{label: lUnset, vars: map[string]string{"nodb": "1", "ext": "tsm_system_rows"}},
				{label: lNull, hcl: "database = null", vars: map[string]string{"nodb": "1", "ext": "tsm_system_time"}},
				{label: lServer}}},
			"schema":         {variants: append(strAttr("schema", `"public"`), simpleV("other_schema", "schema = \"pg_catalog\""))},
			"version":        {variants: fromMajor(14, strAttr("version", `"1.8"`))}, // hstore 1.8 ships with PostgreSQL 14+
			"create_cascade": {variants: boolCfgOnly("create_cascade")},
			"drop_cascade":   {variants: boolCfgOnly("drop_cascade")},
		},
		v0: v0Dotted("database", "name"),
	},
	"postgresql_role_setting": {
		setup:       func(t *testing.T, n confNames) { acctest.Database(t, n.P, acctest.AdminUser()) },
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\nparameter = \"work_mem\"\nvalue = \"64MB\"",
		attrs: map[string]confAttr{
			"database": {variants: strAttr("database", `"{{.P}}"`)},
		},
		importID: jsonID("role", "database", "parameter"),
	},
	"postgresql_database_setting": {
		setup:       func(t *testing.T, n confNames) { acctest.Database(t, n.P, acctest.AdminUser()) },
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		// blocks without a role set the database's own setting: each its own parameter
		body: "database = \"{{.P}}\"\nparameter = \"{{with .V.p}}{{.}}{{else}}work_mem{{end}}\"\nvalue = \"{{with .V.v}}{{.}}{{else}}64MB{{end}}\"",
		attrs: map[string]confAttr{
			"role": {variants: []confVariant{
				{label: lUnset},
				{label: lNull, hcl: "role = null", vars: map[string]string{"p": "maintenance_work_mem"}},
				simpleV(lServer, "role = postgresql_role.{{.I}}.name"),
				// PostgreSQL stores the parameter as DateStyle, and prints no other spelling of the value
				{label: "lower_case_parameter", hcl: "role = postgresql_role.{{.I}}.name", vars: map[string]string{"p": "datestyle", "v": "iso, dmy"}},
			}},
		},
		importID: jsonID("database", "role", "parameter"),
	},
	"postgresql_grant_role": {
		prereqs:     preRole + `resource "postgresql_role" "group" { name = "{{.P}}_g" }` + "\n",
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\ngrant_role = postgresql_role.group.name",
		attrs: map[string]confAttr{
			"with_admin_option": {variants: boolAttr("with_admin_option")},
			"inherit_option":    {variants: pg16(boolAttr("inherit_option"))},
			"set_option":        {variants: pg16(boolAttr("set_option"))},
		},
		importID: jsonID("role", "grant_role"),
		v0: func(v0, v1 map[string]any) {
			v0["id"] = fmt.Sprintf("%s_%s_%v", cstr(v1["role"]), cstr(v1["grant_role"]), v1["with_admin_option"] == true)
		},
	},
	"postgresql_default_privileges": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(n.Admin))
		},
		prereqs:     preRole,
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\ndatabase = \"{{.P}}\"\nowner = \"{{.Admin}}\"\nobject_type = \"table\"\nprivileges = [\"SELECT\"]",
		attrs: map[string]confAttr{
			// "" is a global entry, as cyrilgdn read it
			"schema":            {variants: append(strAttr("schema", `"app"`), simpleV(lEmpty, `schema = ""`))},
			"with_grant_option": {variants: boolAttr("with_grant_option")},
		},
		importID: jsonID("role", "database", "owner", "schema", "object_type"),
		v0: func(v0, v1 map[string]any) {
			sch := cstr(v1["schema"])
			if sch == "" {
				sch = "noschema"
			}
			v0["id"] = strings.Join([]string{cstr(v1["role"]), cstr(v1["database"]), sch, cstr(v1["owner"]), cstr(v1["object_type"])}, "_")
			nullToFalse(v0, "with_grant_option")
		},
	},
	"postgresql_grant": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(n.Admin),
				"CREATE TABLE app.t1 (id int, name text)", "ALTER TABLE app.t1 OWNER TO "+acctest.QI(n.Admin))
		},
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\ndatabase = \"{{.P}}\"\n{{if not .V.notype}}object_type = \"table\"\nschema = \"app\"\nprivileges = [\"SELECT\"]{{end}}",
		attrs: map[string]confAttr{
			"schema": {variants: []confVariant{
				{label: lUnset, hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]", vars: map[string]string{"notype": "1"}},
				{label: lNull, hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]\nschema = null", vars: map[string]string{"notype": "1"}},
				{label: lServer},
				// cyrilgdn accepted (and ignored) a schema on the types that take none, and read "" as unset
				{label: "ignored", hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]\nschema = \"public\"", vars: map[string]string{"notype": "1"}},
				{label: lEmpty, hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]\nschema = \"\"", vars: map[string]string{"notype": "1"}}}},
			"objects": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "objects = null"), simpleV(lServer, `objects = ["t1"]`),
				{label: lEmpty, hcl: "objects = []"}}},
			"columns": {variants: []confVariant{
				{label: lServer, hcl: "object_type = \"column\"\nschema = \"app\"\nobjects = [\"t1\"]\ncolumns = [\"id\", \"name\"]\nprivileges = [\"UPDATE\"]", vars: map[string]string{"notype": "1"}},
				{label: lEmpty, hcl: "columns = []"},
				simpleV(lNull, "columns = null")}},
			"with_grant_option": {variants: boolAttr("with_grant_option")},
		},
		importID: func(v map[string]any) string {
			m := map[string]any{"role": v["role"], "database": v["database"], "object_type": v["object_type"]}
			if v["schema"] != nil {
				m["schema"] = v["schema"]
			}
			if v["objects"] != nil {
				m["objects"] = v["objects"]
			}
			if v["columns"] != nil {
				m["columns"] = v["columns"]
			}
			b, _ := json.Marshal(m)
			return string(b)
		},
		v0: func(v0, v1 map[string]any) {
			v0["id"] = grantID(cstr(v1["role"]), cstr(v1["database"]), cstr(v1["schema"]), cstr(v1["object_type"]),
				sortedStrings(v1["objects"]), sortedStrings(v1["columns"]))
			nullToFalse(v0, "with_grant_option")
		},
	},
	// the additive forms: the base configurations of their authoritative forms,
	// and the privileges in the import ID (cyrilgdn had no additive form: no v0 check)
	"postgresql_grant_additive": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(n.Admin),
				"CREATE TABLE app.t1 (id int, name text)", "ALTER TABLE app.t1 OWNER TO "+acctest.QI(n.Admin))
		},
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\ndatabase = \"{{.P}}\"\n{{if not .V.notype}}object_type = \"table\"\nschema = \"app\"\nprivileges = [\"SELECT\"]{{end}}",
		attrs: map[string]confAttr{
			"schema": {variants: []confVariant{
				{label: lUnset, hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]", vars: map[string]string{"notype": "1"}},
				{label: lNull, hcl: "object_type = \"database\"\nprivileges = [\"TEMPORARY\"]\nschema = null", vars: map[string]string{"notype": "1"}},
				{label: lServer},
				{label: "ignored", hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]\nschema = \"public\"", vars: map[string]string{"notype": "1"}},
				{label: lEmpty, hcl: "object_type = \"database\"\nprivileges = [\"CONNECT\"]\nschema = \"\"", vars: map[string]string{"notype": "1"}}}},
			"objects": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "objects = null"), simpleV(lServer, `objects = ["t1"]`),
				{label: lEmpty, hcl: "objects = []"}}},
			"columns": {variants: []confVariant{
				{label: lServer, hcl: "object_type = \"column\"\nschema = \"app\"\nobjects = [\"t1\"]\ncolumns = [\"id\", \"name\"]\nprivileges = [\"UPDATE\"]", vars: map[string]string{"notype": "1"}},
				{label: lEmpty, hcl: "columns = []"},
				simpleV(lNull, "columns = null")}},
			"with_grant_option": {variants: boolAttr("with_grant_option")},
		},
		importID: func(v map[string]any) string {
			m := map[string]any{"role": v["role"], "database": v["database"], "object_type": v["object_type"], "privileges": v["privileges"]}
			for _, k := range []string{"schema", "objects", "columns"} {
				if v[k] != nil {
					m[k] = v[k]
				}
			}
			b, _ := json.Marshal(m)
			return string(b)
		},
	},
	"postgresql_default_privileges_additive": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(n.Admin))
		},
		prereqs:     preRole,
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "role = postgresql_role.{{.I}}.name\ndatabase = \"{{.P}}\"\nowner = \"{{.Admin}}\"\nobject_type = \"table\"\nprivileges = [\"SELECT\"]",
		attrs: map[string]confAttr{
			"schema":            {variants: append(strAttr("schema", `"app"`), simpleV(lEmpty, `schema = ""`))},
			"with_grant_option": {variants: boolAttr("with_grant_option")},
		},
		importID: jsonID("role", "database", "owner", "schema", "object_type", "privileges"),
	},
	"postgresql_object_owner": {
		setup: func(t *testing.T, n confNames) {
			for _, db := range []string{n.P, n.P + "_d1", n.P + "_d2"} {
				acctest.Database(t, db, acctest.AdminUser())
			}
			acctest.AdminExec(t, n.P, "CREATE SCHEMA app", "CREATE TABLE public.t0 (id int)", "CREATE TABLE public.t1 (id int)",
				"CREATE TABLE public.t2 (id int)", "CREATE TABLE app.t3 (id int)")
			// a new owner needs CREATE on the schema (public has none for PUBLIC from PostgreSQL 15)
			acctest.Exec(t, n.P, "GRANT CREATE ON SCHEMA public, app TO PUBLIC")
		},
		prereqs: preRole,
		body: "{{if .V.db}}object_type = \"database\"\nobject_name = \"{{.P}}_d{{.V.db}}\"{{else}}object_type = \"table\"\nobject_name = \"t{{.V.t}}\"{{end}}\n" +
			"owner = postgresql_role.pre.name",
		attrs: map[string]confAttr{
			"database": {variants: []confVariant{
				{label: lUnset, vars: map[string]string{"db": "1"}},
				{label: lNull, hcl: "database = null", vars: map[string]string{"db": "2"}},
				{label: lServer, hcl: `database = "{{.P}}"`, vars: map[string]string{"t": "0"}}}},
			"schema": {variants: []confVariant{
				{label: lUnset, hcl: `database = "{{.P}}"`, vars: map[string]string{"t": "0"}},
				{label: lNull, hcl: "database = \"{{.P}}\"\nschema = null", vars: map[string]string{"t": "1"}},
				{label: lServer, hcl: "database = \"{{.P}}\"\nschema = \"public\"", vars: map[string]string{"t": "2"}},
				{label: "other_schema", hcl: "database = \"{{.P}}\"\nschema = \"app\"", vars: map[string]string{"t": "3"}}}},
		},
		// objects outside the provider's database are imported as <database>.<id>
		importID: func(v map[string]any) string {
			if db := cstr(v["database"]); db != "" && db != acctest.DefaultDatabase() {
				return db + "." + cstr(v["id"])
			}
			return cstr(v["id"])
		},
	},
	"postgresql_publication": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE SCHEMA app AUTHORIZATION "+acctest.QI(n.Admin),
				"CREATE TABLE public.t1 (id int primary key)", "ALTER TABLE public.t1 OWNER TO "+acctest.QI(n.Admin),
				"CREATE TABLE app.t2 (id int primary key)", "ALTER TABLE app.t2 OWNER TO "+acctest.QI(n.Admin),
				// a new owner of a publication needs CREATE on its database
				"GRANT CREATE ON DATABASE "+acctest.QI(n.P)+" TO PUBLIC")
		},
		prereqs: preRole,
		body:    "name = \"{{.I}}\"\ndatabase = \"{{.P}}\"",
		attrs: map[string]confAttr{
			"database":   {none: "every block sets it (the tables live in the test's database); the publication tests cover the default database"},
			"owner":      {variants: append(strAttr("owner", `"{{.Admin}}"`), simpleV("other_role", "owner = postgresql_role.pre.name"))},
			"all_tables": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "all_tables = null"), simpleV("false", "all_tables = false"), {label: "true", hcl: "all_tables = true", superuserOnly: "FOR ALL TABLES needs superuser"}}},
			"tables":     {variants: append(strAttr("tables", `["public.t1", "app.t2"]`, `["t1", "app.t2"]`), simpleV(lEmpty, "tables = []"))},
			"schemas": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "schemas = null"), simpleV(lEmpty, "schemas = []"),
				{label: lServer, hcl: `schemas = ["app"]`, superuserOnly: "FOR TABLES IN SCHEMA needs superuser (every version)", minMajor: 15}}},
			"publish_param":                    {variants: append(strAttr("publish_param", `["insert", "update", "delete", "truncate"]`, `["insert", "delete"]`), simpleV(lEmpty, "publish_param = []"))},
			"publish_via_partition_root_param": {variants: boolAttr("publish_via_partition_root_param")},
			"publish_generated_columns_param": {variants: pg18([]confVariant{{label: lUnset}, simpleV(lNull, "publish_generated_columns_param = null"),
				simpleV("none", `publish_generated_columns_param = "none"`), simpleV("stored", `publish_generated_columns_param = "stored"`)})},
			"drop_cascade": {variants: boolCfgOnly("drop_cascade")},
		},
		v0: func(v0, v1 map[string]any) {
			v0["id"] = cstr(v1["database"]) + "." + cstr(v1["name"])
		},
	},
	"postgresql_table_rls": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			stmts := []string{"CREATE SCHEMA app AUTHORIZATION " + acctest.QI(n.Admin)}
			for i := range 12 {
				for _, s := range []string{"public", "app"} {
					stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s.t%d (id int)", s, i), fmt.Sprintf("ALTER TABLE %s.t%d OWNER TO %s", s, i, acctest.QI(n.Admin)))
				}
			}
			acctest.Exec(t, n.P, stmts...)
		},
		body: "database = \"{{.P}}\"\ntable = \"t{{.V.t}}\"",
		attrs: map[string]confAttr{
			"database": {none: "every block sets it (the tables live in the test's database)"},
			"schema": {variants: []confVariant{{label: lUnset, vars: map[string]string{"t": "0"}}, {label: lNull, hcl: "schema = null", vars: map[string]string{"t": "1"}},
				{label: lServer, hcl: `schema = "public"`, vars: map[string]string{"t": "2"}}, {label: "other_schema", hcl: `schema = "app"`, vars: map[string]string{"t": "2"}}}},
			"enabled": {variants: []confVariant{{label: lNull, hcl: "enabled = null", vars: map[string]string{"t": "3"}},
				{label: "true", hcl: "enabled = true", vars: map[string]string{"t": "4"}}, {label: "false", hcl: "enabled = false", vars: map[string]string{"t": "5"}}}},
			"force": {variants: []confVariant{{label: lNull, hcl: "force = null", vars: map[string]string{"t": "6"}},
				{label: "true", hcl: "force = true", vars: map[string]string{"t": "7"}}, {label: "false", hcl: "force = false", vars: map[string]string{"t": "8"}}}},
		},
	},
	"postgresql_function": {
		prereqs: `resource "postgresql_schema" "fn" { name = "{{.P}}_fn" }` + "\n",
		body:    "name = \"{{.I}}\"\n{{if not .V.noret}}returns = \"integer\"\n{{end}}{{if not .V.nolang}}language = \"sql\"\n{{end}}body = \"{{with .V.body}}{{.}}{{else}}SELECT 1{{end}}\"",
		attrs: map[string]confAttr{
			"database": {variants: strAttr("database", `"postgres"`)},
			"schema":   {variants: append(strAttr("schema", `"public"`), simpleV("other_schema", "schema = postgresql_schema.fn.name"))},
			"language": {variants: []confVariant{
				{label: lUnset, vars: map[string]string{"nolang": "1", "body": "BEGIN RETURN 1; END;"}},
				{label: lNull, hcl: "language = null", vars: map[string]string{"nolang": "1", "body": "BEGIN RETURN 1; END;"}},
				{label: lServer},
				{label: lAlias, hcl: `language = "SQL"`, vars: map[string]string{"nolang": "1"}}}},
			"volatility":       {variants: strAttr("volatility", `"VOLATILE"`, `"immutable"`)},
			"parallel":         {variants: strAttr("parallel", `"UNSAFE"`, `"safe"`)},
			"strict":           {variants: boolAttr("strict")},
			"security_definer": {variants: boolAttr("security_definer")},
			"drop_cascade":     {variants: boolCfgOnly("drop_cascade")},
			"returns": {variants: []confVariant{
				{label: lUnset, vars: map[string]string{"noret": "1", "body": "SELECT 1"}},
				{label: lNull, hcl: "returns = null", vars: map[string]string{"noret": "1"}},
				{label: lServer},
				{label: lAlias, hcl: `returns = "int4"`, vars: map[string]string{"noret": "1"}},
			}},
			"arg":      {variants: []confVariant{{label: lUnset}, simpleV("one", "arg {\n  name = \"a\"\n  type = \"integer\"\n}")}},
			"arg.name": {variants: []confVariant{simpleV(lNull, "arg {\n  type = \"integer\"\n}"), simpleV(lServer, "arg {\n  name = \"b\"\n  type = \"integer\"\n}")}},
			"arg.mode": {variants: []confVariant{simpleV(lServer, "arg {\n  name = \"a\"\n  mode = \"IN\"\n  type = \"integer\"\n}"),
				simpleV(lAlias, "arg {\n  name = \"a\"\n  mode = \"in\"\n  type = \"integer\"\n}")}},
			"arg.default": {variants: []confVariant{simpleV(lNull, "arg {\n  name = \"a\"\n  type = \"integer\"\n  default = null\n}"),
				simpleV(lServer, "arg {\n  name = \"a\"\n  type = \"integer\"\n  default = \"1\"\n}")}},
		},
		v0: func(v0, v1 map[string]any) {
			var types []string
			if args, ok := v1["arg"].([]any); ok {
				out := make([]any, 0, len(args))
				for _, a := range args {
					m := map[string]any{}
					for k, v := range a.(map[string]any) {
						m[k] = v
					}
					nullToEmpty(m, "default", "name")
					out = append(out, m)
					if mode := cstr(m["mode"]); mode != "OUT" {
						types = append(types, cstr(m["type"]))
					}
				}
				v0["arg"] = out
			}
			v0["id"] = fmt.Sprintf("%s.%s.%s(%s)", cstr(v1["database"]), cstr(v1["schema"]), cstr(v1["name"]), strings.Join(types, ","))
			nullToFalse(v0, "drop_cascade")
		},
	},
	"postgresql_replication_slot": {
		skip: func(t *testing.T) {
			acctest.SkipIfManaged(t, "creating replication slots needs superuser or REPLICATION")
		},
		setup: func(t *testing.T, n confNames) { acctest.Database(t, n.P, acctest.AdminUser()) },
		body:  "name = \"{{.I}}\"\nplugin = \"test_decoding\"",
		attrs: map[string]confAttr{
			"database": {variants: strAttr("database", `"{{.P}}"`)},
		},
		v0: v0Dotted("database", "name"),
	},
	"postgresql_physical_replication_slot": {
		skip: func(t *testing.T) {
			acctest.SkipIfManaged(t, "creating replication slots needs superuser or REPLICATION")
		},
		body:  `name = "{{.I}}"`,
		base:  []confVariant{{label: lUnset}},
		attrs: map[string]confAttr{},
		v0:    func(v0, v1 map[string]any) { v0["id"] = v1["name"] },
	},
	"postgresql_subscription": {
		skip:            skipSubscriptionIfManagedBefore16,
		managedNoImport: "pg_subscription.subconninfo is readable by superusers only: after an import by the managed admin the first apply sets conninfo again (TestAccSubscription_lifecycle covers it)",
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P+"_pub", acctest.AdminUser())
			acctest.Database(t, n.P, acctest.AdminUser())
			stmts := []string{"CREATE PUBLICATION pub_a"}
			for i := range 10 { // one per block (their slots are named after them)
				stmts = append(stmts, fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s_%d', 'pgoutput')", n.P, i))
			}
			stmts = append(stmts, fmt.Sprintf("SELECT pg_create_logical_replication_slot('%s_named', 'pgoutput')", n.P)) // slot_name's
			acctest.Exec(t, n.P+"_pub", stmts...)
			t.Cleanup(func() {
				acctest.Exec(t, "", fmt.Sprintf("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name LIKE '%s%%' AND NOT active", n.P))
			})
		},
		body: "name = \"{{.I}}\"\n{{if not .V.nodb}}database = \"{{.P}}\"\n{{end}}{{if not .V.wo}}conninfo = \"{{.Conninfo}}\"\n{{end}}publications = [\"pub_a\"]\n{{if not .V.noslot}}create_slot = false\n{{end}}",
		attrs: map[string]confAttr{
			"database":    {variants: []confVariant{{label: lUnset, vars: map[string]string{"nodb": "1"}}, {label: lNull, hcl: "database = null", vars: map[string]string{"nodb": "1"}}, {label: lServer}}},
			"create_slot": {variants: []confVariant{{label: "false"}}, none: "true (the default) creates the slot through a connection back to the same cluster, which blocks (a PostgreSQL limitation): unset, null and true are covered by the subscription tests against a slot made beforehand"},
			"slot_name":   {variants: []confVariant{{label: lUnset}, simpleV(lNull, "slot_name = null"), simpleV(lServer, `slot_name = "{{.P}}_named"`)}},
			"enabled":     {variants: boolAttr("enabled")},
			"conninfo":    {none: "every block but the conninfo_wo one sets it (a subscription needs exactly one of conninfo and conninfo_wo)"},
			"conninfo_wo": {none: "write-only: never in state nor read back; covered with conninfo_wo_version below"},
			"conninfo_wo_version": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "conninfo_wo_version = null"),
				{label: "set", hcl: "conninfo_wo = \"{{.Conninfo}}\"\nconninfo_wo_version = \"1\"", vars: map[string]string{"wo": "1"}, noImport: woImport, noV0: woNoV0}}},
		},
		v0: v0Dotted("database", "name"),
	},
	"postgresql_server": {
		serial: false,
		setup: func(t *testing.T, n confNames) {
			acctest.TempDatabase(t, n.P, acctest.FDWSetup...)
		},
		prereqs: preRole,
		body:    "server_name = \"{{.I}}\"\nfdw_name = \"postgres_fdw\"\ndatabase = \"{{.P}}\"",
		attrs: map[string]confAttr{
			"database":       {none: "every block sets it: postgres_fdw is installed in the test's own database (the server tests cover the default database)"},
			"server_type":    {variants: strAttr("server_type", `""`, `"postgresql"`)},
			"server_version": {variants: strAttr("server_version", `""`, `"15"`)},
			"server_owner":   {variants: append(strAttr("server_owner", `"{{.Admin}}"`), simpleV("other_role", "server_owner = postgresql_role.pre.name"))},
			"options": {variants: append(strAttr("options", `{ host = "db.example.internal", port = "5432", dbname = "remote" }`),
				simpleV(lEmpty, "options = {}"))},
			"drop_cascade": {variants: boolCfgOnly("drop_cascade")},
			"options_wo":   {none: "write-only: never in state nor read back; covered with options_wo_version below"},
			"options_wo_version": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "options_wo_version = null"),
				{label: "set", hcl: "options = { host = \"db.example.internal\" }\noptions_wo = { dbname = \"conf-wo-1\" }\noptions_wo_version = \"1\"", noImport: woImport}}},
		},
		importID: func(v map[string]any) string { return cstr(v["database"]) + "." + cstr(v["server_name"]) },
		noV0:     fdwNoV0,
		v0: func(v0, v1 map[string]any) {
			v0["id"] = v1["server_name"]
			nullToEmpty(v0, "server_type", "server_version")
		},
	},
	"postgresql_user_mapping": {
		setup: func(t *testing.T, n confNames) {
			acctest.TempDatabase(t, n.P, append(acctest.FDWSetup, "CREATE SERVER srv FOREIGN DATA WRAPPER postgres_fdw",
				"GRANT USAGE ON FOREIGN SERVER srv TO "+acctest.QI(n.Admin)+" WITH GRANT OPTION", "ALTER SERVER srv OWNER TO "+acctest.QI(n.Admin))...)
		},
		perInstance: "resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n",
		body:        "server_name = \"srv\"\nuser_name = postgresql_role.{{.I}}.name\ndatabase = \"{{.P}}\"",
		attrs: map[string]confAttr{
			"database": {none: "every block sets it: the server lives in the test's own database"},
			"options": {variants: append(append(strAttr("options")[:2], confVariant{label: lServer, hcl: `options = { user = "remote_user", password = "remote-pass" }`,
				managedNoImport: "PostgreSQL shows a role's mapping options only to superusers and to that role: the managed admin cannot import them"}),
				confVariant{label: lEmpty, hcl: "options = {}", managedNoImport: optionsHiddenEmpty})},
			"options_wo": {none: "write-only: never in state nor read back; covered with options_wo_version below"},
			"options_wo_version": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "options_wo_version = null"),
				{label: "set", hcl: "options = { user = \"remote_user\" }\noptions_wo = { password = \"conf-wo-1\" }\noptions_wo_version = \"1\"", noImport: woImport}}},
		},
		importID: func(v map[string]any) string {
			return cstr(v["database"]) + "." + cstr(v["user_name"]) + "." + cstr(v["server_name"])
		},
		noV0: fdwNoV0,
		v0:   v0Dotted("user_name", "server_name"),
	},
	"postgresql_policy": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE TABLE public.t1 (id int, owner text)", "ALTER TABLE public.t1 OWNER TO "+acctest.QI(n.Admin))
		},
		prereqs: preRole,
		body:    "name = \"{{.I}}\"\ndatabase = \"{{.P}}\"\ntable = \"t1\"",
		attrs: map[string]confAttr{
			"database":   {none: "every block sets it: the table lives in the test's own database"},
			"schema":     {variants: strAttr("schema", `"public"`)},
			"command":    {variants: append(strAttr("command", `"ALL"`), simpleV("select", `command = "SELECT"`))},
			"permissive": {variants: boolAttr("permissive")},
			"roles":      {variants: append(strAttr("roles", `["public"]`), confVariant{label: lAlias, hcl: `roles = ["PUBLIC"]`}, simpleV("other_role", "roles = [postgresql_role.pre.name]"))},
			"using": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "using = null"), simpleV(lServer, `using = "(id > 0)"`),
				{label: lAlias, hcl: `using = "id>0"`}}},
			"with_check": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "with_check = null"), simpleV(lServer, `with_check = "(owner = CURRENT_USER)"`),
				{label: lAlias, hcl: `with_check = "owner = current_user"`}}},
		},
	},
	"postgresql_event_trigger": {
		skip: func(t *testing.T) {
			acctest.SkipIfManaged(t, "PostgreSQL lets only superusers create event triggers, and their owner must be a superuser")
		},
		setup: func(t *testing.T, n confNames) {
			acctest.TempDatabase(t, n.P, `CREATE SCHEMA "Audit"`,
				`CREATE FUNCTION public.log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN END$$`,
				`CREATE FUNCTION "Audit".log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN END$$`)
		},
		body: "name = \"{{.I}}\"\ndatabase = \"{{.P}}\"\nevent = \"ddl_command_end\"\nfunction = \"log_ddl\"",
		attrs: map[string]confAttr{
			"database": {none: "every block sets it: the trigger function lives in the test's own database"},
			// tags = [] is rejected by the schema (an empty filter is spelled by leaving tags out)
			"tags":            {variants: append(strAttr("tags", `["CREATE TABLE", "ALTER TABLE"]`), confVariant{label: lAlias, hcl: `tags = ["create table"]`})},
			"function_schema": {variants: append(strAttr("function_schema", `"public"`), simpleV("quoted", `function_schema = "Audit"`))},
			"enabled":         {variants: append(strAttr("enabled", `"ORIGIN"`), simpleV("always", `enabled = "ALWAYS"`), simpleV("disabled", `enabled = "DISABLED"`))},
			"owner":           {variants: strAttr("owner", `"{{.Admin}}"`)},
		},
	},
	"postgresql_security_label": {
		skip: skipWithoutDummyLabelProvider,
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE TABLE public.t1 (id int)", "ALTER TABLE public.t1 OWNER TO "+acctest.QI(n.Admin))
		},
		perInstance: "{{if not .V.table}}resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n{{end}}",
		body:        "label_provider = \"dummy\"\nlabel = \"classified\"\n{{if .V.table}}object_type = \"table\"\nobject_name = \"t1\"\n{{else}}object_type = \"role\"\nobject_name = postgresql_role.{{.I}}.name\n{{end}}",
		attrs: map[string]confAttr{
			"database": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "database = null"), {label: lServer, hcl: `database = "{{.P}}"`, vars: map[string]string{"table": "1"}, noV0: labelOtherDatabase}}},
			"schema":   {variants: []confVariant{{label: lUnset}, simpleV(lNull, "schema = null"), {label: lServer, hcl: "database = \"{{.P}}\"\nschema = \"public\"", vars: map[string]string{"table": "1"}, noV0: labelOtherDatabase}}},
		},
		// labels outside the provider's database are imported as <database>.<id>
		importID: func(v map[string]any) string {
			if db := cstr(v["database"]); db != "" && db != acctest.DefaultDatabase() {
				return db + "." + cstr(v["id"])
			}
			return cstr(v["id"])
		},
		v0: func(v0, v1 map[string]any) {
			v0["id"] = fmt.Sprintf("%s.%s.%s", cstr(v1["label_provider"]), cstr(v1["object_type"]), cstr(v1["object_name"]))
		},
	},
	"postgresql_comment": {
		setup: func(t *testing.T, n confNames) {
			acctest.Database(t, n.P, acctest.AdminUser())
			acctest.Exec(t, n.P, "CREATE TABLE public.t1 (id int)", "ALTER TABLE public.t1 OWNER TO "+acctest.QI(n.Admin))
		},
		perInstance: "{{if not .V.table}}resource \"postgresql_role\" \"{{.I}}\" { name = \"{{.I}}\" }\n{{end}}",
		// every block on t1 sets the same comment: they comment on one table
		body: "comment = \"conformance\"\n{{if .V.column}}object_type = \"column\"\nobject_name = \"t1\"\n{{else if .V.table}}object_type = \"table\"\nobject_name = \"t1\"\n" +
			"{{else}}object_type = \"role\"\nobject_name = postgresql_role.{{.I}}.name\n{{end}}",
		attrs: map[string]confAttr{
			"database": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "database = null"),
				{label: lServer, hcl: `database = "{{.P}}"`, vars: map[string]string{"table": "1"}}}},
			"schema": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "schema = null"),
				{label: lServer, hcl: "database = \"{{.P}}\"\nschema = \"public\"", vars: map[string]string{"table": "1"}},
				{label: "column", hcl: "database = \"{{.P}}\"\nschema = \"public\"\ncolumn_name = \"id\"", vars: map[string]string{"table": "1", "column": "1"}}}},
			"column_name": {variants: []confVariant{{label: lUnset}, simpleV(lNull, "column_name = null"),
				{label: lServer, hcl: "database = \"{{.P}}\"\ncolumn_name = \"id\"", vars: map[string]string{"table": "1", "column": "1"}}}},
		},
		// comments outside the provider's database are imported as <database>.<id>
		importID: func(v map[string]any) string {
			if db := cstr(v["database"]); db != "" && db != acctest.DefaultDatabase() {
				return db + "." + cstr(v["id"])
			}
			return cstr(v["id"])
		},
	},
}
