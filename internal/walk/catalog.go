package walk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Conn runs SQL on the test cluster as the superuser, one session per
// database and call (a session kept open would stop a database from being
// renamed or dropped).
type Conn struct {
	Host, Port, User, Password string
}

// Query runs q in database db and returns its rows as text (NULL as "").
func (k Conn) Query(ctx context.Context, db, q string, args ...any) ([][]string, error) {
	var out [][]string
	err := k.with(ctx, db, func(conn *pgx.Conn) error {
		rows, err := conn.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			row := make([]string, len(vals))
			for i, v := range vals {
				if v != nil {
					row[i] = fmt.Sprint(v)
				}
			}
			out = append(out, row)
		}
		return rows.Err()
	})
	return out, err
}

// Exec runs statements, each in its database, in order.
func (k Conn) Exec(ctx context.Context, stmts []Stmt) error {
	for i := 0; i < len(stmts); {
		j := i
		for j < len(stmts) && stmts[j].DB == stmts[i].DB {
			j++
		}
		err := k.with(ctx, stmts[i].DB, func(conn *pgx.Conn) error {
			for _, s := range stmts[i:j] {
				if _, err := conn.Exec(ctx, s.SQL); err != nil {
					var pgErr *pgconn.PgError
					if errors.As(err, &pgErr) && pgErr.Detail != "" {
						return fmt.Errorf("%s: %w (%s)", s.SQL, err, pgErr.Detail)
					}
					return fmt.Errorf("%s: %w", s.SQL, err)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("in database %q: %w", stmts[i].DB, err)
		}
		i = j
	}
	return nil
}

func (k Conn) with(ctx context.Context, db string, f func(*pgx.Conn) error) error {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s sslmode=disable", k.Host, k.Port))
	if err != nil {
		return err
	}
	cfg.Database, cfg.User, cfg.Password = db, k.User, k.Password
	cfg.RuntimeParams["application_name"] = "pgtf-walk"
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		return fmt.Errorf("connecting to %q: %w", db, err)
	}
	defer conn.Close(context.Background())
	return f(conn)
}

// SuperConn is the superuser's Conn to the test cluster of the environment.
func SuperConn(user, password string) Conn {
	return Conn{Host: os.Getenv("PGHOST"), Port: os.Getenv("PGPORT"), User: user, Password: password}
}

// privilege sets: privilege name, "*" appended when grantable
type privSet map[string]bool // privilege -> grantable

func (p privSet) add(priv string, grantable bool) { p[priv] = p[priv] || grantable }

func (p privSet) String() string {
	var out []string
	for k, g := range p {
		if g {
			k += "*"
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return "{" + strings.Join(out, " ") + "}"
}

// expand is the privileges a configured list means on the server.
func expand(typ string, privs []string, major int) []string {
	if !slices.Contains(privs, "ALL") {
		return privs
	}
	all := slices.Clone(privileges[typ])
	if typ == "table" && major >= 17 {
		all = append(all, "MAINTAIN")
	}
	return all
}

// Check compares the catalog with what configuration c says, and returns
// every difference (none: the catalog matches): objects that should exist and
// do not or should not and do, attributes, owners, privileges (exactly, for
// the walk's roles, on the objects grants and policies cover: nothing extra
// where a resource is authoritative), memberships, default privileges,
// settings, comments, row-level security and policies.
func Check(ctx context.Context, k Conn, c *Config, e Env, inh Inherited) ([]string, error) {
	ck := &checker{k: k, c: c, e: e, n: names{c, e}, prefix: e.Prefix + "_", inh: inh}
	if err := ck.run(ctx); err != nil {
		return nil, err
	}
	sort.Strings(ck.diffs)
	return ck.diffs, nil
}

type checker struct {
	k      Conn
	c      *Config
	e      Env
	n      names
	prefix string
	diffs  []string

	// actual privileges: securable -> grantee -> privileges; owners of securables
	acl    map[string]map[string]privSet
	owners map[string]string
	want   map[string]map[string]privSet // covered pairs
	inh    Inherited                     // what default privileges may have given
}

// Inherited is what default privileges may have given the schemas the walk
// made: PostgreSQL gives a new schema what the default privileges of its
// owner say, and when the schema and those default privileges are created
// in the same step Terraform runs them in either order; what they gave stays
// (no resource of the walk is authoritative over it, and REVOKE ALL of a
// policy block that goes takes it too). Schema key -> grantee key ->
// privileges (grantable where the entry says WITH GRANT OPTION).
type Inherited map[string]map[string]privSet

// Update forgets the schemas next no longer has (or moves to another
// database, where a new schema is made) and records, for each schema next
// makes, what the default privileges of prev or next for its owner in its
// database may give it. A schema the step's drift dropped is made again
// (long walk seed 24509 step 20 on PostgreSQL 18).
func (h Inherited) Update(prev, next *Config, major int, drift []Drift) {
	moved := func(k string) bool {
		p, s := prev.Schema(k), next.Schema(k)
		return p == nil || s == nil || p.DB != s.DB ||
			slices.ContainsFunc(drift, func(d Drift) bool { return d.Op == "dropschema" && d.Key == k })
	}
	for k := range h {
		if next.Schema(k) == nil || moved(k) {
			delete(h, k)
		}
	}
	for _, s := range next.Schemas {
		if !moved(s.Key) {
			continue
		}
		m := map[string]privSet{}
		for _, c := range []*Config{prev, next} {
			for _, d := range c.DefaultPrivs {
				if d.Type != "schema" || d.Owner != s.Owner || d.DB != s.DB {
					continue
				}
				if m[d.Role] == nil {
					m[d.Role] = privSet{}
				}
				for _, x := range expand("schema", d.Privs, major) {
					m[d.Role].add(x, d.WGO)
				}
			}
		}
		if len(m) > 0 {
			h[s.Key] = m
		}
	}
}

// inherits reports whether got, which differs from want, holds no more than
// what want and what default privileges may have given (may) say, and all
// of want.
func inherits(got, want, may privSet) bool {
	for p, g := range want {
		if gg, ok := got[p]; !ok || (gg != g && (!gg || !may[p])) {
			return false
		}
	}
	for p, g := range got {
		if _, ok := want[p]; ok {
			continue
		}
		if mg, ok := may[p]; !ok || (g && !mg) {
			return false
		}
	}
	return true
}

func (ck *checker) diff(format string, args ...any) {
	ck.diffs = append(ck.diffs, fmt.Sprintf(format, args...))
}

// compareSets reports the elements of got and want that differ.
func (ck *checker) compareSets(what string, got, want []string) {
	g, w := map[string]bool{}, map[string]bool{}
	for _, x := range got {
		g[x] = true
	}
	for _, x := range want {
		w[x] = true
	}
	for _, x := range dedupe(want) {
		if !g[x] {
			ck.diff("%s: missing %s", what, x)
		}
	}
	for _, x := range dedupe(got) {
		if !w[x] {
			ck.diff("%s: unexpected %s", what, x)
		}
	}
}

func (ck *checker) run(ctx context.Context) error {
	ck.acl, ck.owners, ck.want = map[string]map[string]privSet{}, map[string]string{}, map[string]map[string]privSet{}
	c, e, n := ck.c, ck.e, ck.n
	// roles
	rows, err := ck.k.Query(ctx, "postgres", `SELECT rolname, rolcanlogin::text, rolinherit::text, rolcreatedb::text, rolconnlimit::text
		FROM pg_roles WHERE starts_with(rolname, $1)`, ck.prefix)
	if err != nil {
		return err
	}
	var got, want []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q login=%s inherit=%s createdb=%s connlimit=%s", r[0], r[1], r[2], r[3], r[4]))
	}
	for _, r := range c.Roles {
		limit := r.ConnLimit
		if limit == 0 {
			limit = -1
		}
		want = append(want, fmt.Sprintf("%q login=%t inherit=%t createdb=%t connlimit=%d", e.Name(r.Name), r.Login, !r.NoInherit, r.CreateDB, limit))
	}
	ck.compareSets("role", got, want)

	// memberships
	rows, err = ck.k.Query(ctx, "postgres", `SELECT m.rolname, g.rolname, bool_or(a.admin_option)::text
		FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member JOIN pg_roles g ON g.oid = a.roleid
		WHERE starts_with(m.rolname, $1) AND starts_with(g.rolname, $1) GROUP BY 1, 2`, ck.prefix)
	if err != nil {
		return err
	}
	held := map[string]string{} // member \x00 group -> admin option
	for _, r := range rows {
		held[r[0]+"\x00"+r[1]] = r[2]
	}
	// a role is a member of exactly the groups its roles name where it is
	// set, else of those its postgresql_grant_role resources name (nothing
	// else in the walk makes memberships between walk roles)
	for _, r := range c.Roles {
		got, want = nil, nil
		for k := range held {
			if m, g, _ := strings.Cut(k, "\x00"); m == e.Name(r.Name) {
				got = append(got, g)
			}
		}
		source := "grant_role"
		if r.ManageRoles {
			source = "roles"
			for _, g := range r.Roles {
				want = append(want, n.roleName(g))
			}
		} else {
			for _, m := range c.Members {
				if m.Role == r.Key {
					want = append(want, n.roleName(m.Group))
				}
			}
		}
		ck.compareSets(fmt.Sprintf("memberships of %q (%s)", e.Name(r.Name), source), got, want)
	}
	for _, m := range c.Members {
		a, ok := held[n.roleName(m.Role)+"\x00"+n.roleName(m.Group)]
		if !ok {
			ck.diff("grant_role %s: %q is not a member of %q", m.Key, n.roleName(m.Role), n.roleName(m.Group))
		} else if a != fmt.Sprint(m.Admin) {
			ck.diff("grant_role %s: %q in %q with admin option %s, want %t", m.Key, n.roleName(m.Role), n.roleName(m.Group), a, m.Admin)
		}
	}

	// databases
	rows, err = ck.k.Query(ctx, "postgres", `SELECT datname, pg_get_userbyid(datdba), datconnlimit::text FROM pg_database WHERE starts_with(datname, $1)`, ck.prefix)
	if err != nil {
		return err
	}
	got, want = nil, nil
	dbs := []string{e.BaseDB()}
	for _, r := range rows {
		if r[0] == e.BaseDB() {
			continue
		}
		dbs = append(dbs, r[0])
		got = append(got, fmt.Sprintf("%q owner=%q connlimit=%s", r[0], r[1], r[2]))
		ck.owners["database "+r[0]] = r[1]
	}
	ck.owners["database "+e.BaseDB()] = e.Admin
	for _, d := range c.Databases {
		limit := d.ConnLimit
		if limit == 0 {
			limit = -1
		}
		want = append(want, fmt.Sprintf("%q owner=%q connlimit=%d", e.Name(d.Name), n.roleName(d.Owner), limit))
	}
	ck.compareSets("database", got, want)
	if err := ck.aclRows(ctx, "postgres", `SELECT 'database ' || d.datname, coalesce(r.rolname, 'PUBLIC'), a.privilege_type, a.is_grantable::text
		FROM pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a LEFT JOIN pg_roles r ON r.oid = a.grantee
		WHERE starts_with(d.datname, $1)`); err != nil {
		return err
	}

	// settings
	rows, err = ck.k.Query(ctx, "postgres", `SELECT coalesce(d.datname, '*'), coalesce(r.rolname, '*'), unnest(s.setconfig)
		FROM pg_db_role_setting s LEFT JOIN pg_database d ON d.oid = s.setdatabase LEFT JOIN pg_roles r ON r.oid = s.setrole
		WHERE starts_with(d.datname, $1) OR starts_with(r.rolname, $1)`, ck.prefix)
	if err != nil {
		return err
	}
	got, want = nil, nil
	for _, r := range rows {
		got = append(got, settingFact(r[0], r[1], r[2]))
	}
	for _, r := range c.Roles {
		if len(r.SearchPath) > 0 {
			want = append(want, settingFact("*", e.Name(r.Name), "search_path="+strings.Join(r.SearchPath, ", ")))
		}
		if r.StatementTimeout != 0 {
			want = append(want, settingFact("*", e.Name(r.Name), fmt.Sprintf("statement_timeout=%d", r.StatementTimeout)))
		}
	}
	for _, s := range c.RoleSettings {
		db := "*"
		if s.DB != AllDatabases {
			db = n.dbName(s.DB)
		}
		want = append(want, settingFact(db, n.roleName(s.Role), s.Param+"="+s.Value))
	}
	for _, s := range c.DBSettings {
		role := "*"
		if s.Role != "" {
			role = n.roleName(s.Role)
		}
		want = append(want, settingFact(n.dbName(s.DB), role, s.Param+"="+s.Value))
	}
	ck.compareSets("setting", got, want)

	// comments on roles and databases
	rows, err = ck.k.Query(ctx, "postgres", `SELECT 'role', rolname, shobj_description(oid, 'pg_authid') FROM pg_roles
		WHERE starts_with(rolname, $1) AND shobj_description(oid, 'pg_authid') IS NOT NULL
		UNION ALL SELECT 'database', datname, shobj_description(oid, 'pg_database') FROM pg_database
		WHERE starts_with(datname, $1) AND shobj_description(oid, 'pg_database') IS NOT NULL`, ck.prefix)
	if err != nil {
		return err
	}
	got, want = nil, nil
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %q: %q", r[0], r[1], r[2]))
	}
	for _, cm := range c.Comments {
		switch cm.Kind {
		case "role":
			want = append(want, fmt.Sprintf("role %q: %q", n.roleName(cm.Target), cm.Text))
		case "database":
			want = append(want, fmt.Sprintf("database %q: %q", n.dbName(cm.Target), cm.Text))
		}
	}
	ck.compareSets("comment", got, want)

	// each database
	for _, db := range dbs {
		if err := ck.database(ctx, db); err != nil {
			return err
		}
	}
	ck.fixture(ctx)
	ck.expectedACLs()
	ck.compareACLs()
	return nil
}

// settingFact is a setting as "db role param=value", the value without
// spaces and double quotes (list parameters).
func settingFact(db, role, setting string) string {
	p, v, _ := strings.Cut(setting, "=")
	v = strings.NewReplacer(" ", "", `"`, "").Replace(v)
	return fmt.Sprintf("%q %q %s=%s", db, role, p, v)
}

// aclRows reads privileges: rows of securable, grantee, privilege, grantable.
func (ck *checker) aclRows(ctx context.Context, db, q string) error {
	rows, err := ck.k.Query(ctx, db, q, ck.prefix)
	if err != nil {
		return err
	}
	for _, r := range rows {
		m := ck.acl[r[0]]
		if m == nil {
			m = map[string]privSet{}
			ck.acl[r[0]] = m
		}
		if m[r[1]] == nil {
			m[r[1]] = privSet{}
		}
		m[r[1]].add(r[2], r[3] == "true")
	}
	return nil
}

// database checks what lives in one database: schemas (owners, comments),
// functions, extensions and default privileges, and reads privileges on
// schemas and functions.
func (ck *checker) database(ctx context.Context, db string) error {
	c, e, n := ck.c, ck.e, ck.n
	inDB := func(key string) bool { return n.dbName(key) == db }
	rows, err := ck.k.Query(ctx, db, `SELECT nspname, pg_get_userbyid(nspowner), coalesce(obj_description(oid, 'pg_namespace'), '')
		FROM pg_namespace WHERE starts_with(nspname, $1)`, ck.prefix)
	if err != nil {
		return err
	}
	var got, want, gotC, wantC []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q owner=%q", r[0], r[1]))
		ck.owners["schema "+db+"."+r[0]] = r[1]
		if r[2] != "" {
			gotC = append(gotC, fmt.Sprintf("schema %q: %q", r[0], r[2]))
		}
	}
	for _, s := range c.Schemas {
		if inDB(s.DB) {
			want = append(want, fmt.Sprintf("%q owner=%q", e.Name(s.Name), n.roleName(s.Owner)))
		}
	}
	ck.compareSets("schema in "+db, got, want)
	if err := ck.aclRows(ctx, db, `SELECT 'schema '||current_database()||'.'||n.nspname, coalesce(r.rolname, 'PUBLIC'), a.privilege_type, a.is_grantable::text
		FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a LEFT JOIN pg_roles r ON r.oid = a.grantee
		WHERE starts_with(n.nspname, $1)`); err != nil {
		return err
	}

	// functions
	rows, err = ck.k.Query(ctx, db, `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), coalesce(obj_description(p.oid, 'pg_proc'), ''),
		pg_get_userbyid(p.proowner)
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE starts_with(p.proname, $1)`, ck.prefix)
	if err != nil {
		return err
	}
	got, want = nil, nil
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q.%q(%s)", r[0], r[1], r[2]))
		ck.owners["function "+db+"."+r[0]+"."+r[1]] = r[4]
		if r[3] != "" {
			gotC = append(gotC, fmt.Sprintf("function %q: %q", r[1], r[3]))
		}
	}
	for _, f := range c.Functions {
		if s := c.Schema(f.Schema); s != nil && inDB(s.DB) {
			want = append(want, fmt.Sprintf("%q.%q(%s)", n.schemaName(f.Schema), e.Name(f.Name), functionVariants[f.Variant%len(functionVariants)].arg))
		}
	}
	ck.compareSets("function in "+db, got, want)
	if err := ck.aclRows(ctx, db, `SELECT 'function '||current_database()||'.'||n.nspname||'.'||p.proname, coalesce(r.rolname, 'PUBLIC'), a.privilege_type, a.is_grantable::text
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
		LEFT JOIN pg_roles r ON r.oid = a.grantee WHERE starts_with(p.proname, $1)`); err != nil {
		return err
	}
	for _, cm := range c.Comments {
		switch cm.Kind {
		case "schema":
			if s := c.Schema(cm.Target); s != nil && inDB(s.DB) {
				wantC = append(wantC, fmt.Sprintf("schema %q: %q", n.schemaName(cm.Target), cm.Text))
			}
		case "function":
			if f := c.Function(cm.Target); f != nil {
				if s := c.Schema(f.Schema); s != nil && inDB(s.DB) {
					wantC = append(wantC, fmt.Sprintf("function %q: %q", e.Name(f.Name), cm.Text))
				}
			}
		}
	}
	ck.compareSets("comment in "+db, gotC, wantC)

	// extensions
	rows, err = ck.k.Query(ctx, db, `SELECT e.extname, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = ANY($1)`, extensionNames)
	if err != nil {
		return err
	}
	got, want = nil, nil
	schemaOf := map[string]string{}
	for _, r := range rows {
		got = append(got, r[0])
		schemaOf[r[0]] = r[1]
	}
	for _, x := range c.Extensions {
		if !inDB(x.DB) {
			continue
		}
		want = append(want, x.Name)
		if s, ok := schemaOf[x.Name]; ok && x.Schema != "" && s != n.schemaName(x.Schema) {
			ck.diff("extension %q in %s: in schema %q, want %q", x.Name, db, s, n.schemaName(x.Schema))
		}
	}
	ck.compareSets("extension in "+db, got, want)

	// default privileges
	return ck.defaultPrivileges(ctx, db)
}

