package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pgtf/terraform-provider-postgresql/internal/acctest"
)

// queryLoop runs queries as an application role in a loop, on one session,
// until stopped, counting the rounds and the errors: what an application sees
// while Terraform applies.
type queryLoop struct {
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	rounds  int
	denied  int      // permission denied (SQLSTATE 42501)
	failed  []string // other errors and failed checks (first few)
	nFailed int
}

// startQueryLoop connects to database db as user and runs round (one
// round of queries; an error fails the round) until stop is called.
func startQueryLoop(t *testing.T, db, user, password string, round func(ctx context.Context, q func(sql string, args ...any) (string, error)) error) *queryLoop {
	t.Helper()
	conn := acctest.ConnectAs(t, db, user, password)
	l := &queryLoop{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		ctx := context.Background()
		q := func(sql string, args ...any) (string, error) {
			var s string
			err := conn.QueryRow(ctx, sql, args...).Scan(&s)
			return s, err
		}
		for {
			select {
			case <-l.stop:
				return
			default:
			}
			err := round(ctx, q)
			l.mu.Lock()
			l.rounds++
			var pgErr *pgconn.PgError
			switch {
			case err == nil:
			case errors.As(err, &pgErr) && pgErr.Code == "42501":
				l.denied++
			default:
				l.nFailed++
				if len(l.failed) < 5 {
					l.failed = append(l.failed, err.Error())
				}
			}
			l.mu.Unlock()
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return l
}

// finish stops the loop and reports what it saw: an error unless every round
// succeeded (and there was at least one).
func (l *queryLoop) finish(t *testing.T) error {
	t.Helper()
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.denied > 0 || l.nFailed > 0 {
		return fmt.Errorf("during the apply the application saw %d permission denied and %d other failures in %d queries: %s",
			l.denied, l.nFailed, l.rounds, strings.Join(l.failed, "; "))
	}
	if l.rounds == 0 {
		return errors.New("the application's query loop ran no query during the apply")
	}
	t.Logf("application session during the rename apply: no permission denied, %d queries", l.rounds)
	return nil
}

// Renaming a role, a database, a schema or the owner of default privileges
// that grants name used to replace the grants: Terraform revoked the
// privileges (destroy), renamed, then granted them again, and applications
// lost access for the length of the apply. PostgreSQL keys ACLs by OID, so
// the privileges follow the rename: the grants, default privileges and
// memberships now update in place and run no GRANT or REVOKE (the catalog
// rows holding the ACLs keep their xmin), while a session of the grantee
// queries throughout the apply and is never denied. Naming another role that
// already exists (not a rename) still moves the privileges, in place.
func TestAccGrant_regressionRenameRevokesAndRegrants(t *testing.T) {
	acctest.PreCheck(t)
	base := acctest.RandName("grn")
	grantee, grantee2 := base+` "g`, base+"_g2 ü"
	group, dpo, dpo2 := base+"_grp", base+"_dpo", base+"_dpo2"
	owner := base + "_own"
	stableDB, db, db2 := base+"_e", base+"_d", base+"_d2 ü"
	schema, schema2 := "s1", `s2 "ü`
	password := "pw-" + base
	setup := func() {
		acctest.OwnerRole(t, owner)
		acctest.Database(t, stableDB, owner)
		acctest.Exec(t, stableDB,
			"CREATE SCHEMA es AUTHORIZATION "+acctest.QI(owner),
			"SET ROLE "+acctest.QI(owner),
			"CREATE TABLE es.t (a int)",
			"INSERT INTO es.t VALUES (1)",
			"RESET ROLE")
		t.Cleanup(func() {
			acctest.Exec(t, "", "DROP DATABASE IF EXISTS "+acctest.QI(db)+" WITH (FORCE)", "DROP DATABASE IF EXISTS "+acctest.QI(db2)+" WITH (FORCE)")
		})
	}
	type names struct{ grantee, db, schema, dpo, tableRole, dpRole, seqType string }
	first := names{grantee: grantee, db: db, schema: schema, dpo: dpo, seqType: "sequence"}
	renamed := first
	renamed.grantee, renamed.db = grantee2, db2
	schemaRenamed := renamed
	schemaRenamed.schema, schemaRenamed.dpo = schema2, dpo2
	moved := schemaRenamed
	moved.tableRole, moved.dpRole = "postgresql_role.grp.name", "postgresql_role.grp.name"
	retyped := moved
	retyped.seqType = "table"
	q := acctest.QuoteHCL
	config := func(n names, withD bool) string {
		if n.tableRole == "" {
			n.tableRole = "postgresql_role.g.name"
		}
		if n.dpRole == "" {
			n.dpRole = "postgresql_role.g.name"
		}
		g := "postgresql_role.g.name"
		b := acctest.Config(`
resource "postgresql_role" "g" {
  name     = %s
  login    = true
  password = %s
}
resource "postgresql_role" "grp" { name = %s }
resource "postgresql_role" "dpo" { name = %s }
resource "postgresql_grant_role" "m" {
  role       = postgresql_role.g.name
  grant_role = postgresql_role.grp.name
}
resource "postgresql_database" "d" { name = %s }
resource "postgresql_schema" "s" {
  database     = postgresql_database.d.name
  name         = %s
  owner        = %s
  drop_cascade = true
}
`, q(n.grantee), q(password), q(group), q(n.dpo), q(n.db), q(n.schema), q(owner))
		blocks := []string{
			acctest.Resource("postgresql_grant", "e_db", "role", g, "database", q(stableDB), "object_type", `"database"`, "privileges", `["CONNECT"]`),
			acctest.Resource("postgresql_grant", "e_schema", "role", g, "database", q(stableDB), "schema", `"es"`, "object_type", `"schema"`, "privileges", `["USAGE"]`),
			acctest.Resource("postgresql_grant", "e_table", "role", g, "database", q(stableDB), "schema", `"es"`, "object_type", `"table"`, "objects", `["t"]`, "privileges", `["SELECT"]`),
			acctest.Resource("postgresql_default_privileges", "e_dp", "role", g, "database", q(stableDB), "owner", q(owner), "schema", `"es"`, "object_type", `"table"`, "privileges", `["SELECT"]`),
		}
		if withD {
			blocks = append(blocks,
				acctest.Resource("postgresql_grant", "d_db", "role", g, "database", "postgresql_database.d.name", "object_type", `"database"`, "privileges", `["CONNECT", "TEMPORARY"]`),
				acctest.Resource("postgresql_grant", "d_schema", "role", g, "database", "postgresql_database.d.name", "schema", "postgresql_schema.s.name", "object_type", `"schema"`, "privileges", `["USAGE"]`),
				acctest.Resource("postgresql_grant", "d_table", "role", n.tableRole, "database", "postgresql_database.d.name", "schema", "postgresql_schema.s.name",
					"object_type", `"table"`, "objects", `["t"]`, "privileges", `["SELECT"]`),
				acctest.Resource("postgresql_grant", "d_seq", "role", g, "database", "postgresql_database.d.name", "schema", "postgresql_schema.s.name",
					"object_type", q(n.seqType), "privileges", `["SELECT"]`),
				acctest.Resource("postgresql_default_privileges", "d_dp", "role", n.dpRole, "database", "postgresql_database.d.name", "owner", "postgresql_role.dpo.name",
					"schema", "postgresql_schema.s.name", "object_type", `"table"`, "privileges", `["SELECT", "INSERT"]`),
			)
		}
		return b + strings.Join(blocks, "")
	}
	grants := []string{"postgresql_grant.e_db", "postgresql_grant.e_schema", "postgresql_grant.e_table", "postgresql_default_privileges.e_dp",
		"postgresql_grant.d_db", "postgresql_grant.d_schema", "postgresql_grant.d_table", "postgresql_grant.d_seq", "postgresql_default_privileges.d_dp",
		"postgresql_grant_role.m"}

	// rows renders the xmin of every catalog row holding an ACL these grants
	// manage: a GRANT or REVOKE (even one changing nothing) writes a new row.
	rows := func(dbName, schemaName, role string) string {
		inDB := func(d, nsp string) string {
			return acctest.QueryString(t, d, `SELECT concat_ws(' ', 'nsp=' || n.xmin::text,
  (SELECT string_agg(c.relname || '=' || c.xmin::text, ',' ORDER BY c.relname) FROM pg_class c WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'S')),
  (SELECT 'defacl=' || string_agg(d.xmin::text, ',' ORDER BY d.oid) FROM pg_default_acl d))
FROM pg_namespace n WHERE n.nspname = $1`, nsp)
		}
		global := acctest.QueryString(t, "", `SELECT concat_ws(' ', 'e=' || (SELECT xmin::text FROM pg_database WHERE datname = $1),
  'members=' || (SELECT string_agg(m.xmin::text, ',') FROM pg_auth_members m WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = $2)))`, stableDB, role)
		return global + " | " + inDB(stableDB, "es") + " | " + inDB(dbName, schemaName)
	}
	var before string
	var loop *queryLoop
	var granteeOID, groupOID, dbOIDs string
	sameRows := func(dbName, schemaName, role string) func(*terraform.State) error {
		return func(*terraform.State) error {
			if got := rows(dbName, schemaName, role); got != before {
				return fmt.Errorf("the rename rewrote catalog rows holding ACLs (GRANT or REVOKE ran):\nbefore %s\nafter  %s", before, got)
			}
			return nil
		}
	}
	// the identity follows the rename (Terraform 1.12+ records identities)
	var identity []statecheck.StateCheck
	if acctest.CLIUnderTest(t).Supports(acctest.FeatureResourceIdentity) {
		for _, a := range []string{"postgresql_grant.d_table", "postgresql_grant.e_table", "postgresql_default_privileges.d_dp", "postgresql_grant_role.m"} {
			for _, attr := range []string{"role", "database"} {
				if a == "postgresql_grant_role.m" && attr == "database" {
					attr = "grant_role"
				}
				identity = append(identity, statecheck.ExpectIdentityValueMatchesState(a, tfjsonpath.New(attr)))
			}
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t); setup() },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkRoleGone(t, grantee, grantee2, group, dpo, dpo2),
		Steps: []resource.TestStep{
			{Config: config(first, false)},
			{
				PreConfig: acctest.ExecFunc(t, db,
					"SET ROLE "+acctest.QI(owner),
					"CREATE TABLE "+acctest.QQ(schema, "t")+" (a int)",
					"CREATE SEQUENCE "+acctest.QQ(schema, "q"),
					"RESET ROLE"),
				Config: config(first, true),
			},
			{ // rename the grantee and the database: updates in place, no GRANT or REVOKE, no access lost
				PreConfig: func() {
					before = rows(db, schema, grantee)
					granteeOID = acctest.QueryString(t, "", "SELECT oid::text FROM pg_roles WHERE rolname = $1", grantee)
					groupOID = acctest.QueryString(t, "", "SELECT oid::text FROM pg_roles WHERE rolname = $1", group)
					dbOIDs = acctest.QueryString(t, "", "SELECT string_agg(oid::text, ',') FROM pg_database WHERE datname IN ($1, $2)", db, stableDB)
					loop = startQueryLoop(t, stableDB, grantee, password, func(ctx context.Context, q func(string, ...any) (string, error)) error {
						if _, err := q("SELECT count(*)::text FROM es.t"); err != nil {
							return err
						}
						// CONNECT on both databases and the membership, from the catalog (the
						// renamed database cannot be connected to during its rename)
						got, err := q(`SELECT (SELECT count(*) FROM pg_database d, aclexplode(d.datacl) a
  WHERE d.oid = ANY(string_to_array($1, ',')::oid[]) AND a.grantee = $2::oid AND a.privilege_type = 'CONNECT')::text
  || ' ' || pg_has_role($2::oid, $3::oid, 'MEMBER')::text`, dbOIDs, granteeOID, groupOID)
						if err != nil {
							return err
						}
						if got != "2 true" {
							return &pgconn.PgError{Code: "42501", Message: "lost CONNECT or membership: " + got}
						}
						return nil
					})
				},
				Config:            config(renamed, true),
				ConfigPlanChecks:  expectUpdate(append(grants, "postgresql_role.g", "postgresql_database.d", "postgresql_schema.s")...),
				ConfigStateChecks: identity,
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error { return loop.finish(t) },
					sameRows(db2, schema, grantee2),
					resource.TestCheckResourceAttr("postgresql_grant.d_table", "role", grantee2),
					resource.TestCheckResourceAttr("postgresql_grant.d_table", "database", db2),
					resource.TestCheckResourceAttr("postgresql_default_privileges.d_dp", "database", db2),
					resource.TestCheckResourceAttr("postgresql_grant_role.m", "role", grantee2),
				),
			},
			{Config: config(renamed, true), PlanOnly: true},
			// import after the rename
			{Config: config(renamed, true), ResourceName: "postgresql_grant.d_table", ImportState: true, ImportStateVerify: true},
			{Config: config(renamed, true), ResourceName: "postgresql_grant.d_db", ImportState: true, ImportStateVerify: true},
			{Config: config(renamed, true), ResourceName: "postgresql_default_privileges.d_dp", ImportState: true, ImportStateVerify: true},
			{Config: config(renamed, true), ResourceName: "postgresql_grant_role.m", ImportState: true, ImportStateVerify: true},
			{ // rename the schema and the owner of the default privileges: in place too
				PreConfig:        func() { before = rows(db2, schema, grantee2) },
				Config:           config(schemaRenamed, true),
				ConfigPlanChecks: expectUpdate("postgresql_grant.d_schema", "postgresql_grant.d_table", "postgresql_grant.d_seq", "postgresql_default_privileges.d_dp"),
				Check: func(*terraform.State) error {
					got, want := rows(db2, schema2, grantee2), before
					// the schema's own row changed (ALTER SCHEMA RENAME): compare the rest
					cut := func(s string) string {
						parts := strings.Split(s, " | ")
						_, rest, _ := strings.Cut(parts[2], " ")
						return parts[0] + " | " + parts[1] + " | " + rest
					}
					if cut(got) != cut(want) {
						return fmt.Errorf("the schema rename rewrote catalog rows holding ACLs:\nbefore %s\nafter  %s", want, got)
					}
					return nil
				},
			},
			{ // another role that exists (not a rename): the privileges move to it, in place
				Config:           config(moved, true),
				ConfigPlanChecks: expectUpdate("postgresql_grant.d_table", "postgresql_default_privileges.d_dp"),
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error {
						got := acctest.QueryString(t, db2, `SELECT string_agg(r.rolname || ':' || a.privilege_type, ',' ORDER BY r.rolname, a.privilege_type)
FROM pg_class c, aclexplode(c.relacl) a JOIN pg_roles r ON r.oid = a.grantee WHERE c.oid = $1::regclass AND r.rolname IN ($2, $3)`, acctest.QQ(schema2, "t"), grantee2, group)
						if want := group + ":SELECT"; got != want {
							return fmt.Errorf("privileges on t: %q, want %q", got, want)
						}
						got = acctest.QueryString(t, db2, `SELECT string_agg(r.rolname || ':' || a.privilege_type, ',' ORDER BY r.rolname, a.privilege_type)
FROM pg_default_acl d, aclexplode(d.defaclacl) a JOIN pg_roles r ON r.oid = a.grantee WHERE d.defaclrole = $1::regrole AND r.rolname IN ($2, $3)`, acctest.QI(dpo2), grantee2, group)
						if want := group + ":INSERT," + group + ":SELECT"; got != want {
							return fmt.Errorf("default privileges: %q, want %q", got, want)
						}
						return nil
					},
				),
			},
			{ // object_type still replaces
				Config:           config(retyped, true),
				ConfigPlanChecks: expectAction("postgresql_grant.d_seq", plancheck.ResourceActionReplace),
			},
		},
	})
}