var defaclTypes = map[string]string{"table": "r", "sequence": "S", "function": "f", "type": "T", "schema": "n"}

// defaultPrivileges compares the default privileges of the walk's roles in db.
func (ck *checker) defaultPrivileges(ctx context.Context, db string) error {
	c, n := ck.c, ck.n
	rows, err := ck.k.Query(ctx, db, `SELECT pg_get_userbyid(d.defaclrole), coalesce(n.nspname, ''), d.defaclobjtype::text,
		coalesce(r.rolname, 'PUBLIC'), a.privilege_type, a.is_grantable::text, a.grantee = d.defaclrole
		FROM pg_default_acl d LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace, aclexplode(d.defaclacl) a
		LEFT JOIN pg_roles r ON r.oid = a.grantee WHERE starts_with(pg_get_userbyid(d.defaclrole), $1)`, ck.prefix)
	if err != nil {
		return err
	}
	type entry struct{ owner, schema, typ string }
	rowsOf := map[entry]map[string]privSet{}
	for _, r := range rows {
		en := entry{r[0], r[1], r[2]}
		if rowsOf[en] == nil {
			rowsOf[en] = map[string]privSet{}
		}
		if r[6] == "true" {
			continue // the owner's own
		}
		if rowsOf[en][r[3]] == nil {
			rowsOf[en][r[3]] = privSet{}
		}
		rowsOf[en][r[3]].add(r[4], r[5] == "true")
	}
	wantOf := map[entry]map[string]privSet{}
	for _, d := range c.DefaultPrivs {
		if n.dbName(d.DB) != db {
			continue
		}
		schema := ""
		if d.Schema != "" {
			schema = n.schemaName(d.Schema)
		}
		en := entry{n.roleName(d.Owner), schema, defaclTypes[d.Type]}
		if wantOf[en] == nil {
			wantOf[en] = map[string]privSet{}
		}
		ps := wantOf[en][n.roleName(d.Role)] // additive ones compose
		if ps == nil {
			ps = privSet{}
		}
		for _, p := range expand(d.Type, d.Privs, ck.e.Major) {
			ps.add(p, d.WGO)
		}
		wantOf[en][n.roleName(d.Role)] = ps
	}
	// every entry that exists or is configured: the walk's roles exactly,
	// PUBLIC where configured (else PostgreSQL's default, not managed)
	seen := map[entry]bool{}
	for en := range rowsOf {
		seen[en] = true
	}
	for en := range wantOf {
		seen[en] = true
	}
	for en := range seen {
		grantees := map[string]bool{}
		for g := range rowsOf[en] {
			grantees[g] = true
		}
		for g := range wantOf[en] {
			grantees[g] = true
		}
		for g := range grantees {
			w, covered := wantOf[en][g]
			if g == "PUBLIC" && !covered {
				continue
			}
			got, exists := rowsOf[en][g]
			if _, row := rowsOf[en]; !row && g == "PUBLIC" && en.schema == "" {
				// no entry: PostgreSQL's default, EXECUTE on functions and USAGE on types for PUBLIC
				switch en.typ {
				case "f":
					got, exists = privSet{"EXECUTE": false}, true
				case "T":
					got, exists = privSet{"USAGE": false}, true
				}
			}
			if !exists {
				got = privSet{}
			}
			if w == nil {
				w = privSet{}
			}
			if got.String() != w.String() {
				ck.diff("default privileges in %s for role %q in schema %q on %s to %q: %s, want %s", db, en.owner, en.schema, en.typ, g, got, w)
			}
		}
	}
	return nil
}

// fixture checks the fixture tables and sequences of the base database:
// privileges, owners, row-level security, policies and publications.
func (ck *checker) fixture(ctx context.Context) {
	c, e, n := ck.c, ck.e, ck.n
	db := e.BaseDB()
	if err := ck.aclRows(ctx, db, `SELECT CASE c.relkind WHEN 'S' THEN 'sequence ' ELSE 'table ' END || c.relname, coalesce(r.rolname, 'PUBLIC'),
		a.privilege_type, a.is_grantable::text
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
		aclexplode(coalesce(c.relacl, acldefault(CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END::"char", c.relowner))) a
		LEFT JOIN pg_roles r ON r.oid = a.grantee WHERE n.nspname = 'fx' AND c.relkind IN ('r', 'S') AND $1 <> ''`); err != nil {
		ck.diff("reading fixture privileges: %v", err)
		return
	}
	rows, err := ck.k.Query(ctx, db, `SELECT CASE c.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, c.relname, pg_get_userbyid(c.relowner),
		c.relrowsecurity::text, c.relforcerowsecurity::text
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'fx' AND c.relkind IN ('r', 'S')`)
	if err != nil {
		ck.diff("reading the fixture: %v", err)
		return
	}
	for _, r := range rows {
		ck.owners[r[0]+" "+r[1]] = r[2]
		if r[0] != "table" {
			continue
		}
		enabled, force := false, false
		for _, t := range c.TableRLS {
			if t.Table == r[1] {
				enabled, force = t.Enabled, t.Force
			}
		}
		if got, want := r[3]+"/"+r[4], fmt.Sprintf("%t/%t", enabled, force); got != want {
			ck.diff("row-level security of table %q (enabled/force): %s, want %s", r[1], got, want)
		}
	}
	for _, o := range c.Owners {
		if got := ck.owners[o.Type+" "+o.Object]; got != n.roleName(o.Owner) {
			ck.diff("owner of %s %q: %q, want %q", o.Type, o.Object, got, n.roleName(o.Owner))
		}
	}
	// policies
	rows, err = ck.k.Query(ctx, db, `SELECT c.relname, p.polname, p.polcmd::text,
		coalesce((SELECT string_agg(CASE WHEN o = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(o) END, ',' ORDER BY 1) FROM unnest(p.polroles) o), ''),
		coalesce(pg_get_expr(p.polqual, p.polrelid), '')
		FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'fx'`)
	if err != nil {
		ck.diff("reading policies: %v", err)
		return
	}
	var got, want []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q on %q %s to %s using %s", r[1], r[0], r[2], r[3], strings.Trim(r[4], "()")))
	}
	for _, p := range c.Policies {
		var roles []string
		for _, k := range p.Roles {
			roles = append(roles, n.roleName(k))
		}
		sort.Strings(roles)
		cmd := map[string]string{"ALL": "*", "SELECT": "r", "INSERT": "a", "UPDATE": "w", "DELETE": "d"}[p.Command]
		want = append(want, fmt.Sprintf("%q on %q %s to %s using %s", e.Name(p.Name), p.Table, cmd, strings.Join(roles, ","), p.Using))
	}
	ck.compareSets("policy", got, want)
	// publications
	rows, err = ck.k.Query(ctx, db, `SELECT p.pubname, coalesce((SELECT string_agg(pt.schemaname || '.' || pt.tablename, ',' ORDER BY pt.schemaname || '.' || pt.tablename COLLATE "C")
		FROM pg_publication_tables pt WHERE pt.pubname = p.pubname), '') FROM pg_publication p WHERE starts_with(p.pubname, $1)`, ck.prefix)
	if err != nil {
		ck.diff("reading publications: %v", err)
		return
	}
	got, want = nil, nil
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q tables=%s", r[0], r[1]))
	}
	for _, p := range c.Publications {
		var ts []string
		for _, t := range p.Tables {
			ts = append(ts, FixtureSchema+"."+t)
		}
		sort.Strings(ts)
		want = append(want, fmt.Sprintf("%q tables=%s", e.Name(p.Name), strings.Join(ts, ",")))
	}
	ck.compareSets("publication", got, want)
}

// cover records that a resource says grantee holds privs on securable.
func (ck *checker) cover(securable, grantee string, privs []string, grantable bool) {
	m := ck.want[securable]
	if m == nil {
		m = map[string]privSet{}
		ck.want[securable] = m
	}
	if m[grantee] == nil {
		m[grantee] = privSet{}
	}
	for _, p := range privs {
		m[grantee].add(p, grantable)
	}
}

// expectedACLs is what grants and schema policies say.
func (ck *checker) expectedACLs() {
	c, n := ck.c, ck.n
	for _, s := range c.Schemas {
		sec := "schema " + n.dbName(s.DB) + "." + n.schemaName(s.Key)
		for _, p := range s.Policies {
			var privs []string
			if p.Usage {
				privs = append(privs, "USAGE")
			}
			if p.Create {
				privs = append(privs, "CREATE")
			}
			ck.cover(sec, n.roleName(p.Role), privs, false)
			var wg []string
			if p.UsageWG {
				wg = append(wg, "USAGE")
			}
			if p.CreateWG {
				wg = append(wg, "CREATE")
			}
			ck.cover(sec, n.roleName(p.Role), wg, true)
		}
	}
	for _, g := range c.Grants {
		privs := expand(g.Type, g.Privs, ck.e.Major)
		grantee := n.roleName(g.Role)
		switch g.Type {
		case "database":
			ck.cover("database "+n.dbName(g.DB), grantee, privs, g.WGO)
		case "schema":
			ck.cover("schema "+n.dbName(g.DB)+"."+n.schemaName(g.Schema), grantee, privs, g.WGO)
		case "table", "sequence":
			if g.Schema != FixtureSchema {
				continue // tables in walk schemas: none
			}
			objs := g.Objects
			if len(objs) == 0 {
				objs = FixtureTables
				if g.Type == "sequence" {
					objs = FixtureSequences
				}
			}
			for _, o := range objs {
				ck.cover(g.Type+" "+o, grantee, privs, g.WGO)
			}
		case "function":
			for _, f := range c.Functions {
				if f.Schema == g.Schema && (len(g.Objects) == 0 || slices.Contains(g.Objects, f.Key)) {
					ck.cover("function "+n.dbName(g.DB)+"."+n.schemaName(g.Schema)+"."+ck.e.Name(f.Name), grantee, privs, g.WGO)
				}
			}
		}
	}
}

// compareACLs compares privileges on every securable that exists: the
// walk's roles hold exactly what the configuration gives them (nothing where
// it gives nothing), PUBLIC exactly what a resource that covers it says;
// the owner's own privileges are not compared.
func (ck *checker) compareACLs() {
	may := map[string]map[string]privSet{}
	for k, m := range ck.inh {
		if s := ck.c.Schema(k); s != nil {
			sec := "schema " + ck.n.dbName(s.DB) + "." + ck.n.schemaName(k)
			may[sec] = map[string]privSet{}
			for r, ps := range m {
				may[sec][ck.n.roleName(r)] = ps
			}
		}
	}
	for sec, owner := range ck.owners {
		grantees := map[string]bool{}
		for g := range ck.acl[sec] {
			grantees[g] = true
		}
		for g := range ck.want[sec] {
			grantees[g] = true
		}
		for g := range grantees {
			if g == owner || (g != "PUBLIC" && !strings.HasPrefix(g, ck.prefix)) {
				continue
			}
			w, covered := ck.want[sec][g]
			if g == "PUBLIC" && !covered {
				continue
			}
			got := ck.acl[sec][g]
			if got == nil {
				got = privSet{}
			}
			if w == nil {
				w = privSet{}
			}
			if got.String() != w.String() && !inherits(got, w, may[sec][g]) {
				ck.diff("privileges of %q on %s: %s, want %s", g, sec, got, w)
			}
		}
	}
}
